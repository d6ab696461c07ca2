import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ApprovalJob } from '../approvals/jobs.js';
import type { ApprovalRequest } from '../approvals/record.js';
import type { ApprovalStore } from '../approvals/store.js';
import type { AuditLog } from '../audit/service.js';
import type { FollowJob } from '../follow/jobs.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { McpStore } from '../mcp/store.js';
import type { Roles } from '../policy/permissions.js';
import type { WatchService } from '../watches/service.js';
import { HomeRefresh } from './refresh.js';
import { runningJobsOf } from './running.js';
import { HomeService } from './service.js';

export interface HomeServiceFactoryDeps extends BaseDeps {
  workspaceKeys: WorkspaceKeys;
  approvalStore: ApprovalStore;
  audit: AuditLog;
  roles: Roles;
  watches: WatchService;
  approvalQueue: Queue<ApprovalJob>;
  followQueue: Queue<FollowJob>;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  languages: Pick<Languages, 'ofPerson'>;
}

export interface HomeServices {
  home: HomeService;
  /** Coalesced re-publishing after watch changes. */
  homeRefresh: HomeRefresh;
  runningJobs(workspace: WorkspaceRef): Promise<string[]>;
  /** Pending approvals are on App Home: whoever a change concerns, or has Home open, sees it there. */
  approvalChanged(request: Pick<ApprovalRequest, 'workspace' | 'requester'>): Promise<void>;
}

export function buildHomeServices(deps: HomeServiceFactoryDeps): HomeServices {
  const { redis, keys, logger } = deps;
  const runningJobs = runningJobsOf(deps.approvalQueue, deps.followQueue);
  const home = new HomeService({
    workspaceKeys: deps.workspaceKeys,
    approvalStore: deps.approvalStore,
    audit: deps.audit,
    roles: deps.roles,
    runningJobs,
    redis,
    keys,
    now: deps.now,
    watches: deps.watches,
    languages: deps.languages,
    agents: { agents: new McpStore(redis, keys, deps.now), roles: deps.roles, audit: deps.audit },
  });
  // Watch changes re-publish Home coalesced: a sweep may change hundreds of items.
  const homeRefresh = new HomeRefresh({
    redis,
    keys,
    logger,
    publish: async (workspace) => home.republish(await deps.slackFor(workspace), workspace, [], logger),
  });
  return {
    home,
    homeRefresh,
    runningJobs,
    approvalChanged: async (request) => {
      const client = await deps.slackFor(request.workspace);
      await home.republish(client, request.workspace, [request.requester], logger);
    },
  };
}
