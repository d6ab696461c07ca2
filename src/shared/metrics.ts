import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One registry per app instance (not prom-client's global one) so tests can build several apps in a
 * process. Labels never carry secrets or user text: only route names, commands and status codes.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  ackLatency: Histogram<'kind' | 'command'>;
  registrarRequests: Counter<'operation' | 'status'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'regdesk_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'regdesk_http_requests_total',
      help: 'HTTP requests served, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    ackLatency: new Histogram({
      name: 'regdesk_slack_ack_seconds',
      help: 'Time from receiving a Slack request to acknowledging it (Slack allows 3 s)',
      labelNames: ['kind', 'command'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers: [registry],
    }),
    registrarRequests: new Counter({
      name: 'regdesk_registrar_requests_total',
      help: 'Calls to the registrar API, by operation and HTTP status (0 = no answer)',
      labelNames: ['operation', 'status'],
      registers: [registry],
    }),
  };
}
