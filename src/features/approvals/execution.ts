import type { WebClient } from '@slack/web-api';
import { AppError } from '../../shared/app-error.js';
import type { ClaimDurability } from '../../shared/durable-claim.js';
import type { DataIntegrity } from '../../shared/integrity.js';
import type { Limiter } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { Vault } from '../../vault/store.js';
import { hashParams } from '../audit/service.js';
import { authCodeReadyMessage } from './blocks.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import type { ApprovalRequest } from './record.js';
import type { ApprovalStore } from './store.js';
import type { RequestUpdates } from './updates.js';

/** Starts following pending work an execution left behind (DNSSEC transitions), in the message's thread. */
export type Follow = (
  workspace: WorkspaceRef,
  kind: 'dnssec' | 'certificate' | 'record',
  resource: string,
  origin: { channel: string; threadTs: string; startedBy: string },
) => Promise<void>;

export interface ExecutionDeps<Ctx extends OperationContext> {
  store: ApprovalStore;
  integrity: Pick<DataIntegrity, 'check'>;
  durability: Pick<ClaimDurability, 'confirm' | 'claimedHere'>;
  limiter: Limiter;
  vault: Pick<Vault, 'putExpiring'>;
  updates: RequestUpdates;
  /** The registered operation a stored request names. */
  operation(name: string): SensitiveOperation<Ctx>;
  contextFor(workspace: WorkspaceRef): Ctx;
  follow?: Follow | undefined;
  /**
   * Why the people behind a request may no longer make it happen (the requester or an approver is
   * now a guest, deactivated, external or no longer an approver), or undefined (R33).
   */
  recheck(request: ApprovalRequest, client: WebClient): Promise<string | undefined>;
  logger: Logger;
  now: () => number;
}

/** How long after its request expired an approved execution may still start. */
const LATE_EXECUTION_MS = 60 * 60 * 1000;

/**
 * Runs an approved request, from the execution job. Idempotent under at-least-once delivery
 * (docs/requirements.md R17): only the run that moves approved → executing acts; a re-run after a
 * crash mid-action does not act again but marks the request failed.
 */
export async function executeApproved<Ctx extends OperationContext>(
  deps: ExecutionDeps<Ctx>,
  workspace: WorkspaceRef,
  id: string,
  client: WebClient,
): Promise<void> {
  const { updates } = deps;
  const claim = deps.store.keyOf(workspace, id);
  // docs/requirements.md R40: a claim file means a run on this host claimed the request before, and
  // Redis has since lost that claim; it may have acted, so it does not act again.
  if (deps.durability.claimedHere(claim)) {
    const request = await deps.store.get(workspace, id);
    if (request !== undefined) {
      await updates.finish(request, 'failed', text.approvals.outcomeInterrupted, client, undefined, [
        'approved',
        'executing',
      ]);
    }
    return;
  }
  const claimed = await deps.store.transition(workspace, id, ['approved'], 'executing');
  const request = await deps.store.get(workspace, id);
  if (request === undefined) return;
  if (claimed === undefined) {
    if (request.state === 'executing') {
      await updates.finish(request, 'failed', text.approvals.outcomeInterrupted, client);
    }
    return;
  }
  try {
    // Before anything acts: the claim survives Redis losing its last writes, and the request is no
    // older than Regdesk's data (a rollback re-opens requests that already ran) (R40).
    if (request.epoch < (await deps.integrity.check())) {
      await updates.finish(request, 'failed', text.approvals.staleRequest, client);
      return;
    }
    await deps.durability.confirm(claim);
  } catch (error) {
    await updates.finish(
      request,
      'failed',
      error instanceof AppError ? error.userMessage : text.approvals.outcomeInterrupted,
      client,
    );
    return;
  }
  await updates.audit(request, 'execute', 'regdesk');
  // An approval holds for its request's lifetime: a job that only runs long after that (a worker
  // outage, a backlog) must not act on a decision that has gone stale (docs/requirements.md R10).
  if (deps.now() > request.expiresAt + LATE_EXECUTION_MS) {
    await updates.finish(request, 'failed', text.approvals.outcomeTooLate, client);
    return;
  }
  // Exactly what was approved, and still by people who may (docs/requirements.md R10, R33).
  if (hashParams(request.params) !== request.paramsHash) {
    await updates.finish(request, 'failed', text.approvals.outcomeParamsChanged, client);
    return;
  }
  const refused = await deps.recheck(request, client);
  if (refused !== undefined) {
    await updates.finish(request, 'failed', refused, client);
    return;
  }
  const operation = deps.operation(request.operation);
  const context = {
    ...deps.contextFor(workspace),
    requester: request.requester,
    ...(request.messageTs === '' ? {} : { thread: { channel: request.channel, ts: request.messageTs } }),
  };
  try {
    // The resource is read again: it may have changed while the request waited for approval.
    const stop = await operation.precheck(context, request.params);
    if (stop !== undefined) {
      await updates.finish(request, 'failed', stop, client);
      return;
    }
    // docs/requirements.md R14: the quota peeked at request time is spent only now.
    const quota = await deps.limiter.acquire(operation.quota(context, request.params));
    if (!quota.ok) {
      await updates.finish(request, 'failed', text.approvals.outcomeQuotaSpent, client);
      return;
    }
    const result = await operation.execute(context, request.params);
    if (result.authCode === undefined) {
      await updates.finish(request, 'succeeded', result.outcome, client);
    } else {
      // docs/requirements.md R28: the code is sealed for 24 h and the requester told only that it is
      // ready; it is never part of the outcome, a message, the job or a log.
      await deps.vault.putExpiring(workspace, 'auth-code', request.id, result.authCode.code);
      const { domain } = result.authCode;
      await updates.finish(request, 'succeeded', result.outcome, client, () =>
        authCodeReadyMessage(request, domain),
      );
    }
    const offered =
      result.offer === undefined ? undefined : await updates.inThread(request, result.offer, client);
    if (result.follow !== undefined && deps.follow !== undefined) {
      // The settled card replaces the offer: one card with Revert in the thread, not two.
      await deps.follow(workspace, result.follow.kind, result.follow.resource, {
        channel: request.channel,
        threadTs: request.messageTs,
        startedBy: request.requester,
        ...(offered === undefined ? {} : { cardTs: offered }),
      });
    }
  } catch (error) {
    const reason = error instanceof AppError ? error.userMessage : text.approvals.outcomeUnexpected;
    if (!(error instanceof AppError)) {
      deps.logger.error(
        { requestId: id, err: error instanceof Error ? error.message : String(error) },
        'execution failed',
      );
    }
    await updates.finish(request, 'failed', reason, client);
  }
}
