import type { RegfishLimits } from '../config.js';
import type { Limiter } from '../shared/limiter.js';
import type { KeySpace } from '../shared/redis.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import type { RegistrarContext, SensitiveOperation } from './approvals/operations.js';
import type { ApprovalService } from './approvals/service.js';
import type { ChangeSetServices } from './changesets/services.js';
import type { DomainServices } from './domains/services.js';
import type { Follower } from './follow/jobs.js';
import { FEATURES } from './index.js';
import type { PublishServices } from './publish/services.js';
import type { RecordServices } from './records/services.js';
import type { TlsServices } from './tls/services.js';

/**
 * What the composition root gives every sensitive operation when it runs: the registrar, and the
 * stores each feature's factory built once (never raw Redis: an operation uses its feature's stores).
 */
export type OperationEnv = RegistrarContext & {
  limits: RegfishLimits;
  /** Names the limiter's quota windows of an operation (`auth code` per domain and account). */
  keys: KeySpace;
} & DomainServices &
  PublishServices &
  Pick<RecordServices, 'recordChanges'> &
  Pick<TlsServices, 'certificateOrders' | 'certificatePreflight'> &
  Pick<ChangeSetServices, 'changeSets'> & {
    /** Paces change sets' registrar calls to the DNS API's window per key (features/changesets/pace.ts). */
    limiter: Limiter;
    workspaceKeys: { keyHashFor(workspace: WorkspaceRef): Promise<string> };
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
