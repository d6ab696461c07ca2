import type { Logger } from './logger.js';
import type { KeySpace, Redis } from './redis.js';

/** What nearly every service is made with: the Redis it keeps state in, its key space, a log and a clock. */
export interface BaseDeps {
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  now: () => number;
}
