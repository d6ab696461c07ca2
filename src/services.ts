import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { Config } from './config.js';
import { APPROVALS_QUEUE, type ApprovalJob, approvalScheduler } from './features/approvals/jobs.js';
import { Roles } from './features/approvals/permissions.js';
import { PolicyStore } from './features/approvals/policy.js';
import { ApprovalService } from './features/approvals/service.js';
import { ApprovalStore } from './features/approvals/store.js';
import { ASSISTANT_QUEUE, type AssistantJob, AssistantService } from './features/assistant/service.js';
import { AuditLog } from './features/audit/service.js';
import { VanitySets } from './features/domains/vanity.js';
import { FOLLOW_QUEUE, type Follower, type FollowJob, follow, type Origin } from './features/follow/jobs.js';
import { HomeRefresh } from './features/home/refresh.js';
import { HomeService } from './features/home/service.js';
import { type KeyAdminCheck, type KeyCheck, WorkspaceKeys } from './features/keys/service.js';
import { type Approvals, type OperationEnv, SENSITIVE_OPERATIONS } from './features/operations.js';
import { RenewalLedger } from './features/tls/renewals.js';
import { WATCH_QUEUE, type WatchJob } from './features/watches/jobs.js';
import { WatchService } from './features/watches/service.js';
import { WatchStore } from './features/watches/store.js';
import {
  createRegistrarClient,
  ForbiddenError,
  NotFoundError,
  type RegistrarClient,
  UnauthorizedError,
} from './registrar/index.js';
import { ClaimDurability } from './shared/durable-claim.js';
import { DataIntegrity } from './shared/integrity.js';
import { Limiter } from './shared/limiter.js';
import type { Logger } from './shared/logger.js';
import { APPROVAL_STATE_OF_ACTION, type Metrics } from './shared/metrics.js';
import { createQueue } from './shared/queues.js';
import type { KeySpace, Redis } from './shared/redis.js';
import type { WorkspaceRef } from './shared/workspace.js';
import { webClientOptions } from './slack/app.js';
import { SlackClients } from './slack/clients.js';
import type { LookupAccess } from './slack/lookup.js';
import { ChannelPoster } from './slack/poster.js';
import { ShareableCards } from './slack/share.js';
import { SlackDirectory } from './slack/users.js';
import { masterKey } from './vault/crypto.js';
import { Vault } from './vault/store.js';

export interface Registrar {
  baseUrl: string;
  /** The sandbox's demo key, used by workspaces without a key of their own (sandbox mode only). */
  sandboxKey?: string | undefined;
}

export interface ServiceDeps {
  config: Config;
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  metrics: Metrics;
  registrar: Registrar;
  now?: () => number;
  /** Every feature's "is it settled?" check (features/index.ts FOLLOWERS). */
  followers: readonly Follower[];
}

/**
 * The services of one process, built once by the composition root. Features never import this: each
 * declares the narrow part it uses (its `Deps` in its index.ts) and is handed this object.
 */
export interface Services {
  config: Config;
  limits: Config['limits'];
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  now: () => number;
  vault: Vault;
  audit: AuditLog;
  workspaceKeys: WorkspaceKeys;
  isKeyAdmin: KeyAdminCheck;
  limiter: Limiter;
  poster: ChannelPoster;
  shareable: ShareableCards;
  slackClients: SlackClients;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /** Whether a person may read with the workspace's key (the permission model's `lookup`). */
  mayLookUp: LookupAccess;
  /** Slack users and user groups, cached 60 s across processes. */
  directory: SlackDirectory;
  policies: PolicyStore;
  /** Who may do what: the one permission model every feature asks (features/approvals/permissions.ts). */
  roles: Roles;
  vanitySets: VanitySets;
  approvalStore: ApprovalStore;
  approvals: Approvals;
  approvalQueue: Queue<ApprovalJob>;
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  followQueue: Queue<FollowJob>;
  followers: readonly Follower[];
  follow(workspace: WorkspaceRef, kind: string, resource: string, origin: Origin): Promise<void>;
  runningJobs(workspace: WorkspaceRef): Promise<string[]>;
  home: HomeService;
  /** Certificate orders Regdesk placed, written by the tls feature, read by watches. */
  renewals: RenewalLedger;
  /** Watched domains and certificates, their digest settings and schedulers (features/watches). */
  watches: WatchService;
  watchStore: WatchStore;
  watchQueue: Queue<WatchJob>;
  /** Notices Regdesk's data vanishing or going back in time (docs/requirements.md R39); started by main. */
  integrity: DataIntegrity;
  /** Makes approval claims durable before the registrar is called (R40). */
  durability: ClaimDurability;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  close(): Promise<void>;
}

