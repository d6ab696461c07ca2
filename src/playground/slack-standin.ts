import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitProblems, type Surface } from './block-limits.js';
import { isLocalHostHeader } from './guard.js';
import type { PlaygroundEvent, PlaygroundFile, PlaygroundMessage, PlaygroundView } from './web/protocol.js';

/** One recorded call to the Slack Web API stand-in or to a response_url. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token?: string;
  at: number;
  /** What the stand-in answered (e.g. the `ts` of a posted message, or `{ ok: false, error }`). */
  result?: unknown;
}

export interface StandInUser {
  id: string;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_bot?: boolean;
  /** Multi-channel guest. */
  is_restricted?: boolean;
  /** Single-channel guest. */
  is_ultra_restricted?: boolean;
  deleted?: boolean;
  /** Slack Connect: a user of another organisation seen through a shared channel. */
  is_stranger?: boolean;
  locale?: string;
  name?: string;
  real_name?: string;
  /** Another team's id makes the user external (Slack Connect). */
  team_id?: string;
  tz?: string;
  tz_offset?: number;
}

/**
 * A conversation as Slack keeps it. Slack answers `not_in_channel` for a public channel the bot is
 * not in, and `channel_not_found` for a private channel, DM or group DM it is not in.
 */
export interface StandInConversation {
  kind: 'public' | 'private' | 'im' | 'mpim';
  botMember: boolean;
  /** Human members; `undefined` means everyone (a lenient default for ids a test did not define). */
  members?: string[];
  archived?: boolean;
  /** Shared with another organisation (Slack Connect). */
  shared?: boolean;
  /** `general`; for a DM the other person's handle. */
  name?: string;
}

export interface StandInMessage {
  channel: string;
  ts: string;
  text?: unknown;
  blocks?: unknown;
  threadTs?: string;
  /** The human author; absent for the bot's messages. */
  user?: string;
  /** Set on ephemeral messages: only this user sees them. */
  ephemeralTo?: string;
  viaResponseUrl?: boolean;
  edited?: boolean;
  reactions?: Array<{ name: string; users: string[] }>;
  /** Ids of files shared with the message. */
  files?: string[];
}

export interface StandInFile {
  id: string;
  name: string;
  title?: string;
  bytes: Buffer;
}

/** A thread as an agent app's `assistant.threads.*` methods address it: by channel and root `thread_ts`. */
export interface StandInAssistantThread {
  status?: string;
  title?: string;
}

/** Suggested prompts an agent app pinned to the top of a person's Messages tab (their DM with the bot). */
export interface StandInSuggestedPrompts {
  title?: string;
  prompts: Array<{ title: string; message: string }>;
}

/** What a response_url was issued for: Slack ties each to the interaction that carried it. */
export interface ResponseContext {
  channel: string;
  user: string;
  /** The message a block action came from: `replace_original` / `delete_original` act on it. */
  messageTs?: string;
  /**
   * A slash command's response_url: there the original is the latest response (the acknowledgement's
   * message or an earlier post), so each response becomes what the next replacement acts on.
   */
  latestIsOriginal?: boolean;
  threadTs?: string;
}

export type Answer = { status?: number; headers?: Record<string, string>; body: unknown };
type Responder = (args: Record<string, unknown>) => Answer;
/** One Web API method: its arguments in, Slack's JSON answer out. */
export type MethodHandler = (args: Record<string, unknown>) => unknown;

/** Longest assistant thread status the stand-in accepts (Slack shows it on one line). */
const ASSISTANT_STATUS_MAX = 100;
/** Slack's trigger_id is good for 3 seconds (docs/requirements.md R2). */
const TRIGGER_LIFETIME_MS = 3_000;
/** Slack allows five posts to a response_url within 30 minutes. */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;
/** Slack keeps at most three modals stacked. */
const VIEW_STACK_MAX = 3;
/**
 * Request bodies the stand-in reads (413 beyond): Web API calls and response_url posts are JSON or
 * form bodies far below 1 MiB (a message is at most 40 000 characters, a view 100 blocks); file
 * uploads (`files.getUploadURLExternal`'s upload_url) may be larger, up to 10 MiB (certificates and
 * CSV exports are kilobytes). Slack's own limits are higher; these only keep memory bounded.
 */
export const MAX_API_BODY_BYTES = 1024 * 1024;
export const MAX_UPLOAD_BODY_BYTES = 10 * 1024 * 1024;
export const WORKSPACE = 'T0001';
export const BOT_USER = 'UBOT';

/** A trigger id as Slack issues it with an interaction; the stand-in reads the issue time from it. */
export function newTriggerId(issuedAt = Date.now()): string {
  return `${issuedAt}.${randomBytes(4).readUInt32BE()}.${randomBytes(8).toString('hex')}`;
}

/**
 * A local stand-in for the Slack Web API (`SLACK_API_URL`) and for every `response_url`: the
 * playground's Slack and the one the test suite drives. It keeps conversations, membership,
 * messages, ephemerals, reactions, views (per-user modal stacks and Home tabs) and files, and refuses
 * what Slack refuses: posts where the bot is not a member, ephemerals to users outside the channel,
 * updates of deleted messages, archived channels, uploads without membership, expired triggers,
 * blocks beyond Block Kit's limits. Ids a test did not define get lenient defaults: `C…` a public
 * channel with the bot and everyone in it, `D<user>` the user's DM with the bot. Tests can also
 * answer any call once with `override`, or fail it with `failNext`. Every change is announced to
 * `onChange` listeners (the playground streams them to its page).
 */
