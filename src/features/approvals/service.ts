import type { WebClient } from '@slack/web-api';
import { AppError } from '../../shared/app-error.js';
import type { Limiter } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { type AuditLog, hashParams } from '../audit/service.js';
import { approvalMessage } from './blocks.js';
import { executeApproved, type Follow } from './execution.js';
import type { OperationContext, Preview, SensitiveOperation } from './operations.js';
import type { PolicyStore, Roles } from './policy.js';
import { type ApprovalRequest, ApprovalStore } from './store.js';
import { RequestUpdates } from './updates.js';

/** Schedules the follow-up jobs of a request; the BullMQ side lives in jobs.ts. */
export interface ApprovalScheduler {
  execute(request: ApprovalRequest): Promise<void>;
  expireAt(request: ApprovalRequest): Promise<void>;
}

export interface ApprovalDeps<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>> {
  store: ApprovalStore;
  policies: PolicyStore;
  roles: Roles;
  audit: AuditLog;
  limiter: Limiter;
  poster: ChannelPoster;
  /** Every registered sensitive operation (the one list in features/operations.ts). */
  operations: readonly Op[];
  /** What an operation runs with: the workspace's registrar client and the services operations need. */
  contextFor: (workspace: WorkspaceRef) => Ctx;
  scheduler: ApprovalScheduler;
  /** Starts following pending work an execution left behind (DNSSEC transitions). */
  follow?: Follow;
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
}

