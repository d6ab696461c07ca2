import type { Job, Queue, Worker } from 'bullmq';
import { Queue as QueueClass, Worker as WorkerClass } from 'bullmq';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { APPROVAL_STATE_OF_ACTION } from './approval-states.js';
import { QUEUE_STATES, QueueDepth } from './queue-depth.js';

/**
 * One registry per app instance (not prom-client's global one) so tests can build several apps in a
 * process. Names follow Prometheus' conventions (base units, `_total` counters, `_info` with value 1);
 * the process and Node metrics keep their standard names (`process_*`, `nodejs_*`), so the usual
 * dashboards find them. Labels never carry secrets, ids or user text: only route names, commands,
 * Slack method names, operations, status codes, queue names and states, each a short fixed list
 * (docs/monitoring.md lists them). A scrape reads Redis at most once per queue per 5 s (queue-depth.ts);
 * everything else is in memory.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  ackLatency: Histogram<'kind' | 'command'>;
  registrarDuration: Histogram<'operation' | 'status'>;
  jobDuration: Histogram<'queue' | 'outcome'>;
  jobRetries: Counter<'queue'>;
  assistantWait: Histogram;
  approvals: Counter<'state'>;
  /** Reminders sent for approval requests still undecided late in their life (about to expire unseen). */
  approvalReminders: Counter;
  /** Slack Web API calls by method and outcome (`ok`, `error`, `429`, or the HTTP status). */
  slackCalls: Counter<'method' | 'status'>;
  watchLooks: Counter<'kind' | 'outcome'>;
  watchAlerts: Counter<'cause'>;
  /** When this process last finished a watch sweep, in seconds (0: never); its staleness is an alert. */
  watchSweptAt: Gauge;
  /** Audit entries a sink did not take at one try (each retried until it does). */
  auditDeliveryFailures: Counter<'sink'>;
  /** Whose completed jobs measure `assistantWait`. */
  assistantQueue: string | undefined;
  /** Queues whose depth `/metrics` reports, read from Redis at scrape time. */
  watchQueues(queues: readonly Queue[]): void;
  /** What `regdesk_ready` and `regdesk_data_incident` report, read from the process's own state. */
  observeHealth(health: Health): void;
  /** What `regdesk_audit_outbox_backlog` reports: entries not yet delivered, per sink, read from Redis. */
  observeAuditBacklog(read: () => Promise<ReadonlyMap<string, number>>): void;
}

export { APPROVAL_STATE_OF_ACTION, QUEUE_STATES };

/** The process's own view of its health: `/readyz`'s answer (one Redis ping), and an open data incident. */
export interface Health {
  ready(): Promise<boolean>;
  incident(): boolean;
}

export interface MetricsQueues {
  /** The queue that follows pending DNSSEC transitions and certificate orders (`regdesk_followers`). */
  followQueue?: string;
  /** The assistant's question queue (`regdesk_assistant_wait_seconds`). */
  assistantQueue?: string;
}

/** What `regdesk_build_info` says: the package version, the Node.js release, the commit built. */
export interface BuildInfo {
  version: string;
  commit: string;
}

