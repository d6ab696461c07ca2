import type { Notice } from './notices.js';

/**
 * The playground's page ⇄ server protocol. The server half (src/playground/*.ts) runs in Regdesk's
 * process; the page (src/playground/web/) runs in the browser. Both import these types, so the two
 * halves cannot drift. Everything Slack-shaped (blocks, views, action payloads) is kept exactly as
 * Slack would send or store it: the page renders Regdesk's own Block Kit JSON.
 *
 * All paths are under `/playground`; every one answers loopback clients only.
 *   GET  /playground                     the page (index.html)
 *   GET  /playground/assets/NAME         the page's scripts (compiled from web/*.ts) and styles
 *   GET  /playground/api/state           PlaygroundSnapshot
 *   GET  /playground/api/events          server-sent events, one PlaygroundEvent per `data:` line
 *   POST /playground/api/composer        ComposerInput → ApiResult
 *   POST /playground/api/action          ActionInput → ApiResult
 *   POST /playground/api/view-submission ViewSubmissionInput → ViewSubmissionResult
 *   POST /playground/api/view-closed     ViewClosedInput → ApiResult
 *   POST /playground/api/home-opened     HomeOpenedInput → ApiResult
 *   POST /playground/api/shortcut        MessageShortcutInput → ApiResult
 *   POST /playground/api/reaction        ReactionInput → ApiResult
 *   POST /playground/api/clock           ClockInput → ApiResult (fast-forwards the registrar simulator)
 *   POST /playground/api/language        LanguageInput → ApiResult (a member's Slack language)
 *   POST /playground/api/demo-csr        { names } → ApiResult & { csr } (a throwaway CSR for them)
 *   GET  /playground/files/ID            a file Regdesk uploaded (Content-Disposition: attachment)
 */

export interface PlaygroundUser {
  id: string;
  /** Handle, e.g. `ada`. */
  name: string;
  realName: string;
  isAdmin: boolean;
  isOwner: boolean;
  /** IANA time zone; `<!date^…>` tokens render in the viewer's zone. */
  tz: string;
  locale: string;
}

export interface PlaygroundChannel {
  id: string;
  /** `general`, `ops`; for a DM the other person's handle. */
  name: string;
  kind: 'public' | 'private' | 'im' | 'mpim';
  botMember: boolean;
  /** Human members. */
  members: string[];
}

export interface PlaygroundFile {
  id: string;
  name: string;
  title?: string;
  size: number;
  /** Download path on the playground server (`/playground/files/ID`). */
  url: string;
}

export interface PlaygroundMessage {
  channel: string;
  ts: string;
  /** Set on thread replies (and on the parent, equal to its own ts, once it has replies). */
  threadTs?: string;
  /** The human author; absent for the bot's messages. */
  user?: string;
  /** True when Regdesk posted it. */
  fromBot: boolean;
  text?: string;
  /** Block Kit blocks exactly as Regdesk sent them. */
  blocks?: unknown[];
  /** Ephemeral messages are seen only by this user ("Only visible to you"). */
  ephemeralTo?: string;
  /** A message posted through a response_url with `response_type: in_channel` or replaced there. */
  viaResponseUrl?: boolean;
  edited?: boolean;
  reactions: Array<{ name: string; users: string[] }>;
  files: PlaygroundFile[];
  /** Slack's `channel_join` / `channel_leave`: `member` joined or left, added or removed by `by`. */
  system?: { kind: 'joined' | 'left'; member: string; by?: string };
}

/** One open modal; a user's modals form a stack (push adds, update replaces, close pops/clears). */
export interface PlaygroundView {
  id: string;
  user: string;
  /** The Slack view object (type modal or home) as Regdesk sent it. */
  view: unknown;
  hash: string;
  /** Per-block errors from a `response_action: errors` answer. */
  errors?: Record<string, string>;
}

export interface RegistrarRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  /** The upstream limit it counted against (e.g. `availability`, `assistantKey`), when any. */
  limit?: string;
  durationMs: number;
}

export interface RegistrarSnapshot {
  /** The most recent requests, newest last (bounded). */
  requests: RegistrarRequest[];
  /** The simulator's seeded account: domains, certificates, organizations (summaries). */
  account: {
    domains: Array<{ name: string; expires?: string; autoRenew?: boolean; dnssec?: string }>;
    certificates: Array<{ id: string; commonName: string; status: string; product?: string }>;
    organizations: Array<{ id: string; name: string }>;
  };
  /** How far the simulator's clock has been moved ahead of real time. */
  clockOffsetMs: number;
}

export interface SlashCommandInfo {
  command: string;
  description: string;
  usageHint?: string;
}

/** A message shortcut from manifest.yml (`features.shortcuts` of type `message`). */
export interface MessageShortcutInfo {
  name: string;
  callbackId: string;
}

/** Suggested prompts Regdesk pinned to the top of a person's Messages tab (their DM with the bot). */
export interface SuggestedPrompts {
  title?: string;
  prompts: Array<{ title: string; message: string }>;
}

