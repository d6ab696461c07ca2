import type { WebClient } from '@slack/web-api';
import { slackDate } from '../../slack/blocks.js';
import { text } from '../../text/index.js';
import type { About } from '../policy/permissions.js';
import { policyFor } from '../policy/rules.js';
import type { ApprovalDeps } from './deps.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import type { ApprovalRequest } from './record.js';
import { approvalsNeeded } from './refusals.js';

/** The policy in force now, applied to a request made earlier: at each decision and at execution. */

/**
 * The requester (for what the operation needs: a sensitive action, an order, a reissue) and every
 * approval, checked again against Slack and the policy at execution (R33); the policy in force now
 * wins where it is stricter (contract §3 "Policy"): a freeze of the class stops it, and so does a
 * count of approvals raised since the request was made.
 */
export async function recheckAtExecution<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  operation: Op,
  request: ApprovalRequest,
  client: WebClient,
): Promise<string | undefined> {
  const { roles, policies } = deps;
  const { workspace } = request;
  // A policy that cannot be read refuses the requester here (R41): nothing executes until it is saved again.
  const policy = await policies.read(workspace);
  const { rules, freeze } = policyFor(policy.policy, operation.actionClass, request.target, deps.now());
  // A request that broke the glass was made for the freeze; any other waits for its end.
  if (freeze !== undefined && !request.breakGlass)
    return text.approvals.frozen({ name: freeze.name, until: slackDate(freeze.until) });
  const needed = Math.max(
    request.needed,
    approvalsNeeded(rules, request.basis, request.breakGlass) + operation.extraApprovals(request.params),
  );
  const act = operation.permission;
  const requester = await roles.decide(client, workspace, request.requester, act, policy);
  if (!requester.allowed) return text.approvals.outcomeRequesterNoLonger({ reason: requester.reason });
  const still = await Promise.all(
    request.approvals.map((user) =>
      roles.decide(client, workspace, user, 'approve', policy, rules.approvers),
    ),
  );
  if (still.filter((decision) => decision.allowed).length < needed) {
    return needed > request.needed
      ? text.approvals.outcomeStricterPolicy({ needed })
      : text.approvals.outcomeApproverNoLonger;
  }
  if (request.breakGlass) {
    const admins = await Promise.all(
      request.approvals.map((user) => roles.isWorkspaceAdmin(client, workspace, user)),
    );
    if (!admins.some(Boolean)) return text.approvals.outcomeBreakGlassNoAdmin;
  }
  return undefined;
}

/**
 * What an approval or denial of `request` is checked against: the approvers of its class in the
 * policy in force now (contract §3 "Policy", `actions.<class>.approvers`), with the request's ids for
 * a refusal's audit entry.
 */
export async function approvingAbout<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  operation: Op,
  request: ApprovalRequest,
): Promise<About> {
  const policy = await deps.policies.read(request.workspace);
  const { rules } = policyFor(policy.policy, operation.actionClass, request.target, deps.now());
  return {
    operation: request.operation,
    target: request.target,
    requestId: request.id,
    policy,
    approvers: rules.approvers,
  };
}
