/**
 * The parts of BullMQ Regdesk runs on, each loaded from its own module: BullMQ's index also loads its
 * Worker, FlowProducer, QueueEvents and sandboxed-processor pool, about 3 MB resident that a `web`
 * process, which only enqueues, never uses (issue #17, idle memory; docs/architecture.md
 * "Memory"). The Worker is loaded when a process first makes one.
 *
 * These are BullMQ's CommonJS modules, the same ones `import 'bullmq'` gives under Node (its `main`),
 * so a class from here and one from the package index are one class. Types come from `bullmq`.
 */
import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';

const require = createRequire(import.meta.url);

export const Queue = (require('bullmq/dist/cjs/classes/queue.js') as typeof BullMQ).Queue;
export const DelayedError = (require('bullmq/dist/cjs/classes/errors/delayed-error.js') as typeof BullMQ)
  .DelayedError;
export const defaultRepeatStrategy = (require('bullmq/dist/cjs/classes/job-scheduler.js') as typeof BullMQ)
  .defaultRepeatStrategy;

/** BullMQ's Worker class, loaded on first use: only processes that run jobs need it. */
export function workerClass(): typeof BullMQ.Worker {
  return (require('bullmq/dist/cjs/classes/worker.js') as typeof BullMQ).Worker;
}
