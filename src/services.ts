import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Config } from './config.js';
import { APPROVALS_QUEUE, type ApprovalJob, approvalScheduler } from './features/approvals/jobs.js';
import type { SensitiveOperation } from './features/approvals/operations.js';
import { PolicyStore, Roles } from './features/approvals/policy.js';
import { ApprovalService } from './features/approvals/service.js';
import { ApprovalStore } from './features/approvals/store.js';
import { ASSISTANT_QUEUE, type AssistantJob, AssistantService } from './features/assistant/service.js';
import { AuditLog } from './features/audit/service.js';
import {
  FOLLOW_QUEUE,
  type FollowJob,
  type FollowKind,
  follow,
  type Origin,
} from './features/follow/jobs.js';
import { type KeyCheck, WorkspaceKeys } from './features/keys/service.js';
import { ShareableCards } from './features/share.js';
import {
  createRegistrarClient,
  ForbiddenError,
  NotFoundError,
  type RegistrarClient,
  UnauthorizedError,
} from './registrar/index.js';
import { Limiter } from './shared/limiter.js';
import type { Logger } from './shared/logger.js';
import type { Metrics } from './shared/metrics.js';
import { createQueue } from './shared/queues.js';
import type { KeySpace, Redis } from './shared/redis.js';
import { webClientOptions } from './slack/app.js';
import { SlackClients } from './slack/clients.js';
import { ChannelPoster } from './slack/poster.js';
import { masterKey } from './vault/crypto.js';
import { Vault, type WorkspaceRef } from './vault/store.js';

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
  operations?: (services: Omit<Services, 'approvals'>) => SensitiveOperation<RegistrarClient>[];
}

export interface Services {
  config: Config;
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  now: () => number;
  vault: Vault;
  audit: AuditLog;
  workspaceKeys: WorkspaceKeys;
  limiter: Limiter;
  poster: ChannelPoster;
  shareable: ShareableCards;
  slackClients: SlackClients;
  policies: PolicyStore;
  roles: Roles;
  approvalStore: ApprovalStore;
  approvals: ApprovalService<RegistrarClient>;
  approvalQueue: Queue<ApprovalJob>;
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  followQueue: Queue<FollowJob>;
  follow(workspace: WorkspaceRef, kind: FollowKind, resource: string, origin: Origin): Promise<void>;
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
  );
  const audit = new AuditLog(redis, keys, config.auditRetention);
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
  const poster = new ChannelPoster(limiter, keys);
  const slackClients = new SlackClients(config.slack, webClientOptions(config.slack.apiUrl, logger), vault);
  const policies = new PolicyStore(redis, keys);
  const roles = new Roles(logger);
  const approvalStore = new ApprovalStore(redis, keys);
  const approvalQueue = createQueue<ApprovalJob>(APPROVALS_QUEUE, redis, keys, logger);
  const assistantQueue = createQueue<AssistantJob>(ASSISTANT_QUEUE, redis, keys, logger);
  const followQueue = createQueue<FollowJob>(FOLLOW_QUEUE, redis, keys, logger);
  const followResource = async (
    workspace: WorkspaceRef,
    kind: FollowKind,
    resource: string,
    origin: Origin,
  ) => {
    await follow(followQueue, workspace, kind, resource, origin, now());
  };
  const partial = {
    config,
    redis,
    keys,
    logger,
    now,
    vault,
    audit,
    workspaceKeys,
    limiter,
    poster,
    shareable: new ShareableCards(redis, keys),
    slackClients,
    policies,
    roles,
    approvalStore,
    approvalQueue,
    assistantQueue,
    followQueue,
    follow: followResource,
    assistant: new AssistantService(redis, keys, assistantQueue, workspaceKeys, poster, now),
    registrarFor,
    close: async () => {
      await approvalQueue.close();
      await assistantQueue.close();
      await followQueue.close();
    },
  };
  const operations = deps.operations?.(partial) ?? [];
  const approvals = new ApprovalService<RegistrarClient>({
    store: approvalStore,
    policies,
    roles,
    audit,
    limiter,
    poster,
    operations: new Map(operations.map((operation) => [operation.name, operation])),
    registrarFor,
    scheduler: approvalScheduler(approvalQueue, now),
    follow: followResource,
    logger,
    now,
  });
  return { ...partial, approvals };
}

/** Sandbox mode without VAULT_MASTER_KEY: a key for this process only, so nothing survives a restart. */
function ephemeralKey(logger: Logger): Buffer {
  logger.warn(
    'VAULT_MASTER_KEY is not set: secrets stored now are sealed with a temporary key and lost on restart',
  );
  return randomBytes(32);
}
