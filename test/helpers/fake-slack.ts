import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded call to the fake Slack Web API or to a response_url. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token?: string;
  at: number;
  /** What the fake answered (e.g. the `ts` of a posted message, or `{ ok: false, error }`). */
  result?: unknown;
}

export interface FakeUser {
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
  locale?: string;
  name?: string;
  /** Another team's id makes the user external (Slack Connect). */
  team_id?: string;
  tz?: string;
  tz_offset?: number;
}

/**
 * A conversation as Slack keeps it. Slack answers `not_in_channel` for a public channel the bot is
 * not in, and `channel_not_found` for a private channel, DM or group DM it is not in.
 */
export interface FakeConversation {
  kind: 'public' | 'private' | 'im' | 'mpim';
  botMember: boolean;
  /** Human members; `undefined` means everyone (a lenient default for ids a test did not define). */
  members?: string[];
  archived?: boolean;
  /** Shared with another organisation (Slack Connect). */
  shared?: boolean;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text?: unknown;
  blocks?: unknown;
  threadTs?: string;
}

type Answer = { status?: number; headers?: Record<string, string>; body: unknown };
type Responder = (args: Record<string, unknown>) => Answer;

/** Slack's trigger_id is good for 3 seconds (docs/requirements.md R2). */
const TRIGGER_LIFETIME_MS = 3_000;
export const WORKSPACE = 'T0001';
export const BOT_USER = 'UBOT';

/** A trigger id as Slack issues it with an interaction; this fake reads the issue time from it. */
export function newTriggerId(issuedAt = Date.now()): string {
  return `${issuedAt}.${randomBytes(4).readUInt32BE()}.${randomBytes(8).toString('hex')}`;
}

