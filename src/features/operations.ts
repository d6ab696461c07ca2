import type { Queue } from 'bullmq';
import type { RegfishLimits } from '../config.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import type { RegistrarContext, SensitiveOperation } from './approvals/operations.js';
import type { ApprovalService } from './approvals/service.js';
import type { VanitySets } from './domains/vanity.js';
import type { Follower } from './follow/jobs.js';
import { FEATURES } from './index.js';
import type { PublishJob } from './publish/jobs.js';

/** What the composition root gives every sensitive operation when it runs. */
export type OperationEnv = RegistrarContext & {
  limits: RegfishLimits;
  /** For operations that keep state of their own (a certificate order's claim on its name). */
  redis: Redis;
  keys: KeySpace;
  vanitySets: VanitySets;
  /** Publishing validation records as an approved request confirms them through this queue. */
  publishQueue: Queue<PublishJob>;
};

/**
 * Every sensitive action (docs/requirements.md R8), each needing approval before it runs, gathered
 * from the features that declare them. Approvals take these objects, so requesting one that no
 * feature declares, or one that needs more than `OperationEnv` gives, is a type error; stored requests
 * name them by `name`.
 */
export const SENSITIVE_OPERATIONS = FEATURES.flatMap<RegisteredOperation>((feature) =>
  'operations' in feature ? feature.operations : [],
) satisfies readonly SensitiveOperation<OperationEnv>[];

type Declared<Feature> = Feature extends { operations: readonly (infer Op)[] } ? Op : never;
export type RegisteredOperation = Declared<(typeof FEATURES)[number]>;
export type OperationName = RegisteredOperation['name'];
export type Approvals = ApprovalService<OperationEnv, RegisteredOperation>;

/** Every feature's "is it settled?" check for the pending work it has followed. */
export const FOLLOWERS = FEATURES.flatMap<Follower>((feature) =>
  'followers' in feature ? feature.followers : [],
);
