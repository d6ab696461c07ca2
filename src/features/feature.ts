import type { App } from '@slack/bolt';
import type { WorkerFactory } from '../shared/queues.js';
import type { SlackDeps } from '../slack/app.js';
import type { SensitiveOperation } from './approvals/operations.js';
import type { Follower } from './follow/jobs.js';

/**
 * A feature as the table of contents (features/index.ts) lists it: everything it adds to Regdesk,
 * declared in its own folder. `Deps` is the feature's narrow view of the services: the composition
 * root hands every feature the same services, and each sees only what it declares. Declare a module
 * with `satisfies FeatureModule<Deps>` so its operations keep their own types.
 */
export interface FeatureModule<Deps> {
  readonly name: string;
  /** Its commands, actions, views and events. */
  readonly register?: (app: App, deps: Deps & SlackDeps) => void;
  /** Its queue workers. */
  readonly workers?: (deps: Deps) => WorkerFactory[];
  /** Its sensitive operations: each needs approval, and approvals accept only these. */
  readonly operations?: readonly SensitiveOperation<never>[];
  /** Its "is it settled?" checks for pending work it asks to have followed. */
  readonly followers?: readonly Follower[];
}
