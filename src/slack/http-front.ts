import { timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';

export interface HealthReport {
  ok: boolean;
  [detail: string]: unknown;
}

export interface HttpFrontOptions {
  port: number;
  host?: string;
  logger: Logger;
  metrics: Metrics;
  health: () => Promise<HealthReport>;
  /** Handles `/slack/*`; absent when Slack is not configured or runs over Socket Mode. */
  slack?: RequestListener;
  /** Said to whoever posts to /slack/events while Slack is not configured. */
  unconfiguredHint?: string;
  /** Who may read `/metrics` on this listener. */
  metricsAccess: MetricsAccess;
  /**
   * More routes, tried before the 404 (the playground's): resolves true when it answered the request.
   * It reads its own bodies, within its own limits.
   */
  routes?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}

/**
 * Who may read `/metrics` on one listener (contract §2): anyone, where the port never faces Slack
 * (METRICS_PORT, a worker's WORKER_PORT); the bearer of METRICS_TOKEN; this machine only, on PORT
 * with neither METRICS_TOKEN nor METRICS_PORT; or nobody here, on PORT when METRICS_PORT serves them.
 * A same-host reverse proxy makes every Slack request a loopback one, so METRICS_PORT ends the
 * loopback exception rather than trusting it.
 */
export type MetricsAccess =
  | { kind: 'open' }
  | { kind: 'token'; token: string }
  | { kind: 'loopback' }
  | { kind: 'elsewhere'; port: number };

export interface HttpFront {
  server: Server;
  url: string;
  port: number;
  stop(graceMs?: number): Promise<void>;
}

const SLACK_ROUTES = new Set(['/slack/events', '/slack/install', '/slack/oauth_redirect']);

/**
 * Slack's largest payloads (a view submission of a full modal) stay far below this; anything bigger
 * is refused from its headers, before a byte of it is buffered (docs/requirements.md R34).
 */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Open sockets at once; Slack's concurrency per app is far below this. */
const MAX_CONNECTIONS = 1_024;
const PROBES = new Set(['/readyz', '/healthz']);
const KNOWN_ROUTES = new Set([...SLACK_ROUTES, ...PROBES, '/livez', '/metrics']);

/**
 * The process's one HTTP server: Slack's endpoints, the probes and `/metrics` (docs/requirements.md C1,
 * C2). `/healthz` is `/readyz`, kept for the operators who probe it.
 */
export async function startHttpFront(options: HttpFrontOptions): Promise<HttpFront> {
  const { logger, metrics } = options;

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method === 'GET' && path === '/livez') {
      sendJson(res, 200, { ok: true });
      return;
    }
    if (req.method === 'GET' && PROBES.has(path)) {
      const report = await options.health();
      sendJson(res, report.ok ? 200 : 503, report);
      return;
    }
    if (req.method === 'GET' && path === '/metrics') {
      const access = options.metricsAccess;
      if (access.kind === 'token' && !bearerMatches(req, access.token)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      if (access.kind === 'elsewhere') {
        sendJson(res, 404, {
          error: 'metrics_elsewhere',
          hint: `Metrics are served on METRICS_PORT (${access.port}); set METRICS_TOKEN to read them here too.`,
        });
        return;
      }
      // Without a token the metrics (queue depths, approval counts, traffic) are for this machine
      // only: the port also faces Slack, and so the internet.
      if (access.kind === 'loopback' && !isLoopback(req.socket.remoteAddress)) {
        sendJson(res, 403, {
          error: 'metrics_loopback_only',
          hint: 'Set METRICS_PORT (a listener of its own), or METRICS_TOKEN and scrape with `Authorization: Bearer <token>`.',
        });
        return;
      }
      const body = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
      return;
    }
    if (SLACK_ROUTES.has(path)) {
      if (req.method === 'POST' && (refuseBody(req, res) || refuseOverBudget(req, res))) return;
      if (options.slack === undefined) {
        sendJson(res, 503, { error: 'slack_not_configured', hint: options.unconfiguredHint ?? '' });
      } else {
        options.slack(req, res);
      }
      return;
    }
    if (options.routes !== undefined && (await options.routes(req, res, path))) return;
    sendJson(res, 404, { error: 'not_found' });
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Only known routes become label values, so scanners cannot blow up the metric's cardinality.
    const route = KNOWN_ROUTES.has(path) ? path : 'other';
    res.once('finish', () => {
      metrics.httpRequests.inc({ method: req.method ?? 'GET', route, status: String(res.statusCode) });
    });
    handle(req, res, path).catch((error: unknown) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'HTTP handler failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal_error' });
    });
  });
  // Slack resends after 3 s anyway; do not let slow or idle clients hold sockets open.
  server.requestTimeout = 15_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = MAX_CONNECTIONS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        // Stop accepting; let in-flight requests finish, then cut idle keep-alive sockets.
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * docs/requirements.md R34: request bodies held at once, across all requests, by their declared
 * length, from the moment one is accepted until its answer is sent. A slow sender holds its share for
 * at most the request timeout; past the budget, 503 (Slack retries) instead of buffering more.
 * Slack's payloads are a few kilobytes, so the budget holds thousands of real ones at once.
 */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
let bufferedBytes = 0;

function refuseOverBudget(req: IncomingMessage, res: ServerResponse): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  if (bufferedBytes + length > MAX_BUFFERED_BYTES) {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' });
    res.end(JSON.stringify({ error: 'busy' }));
    req.destroy();
    return true;
  }
  bufferedBytes += length;
  res.once('close', () => {
    bufferedBytes -= length;
  });
  return false;
}

export function isLoopback(address: string | undefined): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address ?? '');
}

/** 411 without a length, 413 over the limit: answered from the headers, the body never read. */
function refuseBody(req: IncomingMessage, res: ServerResponse): boolean {
  const length = Number(req.headers['content-length'] ?? Number.NaN);
  const status = Number.isNaN(length) ? 411 : length > MAX_BODY_BYTES ? 413 : undefined;
  if (status === undefined) return false;
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: status === 413 ? 'payload_too_large' : 'length_required' }));
  req.destroy();
  return true;
}

function bearerMatches(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
