import type { Queue } from 'bullmq';
import type { RegistrarClient } from '../../registrar/index.js';
import type { BaseDeps } from '../../shared/deps.js';
import type { ClaimDurability } from '../../shared/durable-claim.js';
import type { DataIntegrity } from '../../shared/integrity.js';
import type { Limiter } from '../../shared/limiter.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';
import { type Approvals, type OperationEnv, SENSITIVE_OPERATIONS } from '../operations.js';
import type { PolicyServices } from '../policy/services.js';
import type { Follow } from './execution.js';
import { APPROVALS_QUEUE, type ApprovalJob, approvalScheduler } from './jobs.js';
import type { RegistrarContext } from './operations.js';
import type { ApprovalRequest } from './record.js';
import { ApprovalService } from './service.js';
import { RequestStash } from './stash.js';
import { ApprovalStore } from './store.js';

export interface ApprovalServiceFactoryDeps extends BaseDeps, PolicyServices {
  audit: AuditLog;
  limiter: Limiter;
  poster: ChannelPoster;
  vault: Vault;
  integrity: DataIntegrity;
  durability: ClaimDurability;
  /** What an operation runs with: the registrar of its workspace, and the stores of the features. */
  operationEnv: Omit<OperationEnv, keyof RegistrarContext> & {
    registrarFor(workspace: WorkspaceRef): RegistrarClient;
  };
  follow: Follow;
  /** Called best-effort after every transition (App Home re-publishes). */
  onChange: (request: ApprovalRequest) => Promise<void>;
}

export interface ApprovalServices {
  approvalStore: ApprovalStore;
  approvalQueue: Queue<ApprovalJob>;
  approvals: Approvals;
}

export function buildApprovalServices(deps: ApprovalServiceFactoryDeps): ApprovalServices {
  const { redis, keys, logger, now, audit, policies, roles, languages } = deps;
  const approvalStore = new ApprovalStore(redis, keys);
  const approvalQueue = createQueue<ApprovalJob>(APPROVALS_QUEUE, redis, keys, logger);
  const { registrarFor, ...stores } = deps.operationEnv;
  const contextFor = (workspace: WorkspaceRef): OperationEnv => ({
    ...stores,
    workspace,
    registrar: registrarFor(workspace),
    now: now(),
  });
  const approvals: Approvals = new ApprovalService({
    store: approvalStore,
    stash: new RequestStash(redis, keys),
    integrity: deps.integrity,
    durability: deps.durability,
    policies,
    roles,
    audit,
    limiter: deps.limiter,
    poster: deps.poster,
    languages,
    vault: deps.vault,
    operations: SENSITIVE_OPERATIONS,
    contextFor,
    scheduler: approvalScheduler(approvalQueue, now),
    follow: deps.follow,
    onChange: deps.onChange,
    logger,
    now,
  });
  return { approvalStore, approvalQueue, approvals };
}