export interface PlaygroundSnapshot {
  workspace: { id: string; name: string };
  bot: { userId: string; name: string };
  users: PlaygroundUser[];
  channels: PlaygroundChannel[];
  /** Every message, ephemerals included (the page shows each user only their own ephemerals). */
  messages: PlaygroundMessage[];
  /** Open modal stacks, bottom first, per user id. */
  views: Record<string, PlaygroundView[]>;
  /** Each user's published App Home view, when Regdesk has published one. */
  homes: Record<string, unknown>;
  /** From manifest.yml: completion and usage hints in the composer. */
  commands: SlashCommandInfo[];
  /** From manifest.yml: each message's "More actions" menu. */
  messageShortcuts: MessageShortcutInfo[];
  /** Pinned to each Messages tab, by the DM's channel id. */
  suggestedPrompts: Record<string, SuggestedPrompts>;
  /** Threads' statuses (`assistant.threads.setStatus`), by `channel:thread_ts`; empty once cleared. */
  threadStatuses: Record<string, string>;
  registrar: RegistrarSnapshot;
  /** Regdesk's order modal, by its callback and block ids: the page offers a demo CSR there. */
  demoCsr: { callbackId: string; commonName: string; sans: string; csr: string };
}

export type PlaygroundEvent =
  | { type: 'message'; message: PlaygroundMessage }
  | { type: 'message_changed'; message: PlaygroundMessage }
  | { type: 'message_deleted'; channel: string; ts: string }
  | { type: 'views'; user: string; stack: PlaygroundView[] }
  | { type: 'home'; user: string; view: unknown }
  | { type: 'channel'; channel: PlaygroundChannel }
  | { type: 'registrar'; registrar: RegistrarSnapshot }
  | { type: 'prompts'; channel: string; prompts: SuggestedPrompts }
  | { type: 'thread_status'; channel: string; threadTs: string; status: string }
  /** A member changed (their language). */
  | { type: 'user'; user: PlaygroundUser };

export interface ApiResult {
  ok: boolean;
  /** A code (`dispatch_failed`, `not_found`), shown as such when not ok and there is no notice. */
  error?: string;
  /** What Slack's client would tell the person (worded by the page in their language), ok or not. */
  notice?: Notice;
}

/** Text typed into the composer: `/command args` runs a slash command, anything else is a message. */
export interface ComposerInput {
  user: string;
  channel: string;
  text: string;
  /** Reply in this thread. */
  threadTs?: string;
}

/** The value an interactive element carries in a `block_actions` payload, as Slack builds it. */
export interface ActionValue {
  type: string;
  action_id: string;
  /** The block's `block_id`; for a block Regdesk sent without one, `b<index>` (its position) or ''. */
  block_id: string;
  value?: string;
  selected_option?: { text: { type: 'plain_text'; text: string }; value: string };
  selected_options?: Array<{ text: { type: 'plain_text'; text: string }; value: string }>;
  selected_user?: string;
  selected_users?: string[];
  selected_conversation?: string;
  selected_conversations?: string[];
  selected_channel?: string;
  selected_date?: string;
}

export type ActionSource =
  | { kind: 'message'; channel: string; ts: string }
  | { kind: 'view'; viewId: string }
  | { kind: 'home' };

export interface ActionInput {
  user: string;
  source: ActionSource;
  action: ActionValue;
  /** For actions inside a modal: the current input values (Slack's `view.state.values`). */
  state?: StateValues;
}

/** Slack's `view.state.values`: block_id → action_id → element value. */
export type StateValues = Record<string, Record<string, Omit<ActionValue, 'action_id' | 'block_id'>>>;

export interface ViewSubmissionInput {
  user: string;
  viewId: string;
  values: StateValues;
}

export interface ViewSubmissionResult extends ApiResult {
  /** Per-block errors to show under the inputs (`response_action: errors`). */
  errors?: Record<string, string>;
}

/** A throwaway CSR (PEM) for the names asked, which the page puts into the order modal's field. */
export interface DemoCsrResult extends ApiResult {
  csr?: string;
}

export interface ViewClosedInput {
  user: string;
  viewId: string;
}

export interface ReactionInput {
  user: string;
  channel: string;
  ts: string;
  name: string;
}

/** A person opens a tab of Regdesk's App Home: `messages` is their DM with the bot. */
export interface HomeOpenedInput {
  user: string;
  tab?: 'home' | 'messages';
}

/** A message shortcut chosen from a message's "More actions" menu. */
export interface MessageShortcutInput {
  user: string;
  channel: string;
  ts: string;
  callbackId: string;
}

export interface ClockInput {
  advanceMs: number;
}

/** The Slack languages a member can switch between: Regdesk speaks German to `de-*`, else English. */
export const PLAYGROUND_LOCALES = ['en-US', 'de-DE'] as const;

/** A member's Slack language, as they would set it in Slack's preferences. */
export interface LanguageInput {
  user: string;
  locale: (typeof PLAYGROUND_LOCALES)[number];
}

/** Ids the page and the browser tests rely on (`data-testid` attributes). */
export const TEST_IDS = {
  channelList: 'channel-list',
  userSwitcher: 'user-switcher',
  languageSwitcher: 'language-switcher',
  composer: 'composer',
  messageList: 'message-list',
  message: 'message',
  thread: 'thread',
  modal: 'modal',
  modalSubmit: 'modal-submit',
  modalClose: 'modal-close',
  homeTab: 'home-tab',
  registrarPanel: 'registrar-panel',
  registrarToggle: 'registrar-toggle',
  demoCsr: 'demo-csr',
  clockForward: 'clock-forward',
  notice: 'notice',
  suggestedPrompts: 'suggested-prompts',
  threadStatus: 'thread-status',
  moreActions: 'more-actions',
} as const;
