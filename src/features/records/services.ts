import type { KeySpace, Redis } from '../../shared/redis.js';
import { RecordCapability } from './capability.js';
import { RecordChanges } from './changes.js';

export interface RecordServices {
  /** Each change made, with the zone's records before it (Revert reads them). */
  recordChanges: RecordChanges;
  /** Whether the registrar offers record changes through its API, as last seen. */
  recordCapability: RecordCapability;
}

export function buildRecordServices({ redis, keys }: { redis: Redis; keys: KeySpace }): RecordServices {
  return {
    recordChanges: new RecordChanges(redis, keys),
    recordCapability: new RecordCapability(redis, keys),
  };
}
