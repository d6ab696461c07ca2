import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import { createQueue } from '../../shared/queues.js';
import { PUBLISH_QUEUE, type PublishJob } from './jobs.js';
import { PublishedRecords } from './store.js';
import { ValidationLedger } from './validation-ledger.js';

export interface PublishServices {
  /** The validation records of the orders and reissues Regdesk placed. */
  validations: ValidationLedger;
  /** The record ids Regdesk itself wrote, the only ones it ever removes. */
  published: PublishedRecords;
  publishQueue: Queue<PublishJob>;
}

export function buildPublishServices({ redis, keys, logger }: BaseDeps): PublishServices {
  return {
    validations: new ValidationLedger(redis, keys),
    published: new PublishedRecords(redis, keys),
    publishQueue: createQueue<PublishJob>(PUBLISH_QUEUE, redis, keys, logger),
  };
}
