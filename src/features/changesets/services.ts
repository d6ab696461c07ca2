import type { Queue } from 'bullmq';
import type { Logger } from '../../shared/logger.js';
import { createQueue } from '../../shared/queues.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { CHANGESETS_QUEUE, type ChangeSetJob, ChangeSets } from './store.js';

export interface ChangeSetServices {
  /** Change sets being applied and applied (what a Revert reads). */
  changeSets: ChangeSets;
  changeSetQueue: Queue<ChangeSetJob>;
}

export function buildChangeSetServices(deps: {
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
}): ChangeSetServices {
  const changeSetQueue = createQueue<ChangeSetJob>(CHANGESETS_QUEUE, deps.redis, deps.keys, deps.logger);
  return { changeSets: new ChangeSets(deps.redis, deps.keys, changeSetQueue), changeSetQueue };
}
