import type { IncomingMessage } from 'node:http';

/**
 * The playground acts as any member of its workspace, so only this machine may reach it. Three checks:
 * the TCP peer is a loopback address; the Host header names this machine (a DNS-rebinding page
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
