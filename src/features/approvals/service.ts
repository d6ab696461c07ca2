import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { notifyByDm, type Person, replyPrivately } from '../../slack/reply.js';
import { inLanguage, text } from '../../text/index.js';
import { reminderMessage } from './blocks.js';
import type { ApprovalDeps, NewRequest } from './deps.js';
import { escalate } from './escalation.js';
import { executeApproved } from './execution.js';
import { approvingAbout, recheckAtExecution } from './in-force.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import { type ApprovalRequest, wordingOf } from './record.js';
import { requestApproval } from './request.js';
import { openRequest } from './requesting.js';
import type { StashedRequest } from './stash.js';
import { RequestUpdates } from './updates.js';

export type { ApprovalDeps, ApprovalScheduler, NewRequest } from './deps.js';

/** An auth code for its requester's eyes, or why it cannot be shown. */
export type Revealed = { domain: string; code: string } | { refusal: string };

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
  reveal(workspace: WorkspaceRef, id: string, user: string): Promise<Revealed>;
  expire(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void>;
  remind(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void>;
  execute(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void>;
  /** What a stashed request is about (the reason modal shows it); undefined when gone or not theirs. */
  stashedSummary(workspace: WorkspaceRef, user: string, stashId: string): Promise<string | undefined>;
  /** Makes a stashed request, with its reason or its broken glass; the requester hears where. */
  resume(
    workspace: WorkspaceRef,
    stashId: string,
    extra: { justification?: string; breakGlass?: boolean },
    requester: Person,
    trigger?: string,
  ): Promise<void>;
}

/**
 * Two-person control for sensitive actions (NIST SP 800-53 AC-3(2); R8–R12): request →
 * approvals by others → one execution, each step an atomic transition in Redis, audited, and shown
 * by updating the request message and the approvers' copies.
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
    return openRequest(this.deps, this.#updates, this.#operation(input.operation.name), input, client);
  }

  async stash(workspace: WorkspaceRef, request: StashedRequest): Promise<string> {
    return this.deps.stash.put(workspace, request);
  }

  async stashedSummary(workspace: WorkspaceRef, user: string, stashId: string): Promise<string | undefined> {
    return (await this.deps.stash.peek(workspace, user, stashId))?.summary;
  }

  async resume(
    workspace: WorkspaceRef,
    stashId: string,
    extra: { justification?: string; breakGlass?: boolean },
    requester: Person,
    trigger?: string,
  ): Promise<void> {
    const stashed = await this.deps.stash.take(workspace, requester.user, stashId);
    if (stashed === undefined) {
      await replyPrivately(requester, { text: text.approvals.reasonStashGone }, this.deps.logger);
      return;
    }
    const operation = this.#operation(stashed.operation);
    // Answered from a modal, the requester hears back in the request's conversation before their DM.
    const person =
      requester.respond === undefined && requester.channel === undefined
        ? { ...requester, channel: stashed.channel }
        : requester;
    await requestApproval(
      this,
      {
        workspace,
        user: stashed.requester,
        channel: stashed.channel,
        operation,
        // The operation's own schema checks the stashed parameters; TypeScript cannot relate a call
        // through the generic `Op` to `ReturnType<Op['parse']>`.
        params: operation.parse(stashed.params) as ReturnType<Op['parse']>,
        breakGlass: stashed.breakGlass || extra.breakGlass === true,
        alwaysAsk: stashed.alwaysAsk,
        exempt: stashed.exempt,
        ...(extra.justification === undefined ? {} : { justification: extra.justification }),
        ...(trigger === undefined ? {} : { trigger }),
      },
      person,
      this.deps.logger,
    );
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
    if (request === undefined) return text.approvals.requestGone;
    // docs/requirements.md R40: a request from before a detected loss or rollback may have run already.
    if (request.epoch < (await deps.integrity.check())) {
      // The outcome is stored and shown in the channel: in the workspace's language, not the presser's.
      const outcome = await deps.languages.inWorkspaceLanguage(
        workspace,
        async () => text.approvals.staleRequest,
      );
      await this.#updates.finish(request, 'failed', outcome, client, undefined, ['pending', 'approved']);
      return text.approvals.staleNothingDone;
    }
    // The approver's role is checked again at the moment of the press (docs/requirements.md R8, R33);
    // the requester is told below that they cannot approve their own request.
    if (user !== request.requester) {
      const access = await deps.roles.check(
        client,
        workspace,
        user,
        'approve',
        await approvingAbout(this.deps, this.#operation(request.operation), request),
      );
      if (!access.allowed) return text.approvals.refused({ reason: access.reason });
      // A broken glass needs a workspace admin or owner among its approvers: the last place is kept
      // for one (contract §3 "Policy"); the execution checks it again (#recheck).
      if (request.breakGlass && request.approvals.length + 1 >= request.needed) {
        const admins = await Promise.all(
          [user, ...request.approvals].map((person) =>
            deps.roles.isWorkspaceAdmin(client, workspace, person),
          ),
        );
        if (!admins.some(Boolean)) return text.approvals.breakGlassNeedsAdmin;
      }
    }
    const result = await deps.store.approve(workspace, id, user, deps.now());
    switch (result.kind) {
      case 'self':
        return text.approvals.cannotApproveOwn;
      case 'duplicate':
        return text.approvals.alreadyApproved;
      case 'missing':
        return text.approvals.requestGone;
      case 'not_pending':
        // An approval whose execution could not be queued is queued by the next press (same job id).
        if (result.state === 'approved') await deps.scheduler.execute(request);
        return text.approvals.alreadyInState({ state: result.state });
      case 'expired':
        await this.expire(workspace, id, client);
        return text.approvals.expiredNothingDone;
      case 'recorded': {
        await this.#updates.audit(request, 'approve', user);
        const shown = await this.#updates.publish(workspace, id, client);
        return shown ? undefined : text.approvals.approvalRecordedNotShown;
      }
      case 'approved': {
        await this.#updates.audit(request, 'approve', user);
        // docs/requirements.md R30: execution is queued before any message is touched.
        await deps.scheduler.execute(request);
        const shown = await this.#updates.publish(workspace, id, client);
        return shown ? undefined : text.approvals.approvedNotShown;
      }
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
    if (request === undefined) return text.approvals.requestGone;
    const access = await this.deps.roles.check(
      client,
      workspace,
      user,
      'approve',
      await approvingAbout(this.deps, this.#operation(request.operation), request),
    );
    if (!access.allowed) return text.approvals.denyRefused({ reason: access.reason });
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'denied', {
      decidedBy: user,
      reason,
    });
    if (moved === undefined) return this.#already(workspace, id);
    const shown = await this.#updates.decided(request, 'deny', user, client, {
      outcome: reason,
      tell: () => ({
        text: text.approvals.requestDenied({
          summary: escapeMrkdwn(wordingOf(request).summary),
          user,
          reason: escapeMrkdwn(reason),
        }),
      }),
    });
    return shown ? undefined : text.approvals.deniedNotShown;
  }

  async withdraw(
    workspace: WorkspaceRef,
    id: string,
    user: string,
    client: WebClient,
  ): Promise<string | undefined> {
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return text.approvals.requestGone;
    if (request.requester !== user) return text.approvals.onlyRequesterWithdraws;
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'withdrawn', {
      decidedBy: user,
    });
    if (moved === undefined) return this.#already(workspace, id);
    const shown = await this.#updates.decided(request, 'withdraw', user, client, {
      tell: () => ({
        text: text.approvals.requestWithdrawn({ summary: escapeMrkdwn(wordingOf(request).summary) }),
      }),
    });
    return shown ? undefined : text.approvals.withdrawnNotShown;
  }

  /** The auth code of an executed request, for its requester alone (docs/requirements.md R28). */
  async reveal(workspace: WorkspaceRef, id: string, user: string): Promise<Revealed> {
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return { refusal: text.approvals.revealGone };
    if (request.requester !== user) {
      await this.#updates.audit(request, 'refuse', user, text.approvals.revealRefusedAudit);
      return { refusal: text.approvals.revealNotRequester };
    }
    const code = await this.deps.vault.getExpiring(workspace, 'auth-code', id);
    if (code === undefined) {
      return { refusal: text.approvals.revealExpired };
    }
    // Who saw the code, and when (R12); the code itself never enters the trail (R28).
    await this.#updates.audit(request, 'reveal', user);
    return { domain: request.target, code };
  }

  /** Runs from the delayed expiry job; a request decided meanwhile is left alone. */
  async expire(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    const moved = await this.deps.store.transition(workspace, id, ['pending'], 'expired');
    if (moved === undefined) return;
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return;
    await this.#updates.decided(request, 'expire', 'regdesk', client, {
      tell: () => ({
        text: text.approvals.requestExpired({ summary: escapeMrkdwn(wordingOf(request).summary) }),
      }),
    });
  }

  /** Runs from the delayed reminder job: once, to the asked approvers who have not approved yet. */
  async remind(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    if (!(await this.deps.store.claimReminder(workspace, id))) return;
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined) return;
    // Audited (and counted for /metrics: a request about to expire without a decision).
    await this.#updates.audit(request, 'remind', 'regdesk');
    await escalate(this.deps, this.#updates, request, client);
    const waiting = request.copies.filter((copy) => !request.approvals.includes(copy.user));
    await Promise.all(
      waiting.map(async (copy) => {
        // A reminder is for one approver: in their language.
        const locale = await this.deps.languages.ofPerson(client, workspace, copy.user);
        await notifyByDm(
          client,
          copy.user,
          inLanguage(locale, () => reminderMessage(request)),
          this.deps.logger,
        );
      }),
    );
  }

  /** Runs from the execution job (see `executeApproved`). */
  async execute(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    await executeApproved(
      {
        ...this.deps,
        updates: this.#updates,
        operation: (name) => this.#operation(name),
        recheck: (request, slack) =>
          recheckAtExecution(this.deps, this.#operation(request.operation), request, slack),
      },
      workspace,
      id,
      client,
    );
  }

  async #already(workspace: WorkspaceRef, id: string): Promise<string> {
    const state = (await this.deps.store.get(workspace, id))?.state ?? text.approvals.gone;
    return text.approvals.alreadyInState({ state });
  }
}
