import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call to the fake Web API (`method` is e.g. `chat.postMessage`) or to a response_url. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  /** Arrival time (Date.now()), the clock the figures are measured with. */
  at: number;
}

export const BOT_USER = 'UBOT';

/** Slack's posting rule: one message a second per channel; arrivals this much early are let through (jitter). */
const POST_INTERVAL_MS = 1_000;
const POST_JITTER_MS = 100;
/** Tier 3 methods: about 50 calls a minute per workspace and method. */
const TIER3 = new Set(['chat.update', 'chat.delete', 'reactions.add', 'reactions.remove']);
const TIER3_LIMIT = { max: 50, windowMs: 60_000 };

/**
 * A local stand-in for Slack's Web API (`SLACK_API_URL`) and for every response_url: it answers ok to
 * every method with the fields Regdesk reads, and records each call with its arrival time. It keeps
 * no conversations, but it paces like Slack does, so a figure cannot come from a forgiving fake:
 * `chat.postMessage` once a second per channel, Tier 3 methods (`chat.update`…) 50 a minute per
 * workspace and method; beyond that it answers 429 with `Retry-After`, and counts it (`limited`).
 */
export class BenchSlack {
  readonly calls: SlackCall[] = [];
  /** Calls answered 429, by method. */
  readonly limited = new Map<string, number>();
  readonly #lastPost = new Map<string, number>();
  readonly #tier3 = new Map<string, number[]>();
  url = '';
  #server: Server | undefined;
  #seq = 0;

  constructor(private readonly team: string) {}

  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** A response_url whose posts are recorded as method `response_url:<id>`. */
  responseUrl(id: string): string {
    return `${this.url}/response/${id}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void this.#handle(req).then(
        (body) => {
          if (typeof body === 'number') {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(body) });
            res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
          } else {
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          }
        },
        () => res.writeHead(400).end(),
      );
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Total 429 answers for the given methods (all methods when none are named). */
  limitedCount(...methods: string[]): number {
    let total = 0;
    for (const [method, count] of this.limited)
      if (methods.length === 0 || methods.includes(method)) total += count;
    return total;
  }

  /** Seconds to wait when Slack would refuse this call now, else undefined (and the call is counted). */
  #refusal(method: string, args: Record<string, unknown>, at: number): number | undefined {
    let waitMs: number | undefined;
    if (method === 'chat.postMessage') {
      const channel = String(args.channel ?? '');
      const last = this.#lastPost.get(channel);
      if (last !== undefined && at - last < POST_INTERVAL_MS - POST_JITTER_MS)
        waitMs = last + POST_INTERVAL_MS - at;
      else this.#lastPost.set(channel, at);
    } else if (TIER3.has(method)) {
      const recent = (this.#tier3.get(method) ?? []).filter((t) => t > at - TIER3_LIMIT.windowMs);
      if (recent.length >= TIER3_LIMIT.max) waitMs = (recent[0] ?? at) + TIER3_LIMIT.windowMs - at;
      else recent.push(at);
      this.#tier3.set(method, recent);
    }
    if (waitMs === undefined) return undefined;
    this.limited.set(method, (this.limited.get(method) ?? 0) + 1);
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  async #handle(req: IncomingMessage): Promise<Record<string, unknown> | number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const args = parseArgs(raw, String(req.headers['content-type'] ?? ''));
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const at = Date.now();
    if (path.startsWith('/response/')) {
      this.calls.push({ method: `response_url:${path.slice('/response/'.length)}`, args, at });
      return { ok: true };
    }
    const method = path.replace(/^\/api\//, '');
    const retryAfter = this.#refusal(method, args, at);
    if (retryAfter !== undefined) return retryAfter;
    this.calls.push({ method, args, at });
    return this.#answer(method, args);
  }

  #answer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel ?? 'C0');
    const ts = () => `1800000000.${String(++this.#seq).padStart(6, '0')}`;
    switch (method) {
      case 'auth.test':
        return { ok: true, user_id: BOT_USER, bot_id: 'BBOT', team_id: this.team, user: 'regdesk' };
      case 'users.info':
        // A plain member of the installing workspace: never an outsider, guest or admin.
        return {
          ok: true,
          user: {
            id: String(args.user ?? 'U0'),
            team_id: this.team,
            locale: 'en-US',
            name: 'bench',
            tz: 'UTC',
          },
        };
      case 'conversations.info':
        // An ordinary public channel of the workspace, the bot a member: not shared with other orgs.
        return {
          ok: true,
          channel: {
            id: channel,
            is_channel: true,
            is_private: false,
            is_member: true,
            is_archived: false,
            is_ext_shared: false,
            is_pending_ext_shared: false,
          },
        };
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users ?? 'U0')}` } };
      case 'views.open':
      case 'views.update':
      case 'views.push':
        return { ok: true, view: { id: 'VBENCH', hash: `h${++this.#seq}` } };
      case 'chat.postMessage': {
        const posted = ts();
        return { ok: true, channel, ts: posted, message: { ts: posted, text: args.text ?? '' } };
      }
      case 'chat.update':
        return { ok: true, channel, ts: String(args.ts ?? '') };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: ts() };
      default:
        return { ok: true };
    }
  }
}

/** The Web API client posts forms (nested values as JSON strings); response_url posts are JSON. */
function parseArgs(raw: string, contentType: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/** The text of a recorded message (fallback text only; enough to tell answers from placeholders). */
export function textOf(call: SlackCall): string {
  return typeof call.args.text === 'string' ? call.args.text : '';
}
