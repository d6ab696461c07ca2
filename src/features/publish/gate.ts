import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Submitter } from '../../slack/modal-flow.js';
import { frozenRefusal } from '../approvals/refusals.js';
import { type Requests, requestApproval } from '../approvals/request.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { policyFor } from '../policy/rules.js';
import { publishValidation } from './operations.js';
import { planFor } from './plan.js';
import { type PublishDeps, type PublishOutcome, publishRecords } from './service.js';

export interface PublishGateDeps extends PublishDeps {
  policies: PolicyStore;
  roles: Pick<Roles, 'require'>;
  approvals: Requests<typeof publishValidation>;
  logger: Logger;
}

/** Who publishes, where, and the thread the follow-up reports in. */
export type Publisher = Submitter & { threadTs?: string };

/**
 * Publishing by the policy (the `publish` class, R46): at once when the person placed the order
 * (and any reissue of it) through Regdesk and the plan only creates records (the default), else —
 * someone else's order, a reissue by someone other than the orderer,
 * Regdesk's own stale record to replace, or a policy that always asks — as an approval request.
 * `requested` when it became one; the requester has been told where.
 */
export async function publishOrAsk(
  deps: PublishGateDeps,
  workspace: WorkspaceRef,
  certificateId: string,
  who: Publisher,
): Promise<PublishOutcome | { kind: 'requested' }> {
  const known = await deps.validations.recall(workspace, certificateId);
  if (known === undefined) return { kind: 'not-ours' };
  const read = await deps.policies.read(workspace);
  const { rules, freeze } = policyFor(read.policy, publishValidation.actionClass, certificateId, deps.now());
  // Planned only when the policy may let it through; the same plan is then written, not read again.
  const steps =
    rules.approvals === 0 && known.placedBy === who.user && (known.orderedBy ?? known.placedBy) === who.user
      ? await planFor(deps.registrarFor(workspace), known.records, await deps.published.owned(workspace))
      : undefined;
  if (steps === undefined || steps.some((step) => step.action === 'replace')) {
    const input = {
      workspace,
      user: who.user,
      channel: who.channel,
      operation: publishValidation,
      params: { certificateId },
      // Someone else's order, or a stale record to replace: an approval whatever the class says.
      alwaysAsk: true,
    };
    await requestApproval(deps.approvals, input, who, deps.logger);
    return { kind: 'requested' };
  }
  await deps.roles.require(who.client, workspace, who.user, publishValidation.permission, {
    policy: read,
    operation: publishValidation.name,
    target: certificateId,
  });
  if (freeze !== undefined) throw frozenRefusal(freeze);
  return publishRecords(
    deps,
    workspace,
    certificateId,
    {
      channel: who.channel,
      ...(who.threadTs === undefined ? {} : { threadTs: who.threadTs }),
      user: who.user,
    },
    steps,
  );
}