/**
 * A local stand-in for the Slack Web API (`SLACK_API_URL`) and for every `response_url`. It keeps
 * conversations, membership, messages, views and files, and refuses what Slack refuses: posts where
 * the bot is not a member, ephemerals to users outside the channel, updates of deleted messages,
 * archived channels, uploads without membership, expired triggers. Ids a test does not define get
 * lenient defaults: `C…` a public channel with the bot and everyone in it, `D<user>` the user's DM
 * with the bot. Tests can also answer any call once with `override`, or fail it with `failNext`.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly conversations = new Map<string, FakeConversation>();
  readonly messages = new Map<string, FakeMessage>();
  readonly uploads = new Map<string, Buffer>();
  readonly views = new Map<string, { hash: string; view: unknown }>();
  #server: Server | undefined;
  #ts = 1_700_000_000;
  #overrides = new Map<string, Responder[]>();
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      void this.#handle(req).then(({ status = 200, headers = {}, body }) => {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      });
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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

  /** A fresh response_url whose posts are recorded as method `response_url:<id>`. */
  responseUrl(id: string): string {
    return `${this.url}/response/${id}`;
  }

  /** Define a conversation (replacing the lenient default for its id). */
  conversation(id: string, spec: FakeConversation): this {
    this.conversations.set(id, spec);
    return this;
  }

  /** The user closed the modal: later `views.update` calls fail `not_found`. */
  closeView(id: string): void {
    this.views.delete(id);
  }

  /** A message deleted by a person or a retention policy: updates of it fail `message_not_found`. */
  deleteMessage(channel: string, ts: string): void {
    this.messages.delete(`${channel}:${ts}`);
  }

  archive(channel: string): void {
    this.conversations.set(channel, { ...this.#conversation(channel), archived: true });
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
        throw new Error(`FakeSlack.waitFor timed out; calls: ${this.calls.map((c) => c.method).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async #handle(req: IncomingMessage): Promise<Answer> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/upload/')) {
      this.uploads.set(path, raw);
      this.calls.push({ method: 'file_upload', args: { path, size: raw.length }, at: Date.now() });
      return { body: 'OK' };
    }
    const args = parseArgs(raw, req.headers['content-type']);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (path.startsWith('/response/')) {
      this.calls.push({ method: `response_url:${path.slice('/response/'.length)}`, args, at: Date.now() });
      return { body: { ok: true } };
    }
    const method = path.replace(/^\/api\//, '');
    const call: SlackCall = { method, args, ...(token === undefined ? {} : { token }), at: Date.now() };
    this.calls.push(call);
    const override = this.#overrides.get(method)?.shift();
    const answer = override !== undefined ? override(args) : { body: this.#answer(method, args) };
    call.result = answer.body;
    return answer;
  }

  #conversation(id: string): FakeConversation {
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

  #answer(method: string, args: Record<string, unknown>): unknown {
    const fail = (error: string) => ({ ok: false, error });
    const ts = () => `${this.#ts++}.000100`;
    const channel = String(args.channel ?? args.channel_id ?? '');
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://acme.slack.com/',
          team: 'Acme',
          user: 'regdesk',
          team_id: WORKSPACE,
          user_id: BOT_USER,
          bot_id: 'BBOT',
        };
      case 'chat.postMessage': {
        const target = channel.startsWith('U') ? `D${channel}` : channel;
        const refusal = this.#postRefusal(target);
        if (refusal !== undefined) return fail(refusal);
        const message: FakeMessage = { channel: target, ts: ts(), text: args.text, blocks: args.blocks };
        if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
        this.messages.set(`${target}:${message.ts}`, message);
        return {
          ok: true,
          channel: target,
          ts: message.ts,
          message: { text: args.text, blocks: args.blocks },
        };
      }
      case 'chat.update': {
        const refusal = this.#postRefusal(channel);
        if (refusal !== undefined) return fail(refusal);
        const key = `${channel}:${String(args.ts)}`;
        const message = this.messages.get(key);
        // Messages a test did not post through this fake (ts "1.1" …) are taken as existing.
        if (message === undefined && this.#posted(channel, String(args.ts))) return fail('message_not_found');
        if (message !== undefined)
          this.messages.set(key, { ...message, text: args.text, blocks: args.blocks });
        return { ok: true, channel, ts: args.ts, text: args.text };
      }
      case 'chat.delete': {
        const key = `${channel}:${String(args.ts)}`;
        if (!this.messages.delete(key) && this.#posted(channel, String(args.ts)))
          return fail('message_not_found');
        return { ok: true, channel, ts: args.ts };
      }
      case 'chat.postEphemeral': {
        const refusal = this.#postRefusal(channel);
        if (refusal !== undefined) return fail(refusal);
        if (!this.#isMember(channel, String(args.user))) return fail('user_not_in_channel');
        return { ok: true, message_ts: ts() };
      }
      case 'views.open':
      case 'views.push': {
        const refusal = this.#triggerRefusal(args.trigger_id);
        if (refusal !== undefined) return fail(refusal);
        return this.#storeView(args.view);
      }
      case 'views.update': {
        const id = String(args.view_id ?? '');
        const known = this.views.get(id);
        // Views a test submitted directly (id "V0001" …) are taken as open; one this fake opened and
        // the user closed is gone.
        if (known === undefined && this.#posted('', id.slice(1))) return fail('not_found');
        if (known !== undefined && args.hash !== undefined && args.hash !== known.hash)
          return fail('hash_conflict');
        return this.#storeView(args.view, id);
      }
      case 'views.publish':
        return { ok: true, view: { id: `V${this.#ts++}`, ...(args.view as object) } };
      case 'users.info': {
        const user = this.users.get(String(args.user)) ?? { id: String(args.user) };
        return {
          ok: true,
          user: { team_id: WORKSPACE, locale: 'en-US', tz: 'Europe/Berlin', name: user.id, ...user },
        };
      }
      case 'reactions.add':
      case 'reactions.remove': {
        const refusal = this.#postRefusal(channel);
        return refusal === undefined ? { ok: true } : fail(refusal);
      }
      case 'conversations.info': {
        const conversation = this.#conversation(channel);
        if (!conversation.botMember && conversation.kind !== 'public') return fail('channel_not_found');
        const shared = conversation.shared === true;
        return {
          ok: true,
          channel: {
            id: channel,
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
      case 'conversations.open': {
        const user = String(args.users ?? '');
        if (this.users.get(user)?.deleted === true) return fail('user_disabled');
        return { ok: true, channel: { id: `D${user}` } };
      }
      case 'files.getUploadURLExternal':
        return { ok: true, upload_url: `${this.url}/upload/${this.#ts}`, file_id: `F${this.#ts++}` };
      case 'files.completeUploadExternal': {
        const refusal = this.#postRefusal(channel);
        if (refusal !== undefined) return fail(refusal);
        return { ok: true, files: [{ id: 'F1', title: 'file' }] };
      }
      case 'oauth.v2.access':
        return {
          ok: true,
          app_id: 'A0001',
          authed_user: { id: 'UINSTALLER' },
          scope: 'commands,chat:write',
          token_type: 'bot',
          access_token: `xoxb-installed-${String(args.code ?? 'x')}`,
          bot_user_id: BOT_USER,
          team: { id: 'T0OAUTH', name: 'OAuth Team' },
          enterprise: null,
          is_enterprise_install: false,
        };
      case 'usergroups.users.list':
        return { ok: true, users: [] };
      default:
        return fail('unknown_method');
    }
  }

  /** True when `ts` is a message id this fake handed out (so its absence means it was deleted). */
  #posted(_channel: string, ts: string): boolean {
    const seconds = Number(ts.split('.')[0]);
    return Number.isFinite(seconds) && seconds >= 1_700_000_000 && seconds < this.#ts;
  }

  #storeView(view: unknown, id = `V${this.#ts++}`): unknown {
    const hash = `${this.#ts++}.${randomBytes(4).toString('hex')}`;
    this.views.set(id, { hash, view });
    return { ok: true, view: { id, hash, ...(view as object) } };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
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
