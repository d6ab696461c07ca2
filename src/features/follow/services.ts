import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { FOLLOW_QUEUE, type Follower, type FollowJob, follow, type Origin } from './jobs.js';

export interface FollowServiceDeps extends BaseDeps {
  /** Every feature's "is it settled?" check (features/index.ts FOLLOWERS). */
  followers: readonly Follower[];
}

export interface FollowServices {
  followQueue: Queue<FollowJob>;
  followers: readonly Follower[];
  /** Starts following a resource with the follower of its kind. */
  follow(workspace: WorkspaceRef, kind: string, resource: string, origin: Origin): Promise<void>;
}

export function buildFollowServices(deps: FollowServiceDeps): FollowServices {
  const followQueue = createQueue<FollowJob>(FOLLOW_QUEUE, deps.redis, deps.keys, deps.logger);
  const followers = new Map(deps.followers.map((follower) => [follower.kind, follower]));
  return {
    followQueue,
    followers: deps.followers,
    follow: async (workspace, kind, resource, origin) => {
      const follower = followers.get(kind);
      if (follower === undefined) throw new Error(`nothing follows ${kind}`);
      await follow(followQueue, follower, workspace, resource, origin, deps.now());
    },
  };
}
