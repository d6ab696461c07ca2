import type { WebClient } from '@slack/web-api';
import type { DnsClient } from '../../dns/client.js';
import type { RegistrarClient } from '../../registrar/index.js';
import { createWorker } from '../../shared/queues.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { FeatureModule } from '../feature.js';
import { FOLLOW_QUEUE, type Follower } from './jobs.js';
import { followProcessor } from './processor.js';

export interface FollowingDeps {
  /** Every feature's "is it settled?" check, by kind. */
  followers: readonly Follower[];
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  dnsClient: DnsClient;
  redis: Redis;
  keys: KeySpace;
  poster: ChannelPoster;
  languages: Languages;
  now: () => number;
}

/** Pending work (certificates, DNSSEC transitions, record changes reaching the nameservers) followed by delayed jobs until it settles. */
export const followingFeature = {
  name: 'following',
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      createWorker(FOLLOW_QUEUE, followProcessor({ ...deps, logger }), connection, keys, logger),
  ],
} satisfies FeatureModule<FollowingDeps>;
