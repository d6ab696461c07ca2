import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { WATCH_QUEUE, type WatchJob } from './jobs.js';
import { WatchService } from './service.js';
import { WatchStore } from './store.js';

export interface WatchServiceFactoryDeps extends BaseDeps {
  /** How often each watched item is read again, and how many a workspace may watch. */
  watch: { intervalMs: number; limit: number };
  /** Told of every change to a workspace's watches (App Home re-publishes). */
  onChange: (workspace: WorkspaceRef) => void;
}

export interface WatchServices {
  watches: WatchService;
  watchStore: WatchStore;
  watchQueue: Queue<WatchJob>;
}

export function buildWatchServices(deps: WatchServiceFactoryDeps): WatchServices {
  const watchQueue = createQueue<WatchJob>(WATCH_QUEUE, deps.redis, deps.keys, deps.logger);
  const watchStore = new WatchStore(deps.redis, deps.keys);
  const watches = new WatchService({
    store: watchStore,
    queue: watchQueue,
    intervalMs: deps.watch.intervalMs,
    limit: deps.watch.limit,
    now: deps.now,
    logger: deps.logger,
    onChange: deps.onChange,
  });
  return { watches, watchStore, watchQueue };
}