/** The registrar timeout on the request path: a hanging registrar must not hold a Slack request. */
const REGISTRAR_TIMEOUT_MS = 10_000;

export function buildServices(deps: ServiceDeps): Services {
  const { config, redis, keys, logger, metrics } = deps;
  const now = deps.now ?? Date.now;
  const current = config.vault.masterKey ?? ephemeralKey(logger);
  const previous = config.vault.previousMasterKey;
  const vault = new Vault(
    redis,
    keys,
    masterKey(current),
    previous === undefined ? undefined : masterKey(previous, 'VAULT_MASTER_KEY_PREVIOUS'),
    now,
    // Processes must agree on key fingerprints (they name quota windows and the assistant's account
    // queue). With a temporary sealing key each process has its own, so in that sandbox-only case
    // fingerprints use a fixed key: they then protect nothing, and the sandbox's keys are demo keys.
    config.vault.masterKey === undefined ? masterKey(SANDBOX_FINGERPRINT_KEY) : undefined,
  );
  // Each approval transition is audited exactly once, so the audit is where approvals are counted.
  const audit = new AuditLog(redis, keys, config.auditRetention, (entry) => {
    const state = APPROVAL_STATE_OF_ACTION[entry.action];
    if (entry.requestId !== undefined && state !== undefined) metrics.approvals.inc({ state });
    // docs/requirements.md R40: the trail is also in the log, which outlives a Redis that loses or
    // rolls back its data. Entries hold ids and hashes only, never a secret (R12).
    logger.info({ audit: entry }, 'audit');
  });
  const onRequest = (info: { operation: string; status: number }) =>
    metrics.registrarRequests.inc({ operation: info.operation, status: String(info.status) });

  const client = (apiKey: string | (() => Promise<string>)) =>
    createRegistrarClient({
      baseUrl: deps.registrar.baseUrl,
      apiKey,
      timeoutMs: REGISTRAR_TIMEOUT_MS,
      logger,
      onRequest,
    });

  // A key is checked with a read that answers 401 for a bad key and costs no limited quota:
  // fetching an organization id that cannot exist (404 means the key was accepted).
  const checkKey: KeyCheck = async (apiKey) => {
    try {
      await client(apiKey).organizations.get(`regdesk-key-check-${randomBytes(4).toString('hex')}`);
      return { ok: true };
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof ForbiddenError) return { ok: true };
      if (error instanceof UnauthorizedError)
        return { ok: false, reason: 'The registrar rejected this key (401 Unauthorized).' };
      return {
        ok: false,
        reason: 'The registrar could not be reached to check the key; try again in a moment.',
      };
    }
  };
  const workspaceKeys = new WorkspaceKeys(vault, audit, checkKey, deps.registrar.sandboxKey);
  const registrarFor = (workspace: WorkspaceRef) => client(() => workspaceKeys.apiKeyFor(workspace));

  const limiter = new Limiter(redis);
  const poster = new ChannelPoster(limiter, keys, redis, logger);
  const slackClients = new SlackClients(config.slack, webClientOptions(config.slack.apiUrl, logger), vault, {
    redis,
    keys,
  });
  const policies = new PolicyStore(redis, keys, logger, now);
  const directory = new SlackDirectory(redis, keys);
  const roles = new Roles(directory, policies, audit, logger);
  const approvalStore = new ApprovalStore(redis, keys);
  const approvalQueue = createQueue<ApprovalJob>(APPROVALS_QUEUE, redis, keys, logger);
  const assistantQueue = createQueue<AssistantJob>(ASSISTANT_QUEUE, redis, keys, logger);
  const followQueue = createQueue<FollowJob>(FOLLOW_QUEUE, redis, keys, logger);
  const watchQueue = createQueue<WatchJob>(WATCH_QUEUE, redis, keys, logger);
  const watchStore = new WatchStore(redis, keys);
  const watches = new WatchService({
    store: watchStore,
    queue: watchQueue,
    intervalMs: config.watch.intervalMs,
    limit: config.watch.limit,
    now,
    logger,
    // homeRefresh is built below; nothing calls this before buildServices returns.
    onChange: (workspace) => homeRefresh.request(workspace),
  });
  const followers = new Map(deps.followers.map((follower) => [follower.kind, follower]));
  const followResource = async (workspace: WorkspaceRef, kind: string, resource: string, origin: Origin) => {
    const follower = followers.get(kind);
    if (follower === undefined) throw new Error(`nothing follows ${kind}`);
    await follow(followQueue, follower, workspace, resource, origin, now());
  };
  const vanitySets = new VanitySets(redis, keys);
  const contextFor = (workspace: WorkspaceRef): OperationEnv => ({
    workspace,
    registrar: registrarFor(workspace),
    now: now(),
    limits: config.limits,
    redis,
    keys,
    vanitySets,
  });
  const runningJobs = async (workspace: WorkspaceRef): Promise<string[]> => {
    const executing = (await approvalQueue.getJobs(['active', 'waiting']))
      .filter((job) => job.data.teamId === workspace.teamId && job.name === 'execute')
      .map((job) => `:gear: Executing approved request \`${job.data.requestId}\``);
    const following = (await followQueue.getJobs(['active', 'waiting', 'delayed'], 0, 200))
      .filter((job) => job.data.teamId === workspace.teamId)
      .map(
        (job) =>
          `:hourglass_flowing_sand: Following ${job.data.kind === 'dnssec' ? 'DNSSEC of' : 'certificate'} \`${job.data.resource}\` (check ${job.data.attempt + 1})`,
      );
    return [...executing, ...following];
  };
  const home = new HomeService({
    workspaceKeys,
    approvalStore,
    audit,
    roles,
    runningJobs,
    redis,
    keys,
    now,
    watches,
  });
  // Watch changes re-publish Home coalesced: a sweep may change hundreds of items.
  const homeRefresh = new HomeRefresh({
    redis,
    keys,
    logger,
    publish: async (workspace) =>
      home.republish(await slackClients.forWorkspace(workspace), workspace, [], logger),
  });
  const integrity = new DataIntegrity(redis, keys, {
    logger,
    now,
    intervalMs: config.integrityIntervalMs,
    repair: () => watches.restoreSchedules(),
  });
  const durability = new ClaimDurability(redis, join(config.dataDir, 'claims'), logger);
  const approvals: Approvals = new ApprovalService({
    store: approvalStore,
    integrity,
    durability,
    policies,
    roles,
    audit,
    limiter,
    poster,
    vault,
    operations: SENSITIVE_OPERATIONS,
    contextFor,
    scheduler: approvalScheduler(approvalQueue, now),
    follow: followResource,
    // Pending approvals are on App Home: whoever a change concerns, or has Home open, sees it there.
    onChange: async (request) => {
      const client = await slackClients.forWorkspace(request.workspace);
      await home.republish(client, request.workspace, [request.requester], logger);
    },
    logger,
    now,
  });
  return {
    config,
    limits: config.limits,
    redis,
    keys,
    logger,
    now,
    vault,
    audit,
    workspaceKeys,
    isKeyAdmin: (client, workspace, user) => roles.isAdmin(client, workspace, user),
    limiter,
    poster,
    shareable: new ShareableCards(redis, keys),
    slackClients,
    slackFor: (workspace) => slackClients.forWorkspace(workspace),
    mayLookUp: (client, workspace, user, about) => roles.check(client, workspace, user, 'lookup', about),
    directory,
    policies,
    roles,
    vanitySets,
    approvalStore,
    approvals,
    approvalQueue,
    assistantQueue,
    followQueue,
    followers: deps.followers,
    follow: followResource,
    runningJobs,
    home,
    renewals: new RenewalLedger(redis, keys),
    watches,
    watchStore,
    watchQueue,
    integrity,
    durability,
    assistant: new AssistantService(redis, keys, assistantQueue, workspaceKeys, now),
    registrarFor,
    close: async () => {
      integrity.stop();
      await durability.close();
      homeRefresh.close();
      await approvalQueue.close();
      await assistantQueue.close();
      await followQueue.close();
      await watchQueue.close();
    },
  };
}

/** Sandbox mode without VAULT_MASTER_KEY: a key for this process only, so nothing survives a restart. */
const SANDBOX_FINGERPRINT_KEY = createHash('sha256').update('regdesk sandbox fingerprints').digest();

function ephemeralKey(logger: Logger): Buffer {
  logger.warn(
    'VAULT_MASTER_KEY is not set: secrets stored now are sealed with a temporary key and lost on restart',
  );
  return randomBytes(32);
}