export class SlackStandIn {
  readonly calls: SlackCall[] = [];
  readonly users = new Map<string, StandInUser>();
  readonly conversations = new Map<string, StandInConversation>();
  readonly messages = new Map<string, StandInMessage>();
  readonly ephemerals = new Map<string, StandInMessage>();
  readonly uploads = new Map<string, Buffer>();
  readonly files = new Map<string, StandInFile>();
  readonly views = new Map<
    string,
    { hash: string; view: unknown; user?: string; errors?: Record<string, string> }
  >();
  /** Threads the app gave a status or title, by `channel:thread_ts`. */
  readonly assistantThreads = new Map<string, StandInAssistantThread>();
  /** Suggested prompts pinned to each Messages tab, by the DM's channel id. */
  readonly suggestedPrompts = new Map<string, StandInSuggestedPrompts>();
  /** Each user's published App Home view, with the `id` and `hash` Slack gave it. */
  readonly homes = new Map<string, unknown>();
  workspaceName = 'Acme';
  /** How many calls `calls` keeps: all by default (tests read them); a long-running playground keeps the newest. */
  keepCalls = Number.POSITIVE_INFINITY;
  /**
   * When set, Web API calls need `Authorization: Bearer <botToken>`, answered as Slack does
   * (`not_authed`, `invalid_auth`). The playground sets its bot token; tests leave it open.
   */
  botToken: string | undefined;
  #server: Server | undefined;
  /** Ids (files, views, hashes) count up from here. */
  #seq = 1_000;
  /** Message timestamps are Slack-shaped (`seconds.micros` of real time), strictly increasing. */
  #startMicros = Date.now() * 1_000;
  #lastMicros = this.#startMicros - 1;
  #overrides = new Map<string, Responder[]>();
  #events = new EventEmitter();
  #triggers = new Map<string, string>();
  #stacks = new Map<string, string[]>();
  #responseUrls = new Map<string, ResponseContext & { issued: number; uses: number }>();
  #pendingUploads = new Map<string, { name: string; path: string }>();
  url = '';

