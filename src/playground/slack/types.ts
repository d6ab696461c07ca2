import { randomBytes } from 'node:crypto';

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
  /** Slack's system messages about the channel's members: `user` joined (added by `inviter`) or left. */
  subtype?: 'channel_join' | 'channel_leave';
  inviter?: string;
}

export interface StandInFile {
  id: string;
  name: string;
  title?: string;
  bytes: Buffer;
}

/** A modal (or a view a test submitted directly) as the stand-in keeps it, by view id. */
export interface StandInView {
  hash: string;
  view: unknown;
  /** Whose modal stack it is on (views opened with a trigger the stand-in issued). */
  user?: string;
  errors?: Record<string, string>;
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

/**
 * Token rotation as Slack documents it: with `enabled`, an install (and every refresh) answers an
 * `xoxe.xoxb-` token that expires in `expiresInSeconds` and a single-use `xoxe-` refresh token.
 */
export interface TokenRotation {
  enabled: boolean;
  expiresInSeconds: number;
  tokens: Map<string, { expiresAt: number }>;
  refreshTokens: Set<string>;
}

/** Slack's answer to one call; `delayMs` makes it slow, as Slack sometimes is. */
export type Answer = { status?: number; headers?: Record<string, string>; body: unknown; delayMs?: number };
export type Responder = (args: Record<string, unknown>) => Answer;
/** One Web API method: its arguments in, Slack's JSON answer out. */
export type MethodHandler = (args: Record<string, unknown>) => unknown;

export const WORKSPACE = 'T0001';
export const BOT_USER = 'UBOT';
/** Slack's trigger_id is good for 3 seconds (docs/requirements.md R2). */
export const TRIGGER_LIFETIME_MS = 3_000;

/** A trigger id as Slack issues it with an interaction; the stand-in reads the issue time from it. */
export function newTriggerId(issuedAt = Date.now()): string {
  return `${issuedAt}.${randomBytes(4).readUInt32BE()}.${randomBytes(8).toString('hex')}`;
}
