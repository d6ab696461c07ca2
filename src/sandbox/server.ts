// The simulator's HTTP server: routing, keys, injected faults and the request log.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { summarize } from './account.js';
import { assistantRoutes } from './assistant.js';
import { dnsRoutes } from './dns.js';
import { dnssecRoutes } from './dnssec.js';
import { domainRoutes } from './domains.js';
import {
  errorBody,
  type KeyInfo,
  type OperationName,
  type Route,
  readJson,
  SandboxError,
  send,
} from './http.js';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, Windows } from './limits.js';
import { organizationRoutes } from './organizations.js';
import { SandboxState } from './state.js';
import { tlsRoutes } from './tls.js';
import type { Fault, Sandbox, SandboxOptions, SandboxRequest } from './types.js';

/** How many requests `requests()` keeps. */
const REQUEST_LOG_SIZE = 200;

/** Which of the service's limits (docs/registrar-api.md §8) each operation counts against. */
const LIMIT_OF: Partial<Record<OperationName, string>> = {
  'domains.availability': 'availability',
  'assistant.search': 'assistantKey + assistantAccount',
  'domains.authinfo': 'authcodeDomain + authcodeAccount',
  'domains.nameservers': 'nsChangesPerDomain',
};

/** The demo key's rights. Only the three read rights are named by the spec (part 5); the rest are ours. */
export const ALL_PERMISSIONS = [
  'domain:read',
  'domain:write',
  'dns:read',
  'dns:write',
  'tls:read',
  'tls:write',
  'billing:read',
  'assistant',
];

/** The registrar simulator: every operation of spec v1.6.2 with its envelope, errors, states and limits. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const base = options.clock ?? { now: () => Date.now() };
  let clockOffsetMs = 0;
  const clock = { now: () => base.now() + clockOffsetMs };
  const apiKey = options.apiKey ?? `sbx_${randomBytes(12).toString('hex')}`;
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const certificateIssueMs = options.delays?.certificateIssueMs ?? 60_000;
  const arrivalJitterMs = options.delays?.arrivalJitterMs ?? 0;
  const state = new SandboxState(clock.now());
  for (const cert of state.certificates.values()) {
    if (cert.status === 'pending') cert.issueAt = clock.now() + certificateIssueMs;
  }
  const windows = new Windows();
  const keys = new Map<string, KeyInfo>([
    [apiKey, { key: apiKey, account: 'acct-demo', permissions: new Set(ALL_PERMISSIONS) }],
  ]);
  const faults = new Map<OperationName, Fault>();
  const calls: Array<{ operation: OperationName | 'unknown'; method: string; path: string; status: number }> =
    [];
  const requests: SandboxRequest[] = [];
  const requestListeners = new Set<(request: SandboxRequest) => void>();
  const routes: Route[] = [
    ...tlsRoutes({ state, certificateIssueMs }),
    ...organizationRoutes(state),
    ...dnssecRoutes(state, options.delays?.dnssecSettleMs ?? 30_000),
    ...dnsRoutes(state),
    ...domainRoutes({ state, limits, windows }),
    ...assistantRoutes({ limits, windows, answerMs: options.delays?.assistantAnswerMs ?? 300 }),
  ];

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    let match: { route: Route; params: string[] } | undefined;
    for (const route of routes) {
      const found = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (found) {
        match = { route, params: found.slice(1) };
        break;
      }
    }
    const operation = match?.route.operation ?? 'unknown';
    const started = performance.now();
    const record = (status: number) => {
      calls.push({ operation, method, path: url.pathname, status });
      const limit = operation === 'unknown' ? undefined : LIMIT_OF[operation];
      const request: SandboxRequest = {
        at: Date.now(),
        method,
        path: url.pathname,
        status,
        durationMs: Math.round(performance.now() - started),
        ...(limit === undefined ? {} : { limit }),
      };
      requests.push(request);
      if (requests.length > REQUEST_LOG_SIZE) requests.shift();
      for (const listener of requestListeners) listener(request);
    };

    void (async () => {
      try {
        if (arrivalJitterMs > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * arrivalJitterMs));
        const key = keys.get(String(req.headers['x-api-key'] ?? ''));
        if (key === undefined) throw new SandboxError(401, 'Unauthorized');
        if (match === undefined) throw new SandboxError(404, 'Not found');
        const fault = faults.get(match.route.operation);
        if (fault !== undefined) {
          if (fault.times !== undefined && --fault.times <= 0) faults.delete(match.route.operation);
          if (fault.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          if (fault.status !== undefined)
            throw new SandboxError(fault.status, `Injected fault ${fault.status}`);
          if (fault.malformed === true) {
            record(200);
            send(res, 200, { success: true, code: 0, response: { id: 12345, status: null, domain: 42 } });
            return;
          }
        }
        const body = method === 'GET' ? {} : await readJson(req);
        const result = await match.route.handler({
          params: match.params,
          query: url.searchParams,
          body,
          key,
          now: clock.now(),
        });
        if ('raw' in result) {
          record(200);
          res.writeHead(200, { 'content-type': result.contentType }).end(result.raw);
        } else if ('body' in result) {
          record(result.status);
          send(res, result.status, result.body);
        } else {
          record(result.status ?? 200);
          send(
            res,
            result.status ?? 200,
            { success: true, code: 0, response: result.response },
            result.headers,
          );
        }
      } catch (error) {
        const status = error instanceof SandboxError ? error.status : 500;
        const message = error instanceof SandboxError ? error.message : 'Unexpected error';
        if (!(error instanceof SandboxError))
          options.logger?.error({ err: String(error) }, 'sandbox handler failed');
        record(status);
        if (!res.headersSent)
          send(res, status, errorBody(status, message), error instanceof SandboxError ? error.headers : {});
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    apiKey,
    state,
    addKey: (key, permissions, account = 'acct-demo') =>
      keys.set(key, { key, account, permissions: new Set(permissions) }),
    faults: {
      inject: (operation, fault) => faults.set(operation, { ...fault }),
      clear: () => faults.clear(),
    },
    calls,
    requests: () => [...requests],
    onRequest: (listener) => {
      requestListeners.add(listener);
      return () => requestListeners.delete(listener);
    },
    account: () => summarize(state, clock.now()),
    advanceClock: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      clockOffsetMs += ms;
    },
    get clockOffsetMs() {
      return clockOffsetMs;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
