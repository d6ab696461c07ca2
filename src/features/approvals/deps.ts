import type { ClaimDurability } from '../../shared/durable-claim.js';
import type { DataIntegrity } from '../../shared/integrity.js';
import type { Limiter } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import type { Follow } from './execution.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import type { ApprovalRequest } from './record.js';
import type { RequestStash } from './stash.js';
import type { ApprovalStore } from './store.js';

/** What the approval service is built from (service.ts), and what opening a request needs (requesting.ts). */

/** Schedules the follow-up jobs of a request; the BullMQ side lives in jobs.ts. */
export interface ApprovalScheduler {
  /** Expiry and the approvers' reminder: delayed jobs that do nothing once the request is decided or gone. */
  schedule(request: ApprovalRequest): Promise<void>;
  /** Takes both back, for a request rolled back before it was shown. */
  cancel(request: ApprovalRequest): Promise<void>;
  execute(request: ApprovalRequest): Promise<void>;
}

export interface ApprovalDeps<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>> {
  store: ApprovalStore;
  /** Requests waiting for their requester's reason or Break glass (stash.ts). */
  stash: RequestStash;
  policies: PolicyStore;
  roles: Roles;
  audit: AuditLog;
  limiter: Limiter;
  poster: ChannelPoster;
  /** The requester's and each approver's language for their DMs, the workspace's for the channel's message. */
  languages: Pick<Languages, 'ofPerson' | 'inWorkspaceLanguage'>;
  /** Where an executed auth code waits, sealed, for its requester (docs/requirements.md R28). */
  vault: Pick<Vault, 'putExpiring' | 'getExpiring'>;
  /** Every registered sensitive operation (the one list in features/operations.ts). */
  operations: readonly Op[];
  /** What an operation runs with: the workspace's registrar client and the services operations need. */
  contextFor: (workspace: WorkspaceRef) => Ctx;
  scheduler: ApprovalScheduler;
  /** Starts following pending work an execution left behind (DNSSEC transitions). */
  follow?: Follow;
  /** Called best-effort after every transition (request, approve, deny, withdraw, expire, finish). */
  onChange?: (request: ApprovalRequest) => Promise<void>;
  /** Checks Regdesk's data for loss or rollback and gives the current approval epoch (R39, R40). */
  integrity: Pick<DataIntegrity, 'check'>;
  /** Makes an execution's claim durable before the registrar is called (R40). */
  durability: Pick<ClaimDurability, 'confirm' | 'claimedHere'>;
  logger: Logger;
  now: () => number;
}

export interface NewRequest<Op extends SensitiveOperation<never>> {
  workspace: WorkspaceRef;
  requester: string;
  channel: string;
  /** The operation itself: a request for an operation that is not registered does not compile. */
  operation: Op;
  params: ReturnType<Op['parse']>;
  /** Why the requester asks: required where the policy says `reason: required` (≥ 10 characters). */
  justification?: string;
  /** Made during a freeze anyway (contract §3 "Policy"): one approval more, one from an admin or owner. */
  breakGlass?: boolean;
  /** Needs an approval even where the class says 0 (publishing for someone else's order). */
  alwaysAsk?: boolean;
  /** The policy lets this one through without approval; it is a request only to break a freeze's glass. */
  exempt?: boolean;
}
