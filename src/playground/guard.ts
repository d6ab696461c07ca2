import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The playground acts as any member of its workspace, so only this machine may reach it. Three checks,
 * kept as a second layer beside the token (PlaygroundToken below): the TCP peer is a loopback address; the Host header names this machine (a DNS-rebinding page
 * reaches us under its own host name); a POST comes from the page's own origin (a page elsewhere
 * can still make the browser send a "simple" cross-site POST).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `localhost`, `127.0.0.1` or `[::1]`, with or without a port. */
export function isLocalHostHeader(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  return match !== null && LOCAL_HOSTS.has(match[1] ?? '');
}

/** Why the request must be refused (403), or undefined when it comes from this machine's page. */
export function playgroundRefusal(req: IncomingMessage): string | undefined {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return 'the playground answers this machine only';
  const host = req.headers.host;
  if (!isLocalHostHeader(host)) return 'the playground answers only localhost, 127.0.0.1 or [::1]';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const origin = req.headers.origin;
    if (origin === undefined || origin.toLowerCase() !== `http://${String(host).toLowerCase()}`) {
      return 'cross-origin requests are refused';
    }
  }
  return undefined;
}

/**
 * The second check (docs/requirements.md R42): a fresh random token per process, printed at start in
 * the page's URL. The loopback and Host checks trust what a same-host reverse proxy or a port forwarder
 * makes of a remote request (nginx rewrites Host; rootless Podman connects from 127.0.0.1), so they
 * cannot tell this machine's browser from anyone else. The token can: only someone who read the
 * start-up output has it. The page trades it for a cookie and drops it from the address bar.
 */
export class PlaygroundToken {
  readonly value: string;
  readonly #digest: Buffer;

  constructor(value = randomBytes(32).toString('base64url')) {
    this.value = value;
    this.#digest = digest(value);
  }

  /** Constant-time: both sides are hashed first, so the lengths timingSafeEqual needs always agree. */
  matches(candidate: string | null | undefined): boolean {
    return typeof candidate === 'string' && timingSafeEqual(digest(candidate), this.#digest);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The page that trades `?token=` for the cookie. */
export const PAGE_PATHS: ReadonlySet<string> = new Set(['/playground', '/playground/']);

/**
 * Named after the port the playground listens on: cookies are not kept apart by port, so two
 * playgrounds on one machine would otherwise overwrite each other's.
 */
function cookieName(req: IncomingMessage): string {
  return `regdesk_playground_${req.socket.localPort ?? 0}`;
}

function cookieValues(req: IncomingMessage, name: string): string[] {
  return (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
}

export type TokenCheck =
  | { kind: 'allowed' }
  | { kind: 'refused'; reason: string }
  /** `?token=` on the page, correct: set the cookie and redirect to the URL without it. */
  | { kind: 'exchange'; setCookie: string; location: string };

/** Whether the request carries this process's token: the cookie anywhere, `?token=` on the page only. */
export function checkToken(req: IncomingMessage, path: string, token: PlaygroundToken): TokenCheck {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
  if (query !== null && PAGE_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
    if (!token.matches(query)) return { kind: 'refused', reason: WRONG_TOKEN };
    const name = cookieName(req);
    // HttpOnly: no script reads it; SameSite=Strict: no other site's page makes the browser send it.
    return {
      kind: 'exchange',
      setCookie: `${name}=${token.value}; HttpOnly; SameSite=Strict; Path=/playground`,
      location: '/playground',
    };
  }
  if (cookieValues(req, cookieName(req)).some((value) => token.matches(value))) return { kind: 'allowed' };
  return { kind: 'refused', reason: WRONG_TOKEN };
}

const WRONG_TOKEN =
  'open the playground with the URL Regdesk printed at start-up (http://localhost:PORT/playground?token=…); a restart makes a new token';
