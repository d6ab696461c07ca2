import type { Job, JobsOptions, Queue, Worker, WorkerOptions } from 'bullmq';
import { Queue as QueueClass, Worker as WorkerClass } from 'bullmq';
import type { Logger } from './logger.js';
import type { KeySpace, Redis } from './redis.js';

/**
 * docs/requirements.md R19: finished jobs are trimmed so Redis does not grow without bound; a failed job is
 * kept longer for operators. Job data never holds a secret, a trigger_id or a response_url.
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  removeOnComplete: { age: 24 * 60 * 60, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 60 * 60, count: 5_000 },
};

export function createQueue<Data>(
  name: string,
  connection: Redis,
  keys: KeySpace,
  logger: Logger,
): Queue<Data> {
  const queue = new QueueClass<Data>(name, {
    connection,
    prefix: keys.queuePrefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
  queue.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'queue error'));
  return queue;
}

export interface WorkerSettings {
  concurrency?: number;
  /**
   * How long a job's lock lives without renewal. A job held by a process that died is taken up again
   * after about this long plus `stalledInterval` (BullMQ's defaults add up to a minute).
   */
  lockDuration?: number;
  stalledInterval?: number;
}

export function createWorker<Data, Result>(
  name: string,
  processor: (job: Job<Data, Result>, token?: string) => Promise<Result>,
  connection: Redis,
  keys: KeySpace,
  logger: Logger,
  settings: WorkerSettings = {},
): Worker<Data, Result> {
  const options: WorkerOptions = {
    connection,
    prefix: keys.queuePrefix,
    concurrency: settings.concurrency ?? 4,
    ...(settings.lockDuration === undefined ? {} : { lockDuration: settings.lockDuration }),
    ...(settings.stalledInterval === undefined ? {} : { stalledInterval: settings.stalledInterval }),
    maxStalledCount: 3,
  };
  const worker = new WorkerClass<Data, Result>(name, processor, options);
  worker.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ queue: name, jobId: job?.id, err: error.message }, 'job failed'),
  );
  return worker;
}

/** A feature's queue worker, created against the worker Redis connection. */
export type WorkerFactory = (deps: { connection: Redis; keys: KeySpace; logger: Logger }) => {
  name: string;
  close(): Promise<void>;
};
