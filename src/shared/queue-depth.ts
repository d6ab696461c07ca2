import type { Queue } from 'bullmq';

/** The states an operator watches: a growing `waiting` or `failed` is the signal to scale or look. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** How long a read of the queues' depth is reused by later scrapes. */
export const QUEUE_DEPTH_TTL_MS = 5_000;

/** One queue as read at scrape time; `undefined` where Redis did not answer in time. */
export interface QueueReading {
  counts: Record<string, number>;
  /** Seconds the oldest job ready to run has been waiting for a worker; 0 with none waiting. */
  oldestWaitingSeconds: number;
}

/**
 * The watched queues' job counts and oldest waiting job, read at most once per `QUEUE_DEPTH_TTL_MS`
 * (concurrent scrapes share the read): a scrape costs two round trips per queue per interval, never
 * one per series or per scraper.
 */
export class QueueDepth {
  #read: { at: number; readings: Promise<Map<string, QueueReading | undefined>> } | undefined;

  constructor(
    private readonly queues: ReadonlyMap<string, Queue>,
    private readonly now: () => number = Date.now,
  ) {}

  read(): Promise<Map<string, QueueReading | undefined>> {
    const now = this.now();
    if (this.#read === undefined || now - this.#read.at >= QUEUE_DEPTH_TTL_MS) {
      this.#read = { at: now, readings: this.#fetch() };
    }
    return this.#read.readings;
  }

  async #fetch(): Promise<Map<string, QueueReading | undefined>> {
    const entries = await Promise.all(
      [...this.queues.values()].map(
        async (queue) => [queue.name, await withDeadline(this.#one(queue))] as const,
      ),
    );
    return new Map(entries);
  }

  async #one(queue: Queue): Promise<QueueReading> {
    const [counts, oldest] = await Promise.all([
      queue.getJobCounts(...QUEUE_STATES),
      // Ascending: the job that has waited longest first (BullMQ `getJobs(types, start, end, asc)`).
      queue.getJobs(['waiting'], 0, 0, true),
    ]);
    const job = oldest[0];
    // A delayed job becomes ready at its timestamp plus its delay: its wait for a worker starts then.
    const readyAt = job === undefined ? undefined : job.timestamp + (job.delay ?? 0);
    return {
      counts,
      oldestWaitingSeconds: readyAt === undefined ? 0 : Math.max(0, this.now() - readyAt) / 1000,
    };
  }
}

/** A scrape must not wait out a Redis outage: a queue not read within `ms` is left out. */
function withDeadline<T>(promise: Promise<T>, ms = 2_000): Promise<T | undefined> {
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref()),
  ]);
}
