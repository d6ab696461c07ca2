import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLocalHostHeader } from '../guard.js';
import { receiveUpload } from './files.js';
import { tokenExpired } from './oauth.js';
import { authorizePage } from './openid.js';
import type { SlackPacing } from './pacing.js';
import { respond } from './response-urls.js';
import type { SlackState } from './state.js';
import type { Answer, MethodHandler, SlackCall } from './types.js';

/**
 * Request bodies the stand-in reads (413 beyond): Web API calls and response_url posts are JSON or
 * form bodies far below 1 MiB (a message is at most 40 000 characters, a view 100 blocks); file
 * uploads (`files.getUploadURLExternal`'s upload_url) may be larger, up to 10 MiB (certificates and
 * CSV exports are kilobytes). Slack's own limits are higher; these only keep memory bounded.
 */
export const MAX_API_BODY_BYTES = 1024 * 1024;
export const MAX_UPLOAD_BODY_BYTES = 10 * 1024 * 1024;

/** Listens on `host` (a free port) and answers every request with `handle`. */
export async function listen(
  host: string,
  handle: (req: IncomingMessage) => Promise<Answer>,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    handle(req).then(
      ({ status = 200, headers = {}, body }) => {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * One request to the stand-in: a file upload (`/upload/<id>`), a post to a response_url
 * (`/response/<id>`), or a Web API call (`/api/<method>`), answered by an override, else by `methods`.
 */
export async function handleRequest(
  state: SlackState,
  methods: Record<string, MethodHandler>,
  pacing: SlackPacing | undefined,
  req: IncomingMessage,
): Promise<Answer> {
  const refusal = standInRefusal(req);
  if (refusal !== undefined) return { status: 403, body: { ok: false, error: refusal } };
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  // Sign in with Slack's page, where a browser (or a test following redirects) is sent (openid.ts).
  if (req.method === 'GET' && path === '/openid/connect/authorize') {
    return authorizePage(state, new URL(req.url ?? '/', 'http://localhost').searchParams);
  }
  const raw = await readBody(req, path.startsWith('/upload/') ? MAX_UPLOAD_BODY_BYTES : MAX_API_BODY_BYTES);
  if (raw === undefined) {
    return {
      status: 413,
      headers: { connection: 'close' },
      body: { ok: false, error: 'payload_too_large' },
    };
  }
  if (path.startsWith('/upload/')) {
    receiveUpload(state, path, raw);
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
    state.record(call);
    const answer = respond(state, id, args);
    call.result = answer.body;
    return answer;
  }
  const method = path.replace(/^\/api\//, '');
  // Sign in with Slack's methods take the app's credentials or the user's token, never the bot's;
  // userInfo's token comes in the Authorization header or as a `token` argument (docs.slack.dev).
  const signIn = method.startsWith('openid.connect.');
  if (signIn && token !== undefined && args.token === undefined) args.token = token;
  if (!signIn && state.botToken !== undefined && token !== state.botToken) {
    // Slack answers HTTP 200 with the error in the body.
    return { body: { ok: false, error: token === undefined ? 'not_authed' : 'invalid_auth' } };
  }
  // Token rotation (docs.slack.dev "Using token rotation"): an expired or replaced access token is
  // refused with `token_expired`.
  if (tokenExpired(state, token, method)) {
    const result = { ok: false, error: 'token_expired' };
    state.record({ method, args, ...(token === undefined ? {} : { token }), at: Date.now(), result });
    return { body: result };
  }
  const call: SlackCall = { method, args, ...(token === undefined ? {} : { token }), at: Date.now() };
  state.record(call);
  const retryAfter = pacing?.refusal(method, args, call.at);
  if (retryAfter !== undefined) {
    // Slack's rate limiting (docs.slack.dev "Rate limits"): HTTP 429 with Retry-After in seconds.
    call.result = { ok: false, error: 'ratelimited' };
    return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: call.result };
  }
  const override = state.overrides.get(method)?.shift();
  const handler = methods[method];
  const answer =
    override !== undefined
      ? override(args)
      : { body: handler === undefined ? { ok: false, error: 'unknown_method' } : handler(args) };
  call.result = answer.body;
  if (answer.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
  // Slack names the calling token's scopes on every Web API answer (docs.slack.dev "Scopes").
  return { ...answer, headers: { 'x-oauth-scopes': state.scopes.join(','), ...answer.headers } };
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
