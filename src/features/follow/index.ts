import { createWorker } from '../../shared/queues.js';
import type { FeatureModule } from '../feature.js';
import { FOLLOW_QUEUE } from './jobs.js';
import { type FollowDeps, followProcessor } from './processor.js';

/** What the processor needs, but the logger: each worker brings its own. */
export type FollowingDeps = Omit<FollowDeps, 'logger'>;

/** Pending work (certificates, DNSSEC transitions, record changes reaching the nameservers) followed by delayed jobs until it settles. */
export const followingFeature = {
  name: 'following',
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      createWorker(FOLLOW_QUEUE, followProcessor({ ...deps, logger }), connection, keys, logger),
  ],
} satisfies FeatureModule<FollowingDeps>;