export function createMetrics(
  names: MetricsQueues = {},
  build: BuildInfo = { version: 'unknown', commit: 'unknown' },
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's three gauges named `…_total` break Prometheus' naming rule (`promtool check metrics`
  // flags them: `_total` is for counters). Their by-type gauges stay (`nodejs_active_handles{type}` …);
  // `sum()` of those is the same total.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);
  const watched = new Map<string, Queue>();
  const depth = new QueueDepth(watched);
  let health: Health | undefined;
  let auditBacklog: (() => Promise<ReadonlyMap<string, number>>) | undefined;
  let auditBacklogRead: { at: number; value: Promise<ReadonlyMap<string, number>> } | undefined;

  new Gauge({
    name: 'regdesk_build_info',
    help: 'The running Regdesk: package version, Node.js release and commit (always 1)',
    labelNames: ['version', 'node', 'commit'],
    registers: [registry],
  }).set({ version: build.version, node: process.version, commit: build.commit }, 1);
  new Gauge({
    name: 'regdesk_ready',
    help: 'Whether this process can serve (1) or not (0), as /readyz answers',
    registers: [registry],
    async collect() {
      if (health !== undefined) this.set((await health.ready()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'regdesk_data_incident',
    help: "Whether this process has seen Regdesk's data lost or rolled back in Redis (1) and not yet cleared",
    registers: [registry],
    collect() {
      if (health !== undefined) this.set(health.incident() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'regdesk_queue_jobs',
    help: 'Jobs in each queue by state, read from Redis when scraped (the same in every process)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [name, reading] of await depth.read()) {
        // With Redis down the depth is unknown: left out, so the rest of /metrics still answers.
        if (reading === undefined) continue;
        for (const state of QUEUE_STATES) this.set({ queue: name, state }, reading.counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'regdesk_queue_oldest_waiting_seconds',
    help: 'How long the oldest job ready to run has waited for a worker, by queue (0: none waiting)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [name, reading] of await depth.read()) {
        if (reading !== undefined) this.set({ queue: name }, reading.oldestWaitingSeconds);
      }
    },
  });
  new Gauge({
    name: 'regdesk_followers',
    help: 'Pending DNSSEC transitions, certificate orders and record changes being followed',
    registers: [registry],
    async collect() {
      if (names.followQueue === undefined || !watched.has(names.followQueue)) return;
      this.reset();
      const counts = (await depth.read()).get(names.followQueue)?.counts;
      if (counts === undefined) return;
      this.set((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0));
    },
  });

  new Gauge({
    name: 'regdesk_audit_outbox_backlog',
    help: 'Audit entries not yet delivered to each sink (webhook, syslog), read from Redis when scraped (the same in every process)',
    labelNames: ['sink'],
    registers: [registry],
    async collect() {
      if (auditBacklog === undefined) return;
      // Like the queues' depth: Redis is read at most once per 5 s, however often /metrics is scraped.
      if (auditBacklogRead === undefined || Date.now() - auditBacklogRead.at >= 5_000)
        auditBacklogRead = { at: Date.now(), value: auditBacklog() };
      this.reset();
      try {
        for (const [sink, entries] of await auditBacklogRead.value) this.set({ sink }, entries);
      } catch {
        // With Redis down the backlog is unknown: left out, so the rest of /metrics still answers.
      }
    },
  });

  const approvals = new Counter({
    name: 'regdesk_approvals_total',
    help: 'Approval requests that entered each state',
    labelNames: ['state'],
    registers: [registry],
  });
  // Every state from 0, so that `increase()` sees a process's first failed approval too (a series
  // that appears at 1 has no increase for Prometheus).
  for (const state of Object.values(APPROVAL_STATE_OF_ACTION)) approvals.inc({ state }, 0);

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
    registrarDuration: new Histogram({
      name: 'regdesk_registrar_request_duration_seconds',
      help: 'Calls to the registrar API by operation and HTTP status (0 = no answer): duration, and by _count how many',
      labelNames: ['operation', 'status'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'regdesk_job_duration_seconds',
      help: 'Time a worker of this process spent on a job run, by queue and outcome',
      labelNames: ['queue', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    jobRetries: new Counter({
      name: 'regdesk_job_retries_total',
      help: 'Job runs that failed and will be tried again, by queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
    assistantWait: new Histogram({
      name: 'regdesk_assistant_wait_seconds',
      help: 'Time from a question being queued to its answer being delivered',
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    approvals,
    approvalReminders: new Counter({
      name: 'regdesk_approval_reminders_total',
      help: 'Approval requests still undecided when most of their life had passed (approvers reminded)',
      registers: [registry],
    }),
    slackCalls: new Counter({
      name: 'regdesk_slack_api_calls_total',
      help: 'Slack Web API calls by method and outcome (ok, error, 429 or the HTTP status)',
      labelNames: ['method', 'status'],
      registers: [registry],
    }),
    watchLooks: new Counter({
      name: 'regdesk_watch_looks_total',
      help: 'Looks at watched domains and certificates, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    watchAlerts: new Counter({
      name: 'regdesk_watch_alerts_total',
      help: 'Watch alerts raised, by cause',
      labelNames: ['cause'],
      registers: [registry],
    }),
    watchSweptAt: new Gauge({
      name: 'regdesk_watch_sweep_last_success_timestamp_seconds',
      help: 'When this process last finished a sweep that queues due watch looks (0: never)',
      registers: [registry],
    }),
    auditDeliveryFailures: new Counter({
      name: 'regdesk_audit_delivery_failures_total',
      help: 'Audit entry deliveries a sink did not take (each entry is retried until it does), by sink',
      labelNames: ['sink'],
      registers: [registry],
    }),
    assistantQueue: names.assistantQueue,
    watchQueues(queues) {
      for (const queue of queues) watched.set(queue.name, queue);
    },
    observeHealth(observed) {
      health = observed;
    },
    observeAuditBacklog(read) {
      auditBacklog = read;
    },
  };
}

/** Job durations, retries and the assistant's wait time of one BullMQ worker of this process. */
export function observeWorker(metrics: Metrics, worker: Worker): void {
  const queue = worker.name;
  const ran = (job: Job) =>
    job.processedOn === undefined || job.finishedOn === undefined
      ? undefined
      : (job.finishedOn - job.processedOn) / 1000;
  worker.on('completed', (job) => {
    const seconds = ran(job);
    if (seconds !== undefined) metrics.jobDuration.observe({ queue, outcome: 'completed' }, seconds);
    // The job's timestamp is when it was queued; re-delays while it waits for its turn keep it.
    if (queue === metrics.assistantQueue && job.finishedOn !== undefined) {
      metrics.assistantWait.observe(Math.max(0, job.finishedOn - job.timestamp) / 1000);
    }
  });
  worker.on('failed', (job) => {
    if (job === undefined) return;
    const seconds = ran(job);
    if (seconds !== undefined) metrics.jobDuration.observe({ queue, outcome: 'failed' }, seconds);
    if (job.attemptsMade < (job.opts.attempts ?? 1)) metrics.jobRetries.inc({ queue });
  });
}

/** Every BullMQ queue and worker among `values` (the services of a process, the started workers). */
export function queuesAmong(values: Iterable<unknown>): Queue[] {
  return [...values].filter((value): value is Queue => value instanceof QueueClass);
}

/** Called where workers run: it loads BullMQ's Worker class (`web` never does). */
export function workersAmong(values: Iterable<unknown>): Worker[] {
  return [...values].filter((value): value is Worker => value instanceof WorkerClass);
}