/** The decisions on stored requests, as buttons and jobs make them; they need no operation types. */
export interface ApprovalDecisions {
  approve(workspace: WorkspaceRef, id: string, user: string, client: WebClient): Promise<string | undefined>;
  deny(
    workspace: WorkspaceRef,
    id: string,
    user: string,
    reason: string,
    client: WebClient,
  ): Promise<string | undefined>;
  withdraw(workspace: WorkspaceRef, id: string, user: string, client: WebClient): Promise<string | undefined>;
  expire(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void>;
  execute(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void>;
}

/** A refusal the person pressing or asking should read (ephemeral). */
export class ApprovalRefused extends AppError {
  constructor(message: string) {
    super('regdesk_approval_refused', message);
  }
}

/**
 * Two-person control for sensitive actions (NIST SP 800-53 AC-3(2); R8–R12): request →
 * approvals by others → one execution, each step an atomic transition in Redis, audited, and shown
 * by updating the one public request message.
 */
export class ApprovalService<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>
  implements ApprovalDecisions
{
  readonly #byName: ReadonlyMap<string, Op>;
  readonly #updates: RequestUpdates;

  constructor(private readonly deps: ApprovalDeps<Ctx, Op>) {
    this.#byName = new Map(deps.operations.map((operation) => [operation.name, operation]));
    this.#updates = new RequestUpdates(deps);
  }

  /** A stored request names its operation; an unknown name can only come from an older deployment. */
  #operation(name: string): Op {
    const operation = this.#byName.get(name);
    if (operation === undefined) throw new Error(`unknown sensitive operation ${name}`);
    return operation;
  }

  async request<O extends Op>(input: NewRequest<O>, client: WebClient): Promise<ApprovalRequest> {
    const { deps } = this;
    const policy = await deps.policies.get(input.workspace);
    if (!(await deps.roles.canRequest(client, policy, input.requester))) {
      throw new ApprovalRefused(
        "You are not allowed to request sensitive actions in this workspace's policy.",
      );
    }
    const operation = this.#operation(input.operation.name);
    const params = operation.parse(input.params);
    const context = deps.contextFor(input.workspace);
    // docs/requirements.md R14: a spent quota refuses the request before anyone is asked to approve it.
    const quota = await deps.limiter.peek(operation.quota(context, params));
    if (!quota.ok) {
      throw new ApprovalRefused(
        `The registrar's limit for this action is used up; try again in ${Math.ceil(quota.retryAfterMs / 60_000)} minute(s).`,
      );
    }
    const preview: Preview = await operation.preview(context, params);
    if (preview.blocker !== undefined) throw new ApprovalRefused(preview.blocker);

    const now = deps.now();
    const request = await deps.store.create({
      id: ApprovalStore.newId(),
      workspace: input.workspace,
      operation: operation.name,
      params,
      paramsHash: hashParams(params),
      target: operation.target(params),
      summary: operation.summary(params),
      details: preview.details,
      requester: input.requester,
      channel: policy.approvalsChannel ?? input.channel,
      messageTs: '',
      createdAt: now,
      expiresAt: now + policy.expiryHours * 60 * 60 * 1000,
      needed: policy.needed,
    });
    const message = approvalMessage(request);
    const ts = await deps.poster.post(client, { channel: request.channel, ...message });
    await deps.store.setMessage(input.workspace, request.id, request.channel, ts);
    await deps.scheduler.expireAt(request);
    await this.#updates.audit(request, 'request', input.requester);
    return { ...request, messageTs: ts };
  }

  /** Approve; returns what the presser should be told (ephemeral), or nothing when the message says it. */
  async approve(
    workspace: WorkspaceRef,
    id: string,
    user: string,
    client: WebClient,
  ): Promise<string | undefined> {
    const { deps } = this;
    const request = await deps.store.get(workspace, id);
    if (request === undefined) return 'This approval request no longer exists.';
    // The approver's role is checked again at the moment of the press (docs/requirements.md R8).
    const policy = await deps.policies.get(workspace);
    if (user !== request.requester && !(await deps.roles.canApprove(client, policy, user))) {
      return ":lock: You are not an approver for sensitive actions in this workspace's policy.";
    }
    const result = await deps.store.approve(workspace, id, user, deps.now());
    switch (result.kind) {
      case 'self':
        return 'You cannot approve your own request; another approver has to.';
      case 'duplicate':
        return 'You have already approved this request.';
      case 'missing':
        return 'This approval request no longer exists.';
      case 'not_pending':
        return `This request is already ${result.state}.`;
      case 'expired':
        await this.expire(workspace, id, client);
        return 'This request has expired; nothing was done.';
      case 'recorded':
        await this.#updates.decided(request, 'approve', user, client);
        return undefined;
      case 'approved':
        await this.#updates.decided(request, 'approve', user, client);
        await deps.scheduler.execute(request);
        return undefined;
    }
  }

  async deny(
    workspace: WorkspaceRef,
    id: string,
    user: string,
    reason: string,
    client: WebClient,
  ): Promise<string | undefined> {
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return 'This approval request no longer exists.';
    const policy = await this.deps.policies.get(workspace);
    if (!(await this.deps.roles.canApprove(client, policy, user))) {
      return ':lock: Only approvers can deny a request. The requester can withdraw it.';
    }
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'denied', {
      decidedBy: user,
      reason,
    });
    if (moved === undefined)
      return `This request is already ${(await this.deps.store.get(workspace, id))?.state ?? 'gone'}.`;
    await this.#updates.decided(request, 'deny', user, client, {
      outcome: reason,
      tell: `Your request to ${request.summary} was denied by <@${user}>.`,
    });
    return undefined;
  }

  async withdraw(
    workspace: WorkspaceRef,
    id: string,
    user: string,
    client: WebClient,
  ): Promise<string | undefined> {
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return 'This approval request no longer exists.';
    if (request.requester !== user) return 'Only the person who asked can withdraw a request.';
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'withdrawn', {
      decidedBy: user,
    });
    if (moved === undefined)
      return `This request is already ${(await this.deps.store.get(workspace, id))?.state ?? 'gone'}.`;
    await this.#updates.decided(request, 'withdraw', user, client);
    return undefined;
  }

  /** Runs from the delayed expiry job; a request decided meanwhile is left alone. */
  async expire(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'expired');
    if (moved === undefined) return;
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return;
    await this.#updates.decided(request, 'expire', 'regdesk', client);
  }

  /** Runs from the execution job (see `executeApproved`). */
  async execute(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    await executeApproved(
      {
        ...this.deps,
        updates: this.#updates,
        operation: (name) => this.#operation(name),
      },
      workspace,
      id,
      client,
    );
  }
}
