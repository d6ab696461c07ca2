import type { Job, Queue, Worker } from 'bullmq';
import { Queue as QueueClass, Worker as WorkerClass } from 'bullmq';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per app instance (not prom-client's global one) so tests can build several apps in a
 * process. Labels never carry secrets, ids or user text: only route names, commands, status codes,
 * queue names and states, each a short fixed list (README "Metrics" lists them).
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  ackLatency: Histogram<'kind' | 'command'>;
  registrarRequests: Counter<'operation' | 'status'>;
  jobDuration: Histogram<'queue' | 'outcome'>;
  jobRetries: Counter<'queue'>;
  assistantWait: Histogram;
  approvals: Counter<'state'>;
  /** Whose completed jobs measure `assistantWait`. */
  assistantQueue: string | undefined;
  /** Queues whose depth `/metrics` reports, read from Redis at scrape time. */
  watchQueues(queues: readonly Queue[]): void;
}

/** The states an operator watches: a growing `waiting` or `failed` is the signal to scale or look. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

export interface MetricsQueues {
  /** The queue that follows pending DNSSEC transitions and certificate orders (`regdesk_followers`). */
  followQueue?: string;
  /** The assistant's question queue (`regdesk_assistant_wait_seconds`). */
  assistantQueue?: string;
}

export function createMetrics(names: MetricsQueues = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'regdesk_' });
  const watched = new Map<string, Queue>();
  const depth = new QueueDepth(watched);

  // Depth is read from Redis, so every process (web or worker) reports the same shared queues; reads
  // are kept for a few seconds, so scrapes (several Prometheus servers, a dashboard refresh) cost at
  // most one round trip per queue per interval, not per scrape.
  new Gauge({
    name: 'regdesk_queue_jobs',
    help: 'Jobs in each queue by state, read from Redis when scraped',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [name, counts] of await depth.read()) {
        // With Redis down the depth is unknown: left out, so the rest of /metrics still answers.
        if (counts === undefined) continue;
        for (const state of QUEUE_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'regdesk_followers',
    help: 'Pending DNSSEC transitions and certificate orders being followed (waiting, active or delayed)',
    registers: [registry],
    async collect() {
      if (names.followQueue === undefined || !watched.has(names.followQueue)) return;
      this.reset();
      const counts = (await depth.read()).get(names.followQueue);
      if (counts === undefined) return;
      this.set((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0));
    },
  });

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
    approvals: new Counter({
      name: 'regdesk_approvals_total',
      help: 'Approval requests that entered each state',
      labelNames: ['state'],
      registers: [registry],
    }),
    assistantQueue: names.assistantQueue,
    watchQueues(queues) {
      for (const queue of queues) watched.set(queue.name, queue);
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

/** Maps an audit action of an approval request to the state it moved the request into. */
export const APPROVAL_STATE_OF_ACTION: Readonly<Record<string, string>> = {
  request: 'pending',
  approve: 'approved',
  deny: 'denied',
  withdraw: 'withdrawn',
  expire: 'expired',
  execute: 'executing',
  succeed: 'succeeded',
  fail: 'failed',
};

/** A scrape must not wait out a Redis outage: a count not read within `ms` is left out. */
/** How long a read of the queues' depth is reused by later scrapes. */
export const QUEUE_DEPTH_TTL_MS = 5_000;

/** The watched queues' job counts, read at most once per `QUEUE_DEPTH_TTL_MS` (concurrent scrapes share it). */
class QueueDepth {
  #read: { at: number; counts: Promise<Map<string, Record<string, number> | undefined>> } | undefined;

  constructor(private readonly queues: ReadonlyMap<string, Queue>) {}

  read(): Promise<Map<string, Record<string, number> | undefined>> {
    const now = Date.now();
    if (this.#read === undefined || now - this.#read.at >= QUEUE_DEPTH_TTL_MS) {
      this.#read = { at: now, counts: this.#fetch() };
    }
    return this.#read.counts;
  }

  async #fetch(): Promise<Map<string, Record<string, number> | undefined>> {
    const entries = await Promise.all(
      [...this.queues.values()].map(
        async (queue) => [queue.name, await withDeadline(queue.getJobCounts(...QUEUE_STATES))] as const,
      ),
    );
    return new Map(entries);
  }
}

function withDeadline<T>(promise: Promise<T>, ms = 2_000): Promise<T | undefined> {
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref()),
  ]);
}