  /** The Web API methods; another method is one more entry. */
  readonly methods: Record<string, MethodHandler> = {
    'auth.test': () => ({
      ok: true,
      url: 'https://acme.slack.com/',
      team: this.workspaceName,
      user: 'regdesk',
      team_id: WORKSPACE,
      user_id: BOT_USER,
      bot_id: 'BBOT',
    }),
    'chat.postMessage': (args) => this.#postMessage(args),
    'chat.update': (args) => this.#updateMessage(args),
    'chat.delete': (args) => this.#deleteMessage(args),
    'chat.postEphemeral': (args) => this.#postEphemeral(args),
    'views.open': (args) => this.#openView(args, false),
    'views.push': (args) => this.#openView(args, true),
    'views.update': (args) => this.#updateView(args),
    'views.publish': (args) => this.#publishHome(args),
    'users.info': (args) => {
      const user = this.users.get(String(args.user)) ?? { id: String(args.user) };
      return {
        ok: true,
        user: { team_id: WORKSPACE, locale: 'en-US', tz: 'Europe/Berlin', name: user.id, ...user },
      };
    },
    // Slack's pagination: `limit` members a page (at most 1000), `next_cursor` empty on the last.
    'users.list': (args) => {
      const limit = Math.min(Math.max(Number(args.limit ?? 1000) || 1000, 1), 1000);
      const start = Number(String(args.cursor ?? '').replace(/^page:/, '')) || 0;
      const all = [...this.users.values()].map((user) => ({ team_id: WORKSPACE, name: user.id, ...user }));
      const next = start + limit < all.length ? `page:${start + limit}` : '';
      return { ok: true, members: all.slice(start, start + limit), response_metadata: { next_cursor: next } };
    },
    'reactions.add': (args) => this.#react(args, true),
    'reactions.remove': (args) => this.#react(args, false),
    'conversations.info': (args) => this.#conversationInfo(String(args.channel ?? '')),
    'conversations.open': (args) => {
      const user = String(args.users ?? '');
      if (this.users.get(user)?.deleted === true) return { ok: false, error: 'user_disabled' };
      return { ok: true, channel: { id: `D${user}` } };
    },
    'files.getUploadURLExternal': (args) => {
      const id = `F${this.#seq++}`;
      const path = `/upload/${id}`;
      this.#pendingUploads.set(id, { name: String(args.filename ?? 'file'), path });
      return { ok: true, upload_url: `${this.url}${path}`, file_id: id };
    },
    'files.completeUploadExternal': (args) => this.#completeUpload(args),
    'oauth.v2.access': (args) => this.#oauthAccess(args),
    'usergroups.users.list': () => ({ ok: true, users: [] }),
    // Slack's agent messaging (manifest `features.agent_view`; docs.slack.dev "Migrating to the Agent
    // messaging experience"): the app's threads are threads of conversations the bot is in, named by
    // their root message's ts. A status may be set in channels too (changelog 2026-03-05, chat:write);
    // a title shows in the DM history (reference/methods/assistant.threads.setTitle).
    'assistant.threads.setStatus': (args) =>
      this.#agentThread(args, 'any', (thread) => {
        const status = args.status;
        const loading = args.loading_messages;
        // Slack takes an empty status (it clears it); its status line holds one short sentence, and
        // at most 10 loading messages (reference/methods/assistant.threads.setStatus).
        if (typeof status !== 'string' || status.length > ASSISTANT_STATUS_MAX) return 'invalid_arguments';
        if (loading !== undefined && (!Array.isArray(loading) || loading.length > 10))
          return 'invalid_arguments';
        thread.status = status;
        this.#emit({
          type: 'thread_status',
          channel: String(args.channel_id),
          threadTs: String(args.thread_ts),
          status,
        });
        return undefined;
      }),
    'assistant.threads.setSuggestedPrompts': (args) => this.#pinPrompts(args),
    'assistant.threads.setTitle': (args) =>
      this.#agentThread(args, 'dm', (thread) => {
        if (typeof args.title !== 'string' || args.title.trim() === '') return 'invalid_arguments';
        thread.title = args.title;
        return undefined;
      }),
  };

  async start(host = '127.0.0.1'): Promise<this> {
    this.#server = createServer((req, res) => {
      this.#handle(req).then(
        ({ status = 200, headers = {}, body }) => {
          const text = typeof body === 'string' ? body : JSON.stringify(body);
          res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
        },
        () => res.destroy(),
      );
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  /** Base for `SLACK_API_URL`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** The id of the user's published Home view, if any. */
  homeViewId(user: string): string | undefined {
    const home = this.homes.get(user) as { id?: unknown } | undefined;
    return typeof home?.id === 'string' ? home.id : undefined;
  }

  /** Listen to every change (messages, views, homes); returns the unsubscribe function. */
  onChange(listener: (event: PlaygroundEvent) => void): () => void {
    this.#events.on('change', listener);
    return () => this.#events.off('change', listener);
  }

  /** Tell listeners something only Slack's own client would show (e.g. an unknown command). */
  notice(user: string, text: string): void {
    this.#emit({ type: 'notice', user, text });
  }

  /** A fresh response_url whose posts are only recorded, as method `response_url:<id>`. */
  responseUrl(id: string): string {
    return `${this.url}/response/${id}`;
  }

  /**
   * A response_url as Slack issues it with a slash command or a message action: posts to it become
   * ephemerals, in-channel messages, replacements or deletions of the originating message.
   */
  issueResponseUrl(context: ResponseContext): string {
    const now = Date.now();
    for (const [id, issued] of this.#responseUrls) {
      if (now - issued.issued > RESPONSE_URL_LIFETIME_MS) this.#responseUrls.delete(id);
    }
    const id = `r${randomBytes(12).toString('hex')}`;
    this.#responseUrls.set(id, { ...context, issued: now, uses: 0 });
    return this.responseUrl(id);
  }

  /** A trigger_id for an interaction by `user`: views opened with it form that user's modal stack. */
  issueTrigger(user: string): string {
    const now = Date.now();
    for (const [id] of this.#triggers) {
      if (now - Number(id.split('.')[0]) > TRIGGER_LIFETIME_MS) this.#triggers.delete(id);
    }
    const id = newTriggerId(now);
    this.#triggers.set(id, user);
    return id;
  }

  /** Define a conversation (replacing the lenient default for its id). */
  conversation(id: string, spec: StandInConversation): this {
    this.conversations.set(id, spec);
    return this;
  }

  /** The user closed the modal: later `views.update` calls fail `not_found`. */
  closeView(id: string): void {
    const user = this.views.get(id)?.user;
    this.views.delete(id);
    if (user === undefined) return;
    const stack = this.#stacks.get(user) ?? [];
    this.#setStack(
      user,
      stack.filter((viewId) => viewId !== id),
    );
  }

  /** The user's open modals, bottom first. */
  viewStack(user: string): PlaygroundView[] {
    return (this.#stacks.get(user) ?? []).flatMap((id) => {
      const known = this.views.get(id);
      if (known === undefined) return [];
      const view: PlaygroundView = { id, user, view: known.view, hash: known.hash };
      if (known.errors !== undefined) view.errors = known.errors;
      return [view];
    });
  }

  /** Close every modal of `user` (Slack's `response_action: clear`, or closing the bottom modal). */
  clearViews(user: string): void {
    for (const id of this.#stacks.get(user) ?? []) this.views.delete(id);
    this.#setStack(user, []);
  }

  /** `response_action: update` from a view_submission ack: the submitted view is replaced. */
  replaceView(id: string, view: unknown): { ok: boolean; error?: string } {
    const known = this.views.get(id);
    if (known === undefined) return { ok: false, error: 'not_found' };
    const refusal = this.#viewRefusal(view, 'modal');
    if (refusal !== undefined) return { ok: false, error: refusal };
    this.views.set(id, {
      hash: this.#hash(),
      view,
      ...(known.user === undefined ? {} : { user: known.user }),
    });
    if (known.user !== undefined) this.#emitStack(known.user);
    return { ok: true };
  }

  /** `response_action: push` from a view_submission ack: a new modal on top of the user's stack. */
  pushView(user: string, view: unknown): { ok: boolean; error?: string } {
    const refusal = this.#viewRefusal(view, 'modal') ?? this.#stackRefusal(user);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const id = this.#newViewId();
    this.views.set(id, { hash: this.#hash(), view, user });
    this.#setStack(user, [...(this.#stacks.get(user) ?? []), id]);
    return { ok: true };
  }

  /** `response_action: errors`: shown under the inputs until the view changes. */
  setViewErrors(id: string, errors: Record<string, string>): void {
    const known = this.views.get(id);
    if (known === undefined) return;
    known.errors = errors;
    if (known.user !== undefined) this.#emitStack(known.user);
  }

  /** A person's message, as Slack stores it when they send it. */
  postAsUser(
    user: string,
    channel: string,
    text: string,
    threadTs?: string,
  ): { ok: true; message: StandInMessage } | { ok: false; error: string } {
    const conversation = this.#conversation(channel);
    if (conversation.archived === true) return { ok: false, error: 'is_archived' };
    if (!this.#isMember(channel, user)) return { ok: false, error: 'not_in_channel' };
    const message: StandInMessage = { channel, ts: this.#nextTs(), text, user };
    if (threadTs !== undefined) message.threadTs = threadTs;
    this.#store(message);
    return { ok: true, message };
  }

  /** A person adds a reaction, or takes theirs back (the page's emoji button). */
  toggleReaction(user: string, channel: string, ts: string, name: string): { ok: boolean; error?: string } {
    const message = this.messages.get(`${channel}:${ts}`);
    if (message === undefined) return { ok: false, error: 'message_not_found' };
    if (!this.#isMember(channel, user)) return { ok: false, error: 'not_in_channel' };
    const reactions = message.reactions ?? [];
    const existing = reactions.find((reaction) => reaction.name === name);
    if (existing?.users.includes(user) === true) existing.users = existing.users.filter((u) => u !== user);
    else if (existing !== undefined) existing.users.push(user);
    else reactions.push({ name, users: [user] });
    message.reactions = reactions.filter((reaction) => reaction.users.length > 0);
    this.#emit({ type: 'message_changed', message: this.toPlayground(message) });
    return { ok: true };
  }

  /** A message deleted by a person or a retention policy: updates of it fail `message_not_found`. */
  deleteMessage(channel: string, ts: string): void {
    if (this.messages.delete(`${channel}:${ts}`)) this.#emit({ type: 'message_deleted', channel, ts });
  }

  archive(channel: string): void {
    this.conversations.set(channel, { ...this.#conversation(channel), archived: true });
  }

  /** Every message and ephemeral, oldest first, in the page's shape. */
  allMessages(): PlaygroundMessage[] {
    return [...this.messages.values(), ...this.ephemerals.values()]
      .sort((a, b) => Number(a.ts) - Number(b.ts))
      .map((message) => this.toPlayground(message));
  }

  /** A stored message (ephemerals included) by channel and ts. */
  findMessage(channel: string, ts: string): StandInMessage | undefined {
    return this.messages.get(`${channel}:${ts}`) ?? this.ephemerals.get(`${channel}:${ts}`);
  }

  toPlayground(message: StandInMessage): PlaygroundMessage {
    const out: PlaygroundMessage = {
      channel: message.channel,
      ts: message.ts,
      fromBot: message.user === undefined,
      reactions: (message.reactions ?? []).map((reaction) => ({ ...reaction, users: [...reaction.users] })),
      files: (message.files ?? []).flatMap((id) => {
        const file = this.files.get(id);
        if (file === undefined) return [];
        const entry: PlaygroundFile = {
          id,
          name: file.name,
          size: file.bytes.length,
          url: `/playground/files/${id}`,
        };
        if (file.title !== undefined) entry.title = file.title;
        return [entry];
      }),
    };
    if (message.threadTs !== undefined) out.threadTs = message.threadTs;
    if (message.user !== undefined) out.user = message.user;
    if (typeof message.text === 'string') out.text = message.text;
    if (Array.isArray(message.blocks)) out.blocks = message.blocks;
    if (message.ephemeralTo !== undefined) out.ephemeralTo = message.ephemeralTo;
    if (message.viaResponseUrl === true) out.viaResponseUrl = true;
    if (message.edited === true) out.edited = true;
    return out;
  }

  /** Answer the next call of `method` (once) with `responder` instead of the default. */
  override(method: string, responder: Responder): void {
    const list = this.#overrides.get(method) ?? [];
    list.push(responder);
    this.#overrides.set(method, list);
  }

  /** Fail the next call of `method` with a Slack platform error (429 comes with Retry-After). */
  failNext(method: string, error: string, retryAfterSeconds = 1): void {
    this.override(method, () =>
      error === 'ratelimited'
        ? { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: { ok: false, error } }
        : { body: { ok: false, error } },
    );
  }

  callsTo(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Calls that Slack answered with `ok: true`. */
  succeeded(method: string): SlackCall[] {
    return this.callsTo(method).filter((call) => (call.result as { ok?: boolean } | undefined)?.ok === true);
  }

  /** Poll until `predicate` holds over the calls so far; fails after `timeoutMs`. */
  async waitFor(predicate: (calls: SlackCall[]) => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.calls)) {
      if (Date.now() > deadline) {
        throw new Error(
          `SlackStandIn.waitFor timed out; calls: ${this.calls.map((c) => c.method).join(', ')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  #record(call: SlackCall): void {
    this.calls.push(call);
    if (this.calls.length > this.keepCalls) this.calls.splice(0, this.calls.length - this.keepCalls);
  }

  async #handle(req: IncomingMessage): Promise<Answer> {
    const refusal = standInRefusal(req);
    if (refusal !== undefined) return { status: 403, body: { ok: false, error: refusal } };
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req, path.startsWith('/upload/') ? MAX_UPLOAD_BODY_BYTES : MAX_API_BODY_BYTES);
    if (raw === undefined) {
      return {
        status: 413,
        headers: { connection: 'close' },
        body: { ok: false, error: 'payload_too_large' },
      };
    }
    if (path.startsWith('/upload/')) {
      this.uploads.set(path, raw);
      const id = path.slice('/upload/'.length);
      const pending = this.#pendingUploads.get(id);
      if (pending !== undefined) this.files.set(id, { id, name: pending.name, bytes: raw });
      this.#record({ method: 'file_upload', args: { path, size: raw.length }, at: Date.now() });
      return { body: 'OK' };
    }
    let args: Record<string, unknown>;
    try {
      args = parseArgs(raw, req.headers['content-type']);
    } catch {
      return { status: 400, body: { ok: false, error: 'invalid_json' } };
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (path.startsWith('/response/')) {
      const id = path.slice('/response/'.length);
      const call: SlackCall = { method: `response_url:${id}`, args, at: Date.now() };
      this.#record(call);
      const answer = this.#respond(id, args);
      call.result = answer.body;
      return answer;
    }
    const method = path.replace(/^\/api\//, '');
    if (this.botToken !== undefined && token !== this.botToken) {
      // Slack answers HTTP 200 with the error in the body.
      return { body: { ok: false, error: token === undefined ? 'not_authed' : 'invalid_auth' } };
    }
    // Token rotation (docs.slack.dev "Using token rotation"): an expired or replaced access token is
    // refused with `token_expired`; only `oauth.v2.access` needs none.
    const rotating = token === undefined ? undefined : this.rotation.tokens.get(token);
    if (rotating !== undefined && method !== 'oauth.v2.access' && rotating.expiresAt <= Date.now()) {
      this.#record({
        method,
        args,
        ...(token === undefined ? {} : { token }),
        at: Date.now(),
        result: { ok: false, error: 'token_expired' },
      });
      return { body: { ok: false, error: 'token_expired' } };
    }
    const call: SlackCall = { method, args, ...(token === undefined ? {} : { token }), at: Date.now() };
    this.#record(call);
    const override = this.#overrides.get(method)?.shift();
    const handler = this.methods[method];
    const answer =
      override !== undefined
        ? override(args)
        : { body: handler === undefined ? { ok: false, error: 'unknown_method' } : handler(args) };
    call.result = answer.body;
    return answer;
  }

  /**
   * Token rotation as Slack documents it: with `rotation.enabled`, an install (and every refresh)
   * answers an `xoxe.xoxb-` token that expires in `rotation.expiresInSeconds` and a single-use
   * `xoxe-` refresh token (`invalid_refresh_token` when spent twice).
   */
  readonly rotation: {
    enabled: boolean;
    expiresInSeconds: number;
    tokens: Map<string, { expiresAt: number }>;
    refreshTokens: Set<string>;
  } = { enabled: false, expiresInSeconds: 43_200, tokens: new Map(), refreshTokens: new Set() };

  /** Makes an issued rotating token expire now (a test's twelve hours). */
  expireToken(token: string): void {
    const entry = this.rotation.tokens.get(token);
    if (entry !== undefined) entry.expiresAt = 0;
  }

  #oauthAccess(args: Record<string, unknown>): Record<string, unknown> {
    const install = {
      ok: true,
      app_id: 'A0001',
      authed_user: { id: 'UINSTALLER' },
      scope: 'commands,chat:write',
      token_type: 'bot',
      bot_user_id: BOT_USER,
      team: { id: 'T0OAUTH', name: 'OAuth Team' },
      enterprise: null,
      is_enterprise_install: false,
    };
    if (args.grant_type === 'refresh_token') {
      const given = String(args.refresh_token ?? '');
      if (!this.rotation.refreshTokens.delete(given)) return { ok: false, error: 'invalid_refresh_token' };
      // The old access token stays valid until it expires; the refresh token is spent.
      return { ...install, ...this.#rotatingPair(given.slice(-8)) };
    }
    if (!this.rotation.enabled)
      return { ...install, access_token: `xoxb-installed-${String(args.code ?? 'x')}` };
    return { ...install, ...this.#rotatingPair(randomBytes(4).toString('hex')) };
  }

  /** A fresh access token and refresh token of one installation (`lineage` ties refreshes together). */
  #rotatingPair(lineage: string): Record<string, unknown> {
    const serial = this.#seq++;
    const access = `xoxe.xoxb-rot-${serial}-${lineage}`;
    const refresh = `xoxe-1-refresh-${serial}-${lineage}`;
    this.rotation.tokens.set(access, { expiresAt: Date.now() + this.rotation.expiresInSeconds * 1000 });
    this.rotation.refreshTokens.add(refresh);
    return { access_token: access, refresh_token: refresh, expires_in: this.rotation.expiresInSeconds };
  }

  #emit(event: PlaygroundEvent): void {
    this.#events.emit('change', event);
  }

  #nextTs(): string {
    this.#lastMicros = Math.max(Date.now() * 1_000, this.#lastMicros + 1);
    const seconds = Math.floor(this.#lastMicros / 1_000_000);
    return `${seconds}.${String(this.#lastMicros % 1_000_000).padStart(6, '0')}`;
  }

  #hash(): string {
    return `${this.#seq++}.${randomBytes(4).toString('hex')}`;
  }

  #newViewId(): string {
    return `V${this.#seq++}`;
  }

  #conversation(id: string): StandInConversation {
    const known = this.conversations.get(id);
    if (known !== undefined) return known;
    if (id.startsWith('D') || id.startsWith('U')) return { kind: 'im', botMember: true };
    if (id.startsWith('G')) return { kind: 'private', botMember: true };
    return { kind: 'public', botMember: true };
  }

  /** Why the bot may not post in `channel`, as Slack words it, or undefined. */
  #postRefusal(channel: string): string | undefined {
    if (channel === '') return 'channel_not_found';
    const conversation = this.#conversation(channel);
    if (!conversation.botMember)
      return conversation.kind === 'public' ? 'not_in_channel' : 'channel_not_found';
    if (conversation.archived === true) return 'is_archived';
    return undefined;
  }

  /**
   * `assistant.threads.setStatus` / `setTitle`: a conversation the bot is in (`dm`: a DM with it), and a
   * `thread_ts` naming a thread's root message there.
   */
  #agentThread(
    args: Record<string, unknown>,
    where: 'any' | 'dm',
    change: (thread: StandInAssistantThread) => string | undefined,
  ): unknown {
    const channel = String(args.channel_id ?? '');
    const conversation = this.#conversation(channel);
    if (channel === '' || !conversation.botMember || (where === 'dm' && conversation.kind !== 'im'))
      return { ok: false, error: 'channel_not_found' };
    const key = `${channel}:${String(args.thread_ts ?? '')}`;
    const root = this.messages.get(key);
    if (root === undefined || (root.threadTs !== undefined && root.threadTs !== root.ts))
      return { ok: false, error: 'invalid_thread_ts' };
    const thread = this.assistantThreads.get(key) ?? {};
    const error = change(thread);
    if (error !== undefined) return { ok: false, error };
    this.assistantThreads.set(key, thread);
    return { ok: true };
  }

  /**
   * `assistant.threads.setSuggestedPrompts` for an agent app: pinned to the top of the person's
   * Messages tab, so the channel must be a DM with the bot; one to four prompts, each with a title and
   * a message. With a `thread_ts` (the retired assistant experience's form) Slack's reference says the
   * call silently fails for an agent app: answered `ok`, nothing shown.
   */
  #pinPrompts(args: Record<string, unknown>): unknown {
    const channel = String(args.channel_id ?? '');
    const conversation = this.#conversation(channel);
    if (channel === '' || conversation.kind !== 'im' || !conversation.botMember)
      return { ok: false, error: 'channel_not_found' };
    const prompts = args.prompts;
    const valid = (p: unknown) =>
      typeof (p as { title?: unknown }).title === 'string' &&
      typeof (p as { message?: unknown }).message === 'string' &&
      (p as { message: string }).message !== '';
    if (!Array.isArray(prompts) || prompts.length < 1 || prompts.length > 4 || !prompts.every(valid))
      return { ok: false, error: 'invalid_arguments' };
    if (args.title !== undefined && typeof args.title !== 'string')
      return { ok: false, error: 'invalid_arguments' };
    if (args.thread_ts !== undefined) return { ok: true };
    const pinned: StandInSuggestedPrompts = {
      ...(typeof args.title === 'string' ? { title: args.title } : {}),
      prompts: (prompts as Array<{ title: string; message: string }>).map(({ title, message }) => ({
        title,
        message,
      })),
    };
    this.suggestedPrompts.set(channel, pinned);
    this.#emit({ type: 'prompts', channel, prompts: pinned });
    return { ok: true };
  }

  #isMember(channel: string, user: string): boolean {
    const conversation = this.#conversation(channel);
    if (conversation.members === undefined) return conversation.kind !== 'im' || channel === `D${user}`;
    return conversation.members.includes(user);
  }

  #triggerRefusal(trigger: unknown): string | undefined {
    const issued = Number(String(trigger ?? '').split('.')[0]);
    if (!Number.isFinite(issued) || issued <= 0) return 'invalid_trigger_id';
    return Date.now() - issued > TRIGGER_LIFETIME_MS ? 'expired_trigger_id' : undefined;
  }

  /** Slack answers `invalid_blocks` with the offending paths in `response_metadata.messages`. */
  #blocksRefusal(args: Record<string, unknown>, surface: Surface): unknown {
    const problems = blockKitProblems({ text: args.text, blocks: args.blocks }, surface);
    if (problems.length === 0) return undefined;
    const tooLong = typeof args.text === 'string' && args.text.length > 40_000;
    return {
      ok: false,
      error: tooLong && problems.length === 1 ? 'msg_too_long' : 'invalid_blocks',
      errors: problems,
      response_metadata: { messages: problems },
    };
  }

  /** Views are refused as a whole with `invalid_arguments`, like Slack's views.* methods do. */
  #viewRefusal(view: unknown, surface: Surface): string | undefined {
    if (typeof view !== 'object' || view === null) return 'invalid_arguments';
    return blockKitProblems(view, surface).length > 0 ? 'invalid_arguments' : undefined;
  }

  #viewRefusalBody(view: unknown, surface: Surface): unknown {
    if (typeof view !== 'object' || view === null) return { ok: false, error: 'invalid_arguments' };
    const problems = blockKitProblems(view, surface);
    if (problems.length === 0) return undefined;
    return { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } };
  }

  #stackRefusal(user: string): string | undefined {
    return (this.#stacks.get(user)?.length ?? 0) >= VIEW_STACK_MAX ? 'push_limit_reached' : undefined;
  }

  #store(message: StandInMessage): void {
    this.messages.set(`${message.channel}:${message.ts}`, message);
    this.#emit({ type: 'message', message: this.toPlayground(message) });
    // The parent of a thread carries its own ts as thread_ts once it has replies.
    if (message.threadTs !== undefined && message.threadTs !== message.ts) {
      const parent = this.messages.get(`${message.channel}:${message.threadTs}`);
      if (parent !== undefined && parent.threadTs === undefined) {
        parent.threadTs = parent.ts;
        this.#emit({ type: 'message_changed', message: this.toPlayground(parent) });
      }
    }
  }

  #postMessage(args: Record<string, unknown>): unknown {
    const channel = String(args.channel ?? '');
    const target = channel.startsWith('U') ? `D${channel}` : channel;
    const refusal = this.#postRefusal(target);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const invalid = this.#blocksRefusal(args, 'message');
    if (invalid !== undefined) return invalid;
    const message: StandInMessage = {
      channel: target,
      ts: this.#nextTs(),
      text: args.text,
      blocks: args.blocks,
    };
    if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
    this.#store(message);
    return {
      ok: true,
      channel: target,
      ts: message.ts,
      message: { text: args.text, blocks: args.blocks },
    };
  }

  #updateMessage(args: Record<string, unknown>): unknown {
    const channel = String(args.channel ?? '');
    const refusal = this.#postRefusal(channel);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const key = `${channel}:${String(args.ts)}`;
    const message = this.messages.get(key);
    // Messages a test did not post through the stand-in (ts "1.1" …) are taken as existing.
    if (message === undefined && this.#posted(String(args.ts)))
      return { ok: false, error: 'message_not_found' };
    if (message?.user !== undefined) return { ok: false, error: 'cant_update_message' };
    const invalid = this.#blocksRefusal(args, 'message');
    if (invalid !== undefined) return invalid;
    if (message !== undefined) {
      const updated: StandInMessage = { ...message, text: args.text, blocks: args.blocks, edited: true };
      this.messages.set(key, updated);
      this.#emit({ type: 'message_changed', message: this.toPlayground(updated) });
    }
    return { ok: true, channel, ts: args.ts, text: args.text };
  }

  #deleteMessage(args: Record<string, unknown>): unknown {
    const channel = String(args.channel ?? '');
    const ts = String(args.ts);
    const message = this.messages.get(`${channel}:${ts}`);
    if (message?.user !== undefined) return { ok: false, error: 'cant_delete_message' };
    if (message === undefined) {
      return this.#posted(ts)
        ? { ok: false, error: 'message_not_found' }
        : { ok: true, channel, ts: args.ts };
    }
    this.deleteMessage(channel, ts);
    return { ok: true, channel, ts: args.ts };
  }

  #postEphemeral(args: Record<string, unknown>): unknown {
    const channel = String(args.channel ?? '');
    const refusal = this.#postRefusal(channel);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const user = String(args.user);
    if (!this.#isMember(channel, user)) return { ok: false, error: 'user_not_in_channel' };
    const invalid = this.#blocksRefusal(args, 'message');
    if (invalid !== undefined) return invalid;
    const message: StandInMessage = {
      channel,
      ts: this.#nextTs(),
      text: args.text,
      blocks: args.blocks,
      ephemeralTo: user,
    };
    if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
    this.#storeEphemeral(message);
    return { ok: true, message_ts: message.ts };
  }

  #storeEphemeral(message: StandInMessage): void {
    this.ephemerals.set(`${message.channel}:${message.ts}`, message);
    this.#emit({ type: 'message', message: this.toPlayground(message) });
  }

  #openView(args: Record<string, unknown>, push: boolean): unknown {
    const refusal = this.#triggerRefusal(args.trigger_id);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const invalid = this.#viewRefusalBody(args.view, 'modal');
    if (invalid !== undefined) return invalid;
    const user = this.#triggers.get(String(args.trigger_id));
    if (user === undefined) return this.#storeView(args.view);
    if (push) {
      const full = this.#stackRefusal(user);
      if (full !== undefined) return { ok: false, error: full };
    }
    const id = this.#newViewId();
    const answer = this.#storeView(args.view, id);
    const entry = this.views.get(id);
    if (entry !== undefined) entry.user = user;
    if (!push) for (const old of this.#stacks.get(user) ?? []) this.views.delete(old);
    this.#setStack(user, push ? [...(this.#stacks.get(user) ?? []), id] : [id]);
    return answer;
  }

  #updateView(args: Record<string, unknown>): unknown {
    const id = String(args.view_id ?? '');
    const known = this.views.get(id);
    // Views a test submitted directly (id "V0001" …) are taken as open; one the stand-in opened and
    // the user closed is gone.
    if (known === undefined && this.#issued(id.slice(1))) return { ok: false, error: 'not_found' };
    if (known !== undefined && args.hash !== undefined && args.hash !== known.hash)
      return { ok: false, error: 'hash_conflict' };
    const invalid = this.#viewRefusalBody(args.view, 'modal');
    if (invalid !== undefined) return invalid;
    const answer = this.#storeView(args.view, id);
    if (known?.user !== undefined) this.#emitStack(known.user);
    return answer;
  }

  #publishHome(args: Record<string, unknown>): unknown {
    const invalid = this.#viewRefusalBody(args.view, 'home');
    if (invalid !== undefined) return invalid;
    const user = String(args.user_id ?? '');
    if (user === '') return { ok: false, error: 'invalid_arguments' };
    // A user's Home tab keeps one view id across publishes, as in Slack.
    const id = this.homeViewId(user) ?? this.#newViewId();
    const view = { ...(args.view as object), id, hash: this.#hash() };
    this.homes.set(user, view);
    this.#emit({ type: 'home', user, view });
    return { ok: true, view };
  }

  #react(args: Record<string, unknown>, add: boolean): unknown {
    const channel = String(args.channel ?? '');
    const refusal = this.#postRefusal(channel);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const message = this.messages.get(`${channel}:${String(args.timestamp ?? '')}`);
    if (message === undefined) return { ok: true };
    const name = String(args.name ?? '');
    const reactions = message.reactions ?? [];
    const existing = reactions.find((reaction) => reaction.name === name);
    const mine = existing?.users.includes(BOT_USER) === true;
    if (add && mine) return { ok: false, error: 'already_reacted' };
    if (!add && !mine) return { ok: false, error: 'no_reaction' };
    if (add && existing !== undefined) existing.users.push(BOT_USER);
    else if (add) reactions.push({ name, users: [BOT_USER] });
    else if (existing !== undefined) existing.users = existing.users.filter((user) => user !== BOT_USER);
    message.reactions = reactions.filter((reaction) => reaction.users.length > 0);
    this.#emit({ type: 'message_changed', message: this.toPlayground(message) });
    return { ok: true };
  }

  #conversationInfo(channel: string): unknown {
    const conversation = this.#conversation(channel);
    if (!conversation.botMember && conversation.kind !== 'public')
      return { ok: false, error: 'channel_not_found' };
    const shared = conversation.shared === true;
    return {
      ok: true,
      channel: {
        id: channel,
        ...(conversation.name === undefined ? {} : { name: conversation.name }),
        is_channel: conversation.kind === 'public',
        is_group: conversation.kind === 'private',
        is_im: conversation.kind === 'im',
        is_mpim: conversation.kind === 'mpim',
        is_private: conversation.kind !== 'public',
        is_archived: conversation.archived === true,
        is_shared: shared,
        is_ext_shared: shared,
        is_org_shared: false,
        is_pending_ext_shared: false,
      },
    };
  }

  #completeUpload(args: Record<string, unknown>): unknown {
    const channel = String(args.channel_id ?? args.channel ?? '');
    const refusal = this.#postRefusal(channel);
    if (refusal !== undefined) return { ok: false, error: refusal };
    const listed = Array.isArray(args.files) ? (args.files as Array<Record<string, unknown>>) : [];
    if (listed.length === 0) return { ok: false, error: 'invalid_arguments' };
    const ids = listed.map((entry) => String(entry.id ?? ''));
    // Slack refuses to complete an upload whose bytes never arrived.
    if (ids.some((id) => !this.files.has(id))) return { ok: false, error: 'file_not_found' };
    listed.forEach((entry, i) => {
      const file = this.files.get(ids[i] ?? '');
      if (file !== undefined && typeof entry.title === 'string') file.title = entry.title;
    });
    for (const id of ids) this.#pendingUploads.delete(id);
    const message: StandInMessage = { channel, ts: this.#nextTs(), files: ids };
    if (typeof args.initial_comment === 'string') message.text = args.initial_comment;
    if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
    this.#store(message);
    return { ok: true, files: ids.map((id) => ({ id, title: this.files.get(id)?.title ?? id })) };
  }

  /** A post to a response_url: Slack's rules for slash commands and message actions. */
  #respond(id: string, args: Record<string, unknown>): Answer {
    const context = this.#responseUrls.get(id);
    // Ids the stand-in did not issue (the tests' own) are only recorded.
    if (context === undefined) return { body: { ok: true } };
    if (Date.now() - context.issued > RESPONSE_URL_LIFETIME_MS) {
      this.#responseUrls.delete(id);
      return { status: 404, body: { ok: false, error: 'expired_url' } };
    }
    if (++context.uses > RESPONSE_URL_USES) return { status: 404, body: { ok: false, error: 'used_url' } };
    return this.#applyResponse(context, args);
  }

  /**
   * A slash command's acknowledgement body: Slack shows it like a first post to the command's
   * response_url (without using up one of its posts).
   */
  answerAck(responseUrl: string, args: Record<string, unknown>): void {
    const context = this.#responseUrls.get(responseUrl.slice(responseUrl.lastIndexOf('/') + 1));
    if (context !== undefined) this.#applyResponse(context, args);
  }

  /**
   * A message payload answering an interaction, by Slack's rules for response_urls: ephemeral to the person by default, `in_channel` for everyone,
   * or `replace_original` / `delete_original` of the message the interaction came from.
   */
  #applyResponse(context: ResponseContext, args: Record<string, unknown>): Answer {
    const invalid = this.#blocksRefusal(args, 'message');
    if (invalid !== undefined) return { status: 400, body: invalid };
    const original =
      context.messageTs === undefined ? undefined : this.findMessage(context.channel, context.messageTs);
    if (args.delete_original === true || args.delete_original === 'true') {
      // Nothing left to delete is no error: the person may have dismissed it already.
      if (original !== undefined) this.#removeAny(original);
      return { body: { ok: true } };
    }
    // With nothing to replace (a command's first response), Slack posts the message instead.
    if ((args.replace_original === true || args.replace_original === 'true') && original !== undefined) {
      const replaced: StandInMessage = { ...original, text: args.text, blocks: args.blocks, edited: true };
      const map = original.ephemeralTo === undefined ? this.messages : this.ephemerals;
      map.set(`${original.channel}:${original.ts}`, replaced);
      this.#emit({ type: 'message_changed', message: this.toPlayground(replaced) });
      return { body: { ok: true } };
    }
    const message: StandInMessage = {
      channel: context.channel,
      ts: this.#nextTs(),
      text: args.text,
      blocks: args.blocks,
      viaResponseUrl: true,
    };
    const threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : context.threadTs;
    if (threadTs !== undefined) message.threadTs = threadTs;
    if (args.response_type === 'in_channel') this.#store(message);
    else this.#storeEphemeral({ ...message, ephemeralTo: context.user });
    if (context.latestIsOriginal === true) context.messageTs = message.ts;
    return { body: { ok: true } };
  }

  #removeAny(message: StandInMessage): void {
    const key = `${message.channel}:${message.ts}`;
    if (message.ephemeralTo === undefined) {
      this.deleteMessage(message.channel, message.ts);
    } else if (this.ephemerals.delete(key)) {
      this.#emit({ type: 'message_deleted', channel: message.channel, ts: message.ts });
    }
  }

  /** True when a view id's number is one the stand-in handed out. */
  #issued(seq: string): boolean {
    const n = Number(seq);
    return Number.isInteger(n) && n >= 1_000 && n < this.#seq;
  }

  /** True when `ts` is an id the stand-in handed out (so its absence means it was deleted). */
  #posted(ts: string): boolean {
    const [seconds, micros] = ts.split('.');
    const at = Number(seconds) * 1_000_000 + Number(micros);
    return Number.isFinite(at) && at >= this.#startMicros && at <= this.#lastMicros;
  }

  #storeView(view: unknown, id = this.#newViewId()): unknown {
    const hash = this.#hash();
    const previous = this.views.get(id);
    this.views.set(id, { hash, view, ...(previous?.user === undefined ? {} : { user: previous.user }) });
    return { ok: true, view: { id, hash, ...(view as object) } };
  }

  #setStack(user: string, stack: string[]): void {
    if (stack.length === 0) this.#stacks.delete(user);
    else this.#stacks.set(user, stack);
    this.#emitStack(user);
  }

  #emitStack(user: string): void {
    this.#emit({ type: 'views', user, stack: this.viewStack(user) });
  }
}

/**
 * The stand-in listens on 127.0.0.1 and acts as the bot, so it takes the playground's rules
 * (guard.ts, docs/requirements.md R42): its clients are server-side (Regdesk's Web API client,
 * response_url and upload posts, tests), which send no Origin. A request with an Origin comes from a
 * browser page, and no page has business here (the playground's own page goes through
 * /playground/api), so it is refused, whatever the origin; so is a Host other than this machine's
 * (DNS rebinding, where a page's same-origin GETs carry no Origin).
 */
function standInRefusal(req: IncomingMessage): string | undefined {
  if (req.headers.origin !== undefined) return 'cross-origin requests are refused';
  if (!isLocalHostHeader(req.headers.host)) return 'the stand-in answers only 127.0.0.1, localhost or [::1]';
  return undefined;
}

/**
 * The body, or undefined when it is larger than `limit`. What is beyond the limit is read and dropped
 * (memory stays bounded), so the client, still sending, gets the 413 instead of a reset connection.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Slack's SDK sends form bodies whose object-valued fields are JSON strings. */
function parseArgs(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (text === '') return {};
  if (contentType?.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
