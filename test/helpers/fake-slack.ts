import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded call to the fake Slack Web API or to a response_url. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token?: string;
  at: number;
  /** What the fake answered (e.g. the `ts` of a posted message). */
  result?: unknown;
}

export interface FakeUser {
  id: string;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_bot?: boolean;
  locale?: string;
  name?: string;
  team_id?: string;
}

type Responder = (args: Record<string, unknown>) => {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
};

/**
 * A local stand-in for the Slack Web API (`SLACK_API_URL`) and for every `response_url`. It records
 * each call and answers like Slack for the methods Regdesk uses; tests override any method.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly uploads = new Map<string, Buffer>();
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

  /** Answer the next call of `method` (once) with `responder` instead of the default. */
  override(method: string, responder: Responder): void {
    const list = this.#overrides.get(method) ?? [];
    list.push(responder);
    this.#overrides.set(method, list);
  }

  callsTo(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
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

  async #handle(
    req: IncomingMessage,
  ): Promise<{ status?: number; headers?: Record<string, string>; body: unknown }> {
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
    const answer = override !== undefined ? override(args) : { body: this.#default(method, args) };
    call.result = answer.body;
    return answer;
  }

  #default(method: string, args: Record<string, unknown>): unknown {
    const ts = () => `${this.#ts++}.000100`;
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://acme.slack.com/',
          team: 'Acme',
          user: 'regdesk',
          team_id: 'T0001',
          user_id: 'UBOT',
          bot_id: 'BBOT',
        };
      case 'chat.postMessage':
        return {
          ok: true,
          channel: args.channel,
          ts: ts(),
          message: { text: args.text, blocks: args.blocks },
        };
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: ts() };
      case 'chat.delete':
        return { ok: true, channel: args.channel, ts: args.ts };
      case 'views.open':
      case 'views.update':
      case 'views.push':
      case 'views.publish':
        return { ok: true, view: { id: `V${this.#ts++}`, ...(args.view as object) } };
      case 'users.info': {
        const user = this.users.get(String(args.user)) ?? { id: String(args.user) };
        return { ok: true, user: { team_id: 'T0001', locale: 'en-US', name: user.id, ...user } };
      }
      case 'reactions.add':
      case 'reactions.remove':
        return { ok: true };
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users ?? 'X')}` } };
      case 'files.getUploadURLExternal':
        return { ok: true, upload_url: `${this.url}/upload/${this.#ts}`, file_id: `F${this.#ts++}` };
      case 'files.completeUploadExternal':
        return { ok: true, files: [{ id: 'F1', title: 'file' }] };
      case 'oauth.v2.access':
        return {
          ok: true,
          app_id: 'A0001',
          authed_user: { id: 'UINSTALLER' },
          scope: 'commands,chat:write',
          token_type: 'bot',
          access_token: `xoxb-installed-${String(args.code ?? 'x')}`,
          bot_user_id: 'UBOT',
          team: { id: 'T0OAUTH', name: 'OAuth Team' },
          enterprise: null,
          is_enterprise_install: false,
        };
      case 'usergroups.users.list':
        return { ok: true, users: [] };
      default:
        return { ok: false, error: 'unknown_method' };
    }
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
