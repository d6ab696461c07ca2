import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { CannotPostHere, postPublicly } from '../../slack/reply.js';
import { text } from '../../text/index.js';
import { hashParams } from '../audit/service.js';
import type { Policy, PolicyRead } from '../policy/policy.js';
import { policyFor, type Rules } from '../policy/rules.js';
import { approvalMessage } from './blocks.js';
import type { ApprovalDeps, NewRequest } from './deps.js';
import { sendApproverCopies } from './notify.js';
import type { OperationContext, Preview, SensitiveOperation } from './operations.js';
import type { ApprovalRequest, RequestBasis } from './record.js';
import {
  ApprovalRefused,
  approvalsNeeded,
  frozenRefusal,
  MIN_REASON_LENGTH,
  ReasonNeeded,
} from './refusals.js';
import { ApprovalStore, MAX_PENDING_PER_REQUESTER } from './store.js';
import { otherLanguages, rememberingReads } from './translations.js';
import type { RequestUpdates } from './updates.js';

/** Slack's DM ids start with D: a request there would be seen by nobody who could approve it. */
const isDirectMessage = (channel: string) => channel.startsWith('D');

/**
 * Turns a sensitive action into an approval request (R8–R10), checked before anything is stored:
 * the parameters, the requester's role (R33), their pending requests (R34), the quota (R14) and the
 * resource's state (the preview).
 * The request then exists only together with its public message, its delayed jobs and its audit
 * entry (docs/requirements.md R30), and the listed approvers get a copy in their DMs.
 */
export async function openRequest<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  updates: RequestUpdates,
  operation: Op,
  input: NewRequest<Op>,
  client: WebClient,
): Promise<ApprovalRequest> {
  const { workspace, requester } = input;
  const read = await deps.policies.read(workspace);
  const { policy } = read;
  const params = operation.parse(input.params);
  const target = operation.target(params);
  // Who may ask comes before where: a policy that cannot be read refuses here, wherever the request
  // was asked (docs/requirements.md R41), and the refusal is audited.
  const allowed = await deps.roles.check(client, workspace, requester, operation.permission, {
    policy: read,
    operation: operation.name,
    target,
  });
  if (!allowed.allowed) throw new ApprovalRefused(allowed.say);
  // What the policy asks of this class of action, on this zone; a frozen class is refused unless the
  // requester breaks the glass. A freeze over by the time Break glass is pressed is no freeze to break.
  const { rules, freeze } = policyFor(policy, operation.actionClass, target, deps.now());
  if (freeze !== undefined && input.breakGlass !== true) throw frozenRefusal(freeze);
  const breakGlass = freeze !== undefined;
  const justification = (input.justification ?? '').trim();
  if (rules.reason === 'required' && justification.length < MIN_REASON_LENGTH) throw new ReasonNeeded();
  const basis: RequestBasis =
    input.exempt === true ? 'exempt' : input.alwaysAsk === true ? 'always' : 'class';
  // A class at 0 runs at once unless the parameters themselves call for approvals (a large change set).
  const needed = approvalsNeeded(rules, basis, breakGlass) + operation.extraApprovals(params);
  const channel = policy.approvalsChannel ?? input.channel;
  if (isDirectMessage(channel)) {
    throw new ApprovalRefused(() => text.approvals.notInDirectMessage);
  }
  const id = ApprovalStore.newId();
  // docs/requirements.md R34: an identical request still waiting is pointed to, not asked for again.
  const identity = { requester, operation: operation.name, paramsHash: hashParams(params) };
  const waiting = await deps.store.claimIdentical(
    workspace,
    identity,
    id,
    rules.expiryHours * 60 * 60 * 1000,
  );
  if (waiting !== undefined) {
    const pending = await deps.store.get(workspace, waiting);
    throw new ApprovalRefused(() => text.approvals.alreadyAsked({ id: waiting, channel: pending?.channel }));
  }
  // docs/requirements.md R34: refused before the registrar is read or anything is posted.
  if (!(await deps.store.reserve(workspace, requester, id, deps.now()))) {
    await deps.store.releaseIdentical(workspace, identity, id);
    throw new ApprovalRefused(() => text.approvals.tooManyPending({ max: MAX_PENDING_PER_REQUESTER }));
  }
  let request: ApprovalRequest;
  let approvers: Awaited<ReturnType<typeof askWhom<Ctx, Op>>>;
  // What the request shows (its summary, the preview's details, the message itself and the approvers'
  // copies) is for the channel, in the workspace's language; so is a blocker the preview finds.
  const { languages } = deps;
  try {
    approvers = await askWhom(deps, client, workspace, read, requester, rules.approvers);
    const asked = approvers;
    request = await languages.inWorkspaceLanguage(workspace, async () => {
      const { draft, attachment } = await draftRequest(deps, operation, params, {
        id,
        workspace,
        requester,
        channel,
        target,
        policy,
        rules,
        needed,
        justification,
        breakGlass,
        basis,
        askedAdmins: asked.admins,
        namedApprovers: asked.named,
        groups: asked.groups,
      });
      return show(deps, updates, draft, policy, client, attachment);
    });
  } catch (error) {
    await Promise.all([
      deps.store.release(workspace, requester, id),
      deps.store.releaseIdentical(workspace, identity, id),
    ]).catch((err: unknown) => {
      deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'place not released');
    });
    throw error;
  }
  await updates.changed(request);
  const copies = await sendApproverCopies(client, deps.poster, request, approvers.byDm, deps.logger, (user) =>
    languages.ofPerson(client, workspace, user),
  );
  if (copies.length > 0) await deps.store.setCopies(workspace, request.id, copies);
  return request;
}

/**
 * Whom to tell (R8, contract §3): a Slack failure to list the admins must not stop the request, which
 * the channel still shows; it is logged, and nobody is asked by DM.
 */
async function askWhom<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  client: WebClient,
  workspace: WorkspaceRef,
  read: PolicyRead,
  requester: string,
  approvers: readonly string[],
): Promise<{ byDm: string[]; named: string[]; admins: boolean; groups: string[] }> {
  try {
    return await deps.roles.approversToAsk(client, workspace, read, requester, approvers);
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'could not list whom to ask for approval',
    );
    return {
      byDm: [],
      named: [],
      admins: approvers.length === 0,
      groups: approvers.filter((id) => id.startsWith('S')),
    };
  }
}

/** The checks that read the registrar (quota, preview), then the stored draft. */
async function draftRequest<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  operation: Op,
  params: Record<string, unknown>,
  made: {
    id: string;
    workspace: WorkspaceRef;
    requester: string;
    channel: string;
    target: string;
    policy: Policy;
    rules: Rules;
    needed: number;
    justification: string;
    breakGlass: boolean;
    basis: RequestBasis;
    askedAdmins: boolean;
    namedApprovers: string[];
    groups: string[];
  },
): Promise<{ draft: ApprovalRequest; attachment: Preview['attachment'] }> {
  const context = rememberingReads({ ...deps.contextFor(made.workspace), requester: made.requester });
  // docs/requirements.md R14: a spent quota refuses the request before anyone is asked to approve it.
  const quota = await deps.limiter.peek(operation.quota(context, params));
  if (!quota.ok) {
    throw new ApprovalRefused(() =>
      text.approvals.quotaUsedUp({ minutes: Math.ceil(quota.retryAfterMs / 60_000) }),
    );
  }
  const preview = await operation.preview(context, params);
  if (preview.blocker !== undefined) throw new ApprovalRefused(preview.blocker);
  const translations = await otherLanguages(operation, context, params);
  const now = deps.now();
  const draft = await deps.store.create(
    {
      id: made.id,
      workspace: made.workspace,
      operation: operation.name,
      params,
      paramsHash: hashParams(params),
      target: made.target,
      summary: operation.summary(params),
      details: preview.details,
      translations,
      ...(operation.undo === undefined ? {} : { undo: operation.undo }),
      requester: made.requester,
      channel: made.channel,
      approverGroup: made.groups.join(','),
      askedAdmins: made.askedAdmins,
      namedApprovers: made.namedApprovers,
      createdAt: now,
      expiresAt: now + made.rules.expiryHours * 60 * 60 * 1000,
      needed: made.needed,
      justification: made.justification,
      breakGlass: made.breakGlass,
      basis: made.basis,
    },
    // Nobody to wait for: the policy runs it at once, announced by the same message and audited.
    made.needed === 0 ? 'approved' : 'pending',
  );
  return { draft, attachment: preview.attachment };
}

/**
 * Schedules the expiry and reminder (no-ops for a request that is gone), posts the message, records
 * it and audits the request; any failure rolls all of it back, so nothing half-made remains.
 */
async function show<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  updates: RequestUpdates,
  draft: ApprovalRequest,
  policy: Policy,
  client: WebClient,
  attachment: Preview['attachment'],
): Promise<ApprovalRequest> {
  let ts: string | undefined;
  const atOnce = draft.state === 'approved';
  try {
    if (!atOnce) await deps.scheduler.schedule(draft);
    ts = await postPublicly(() =>
      deps.poster.post(client, { channel: draft.channel, ...approvalMessage(draft) }),
    );
    if (!(await deps.store.show(draft, ts))) throw new Error('approval draft expired before it was shown');
    if (attachment !== undefined) await attach(deps, client, draft.channel, ts, attachment);
    await updates.audit(draft, 'request', draft.requester, undefined, draft.justification || undefined);
    if (draft.breakGlass)
      await updates.audit(draft, 'break_glass', draft.requester, undefined, draft.justification || undefined);
    // docs/requirements.md R30: the execution is queued once the request is shown and audited.
    if (atOnce) await deps.scheduler.execute(draft);
    return { ...draft, messageTs: ts };
  } catch (error) {
    await rollBack(deps, draft, ts, client);
    if (error instanceof CannotPostHere && draft.channel === policy.approvalsChannel) {
      throw new ApprovalRefused(() =>
        text.approvals.cannotPostInApprovalsChannel({ channel: draft.channel }),
      );
    }
    throw error;
  }
}

/**
 * What did not fit the message, uploaded into its thread. Best-effort: the message already says what
 * the file holds in its first lines, and a failed upload must not undo a request that is shown.
 */
async function attach<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  client: WebClient,
  channel: string,
  ts: string,
  attachment: NonNullable<Preview['attachment']>,
): Promise<void> {
  try {
    await client.filesUploadV2({
      channel_id: channel,
      thread_ts: ts,
      file: Buffer.from(attachment.content, 'utf8'),
      filename: attachment.filename,
      title: attachment.title,
    });
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'request attachment not uploaded',
    );
  }
}

/** Each step on its own, so one failure (Redis or Slack) does not keep the others from running. */
async function rollBack<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  draft: ApprovalRequest,
  ts: string | undefined,
  client: WebClient,
): Promise<void> {
  const steps: [string, () => Promise<unknown>][] = [
    ['store', () => deps.store.discard(draft)],
    ['jobs', () => deps.scheduler.cancel(draft)],
  ];
  // The message goes first: its buttons must not outlive the request.
  if (ts !== undefined) steps.unshift(['message', () => client.chat.delete({ channel: draft.channel, ts })]);
  for (const [step, run] of steps) {
    try {
      await run();
    } catch (error) {
      deps.logger.warn(
        { requestId: draft.id, step, err: error instanceof Error ? error.message : String(error) },
        'approval request roll-back step failed',
      );
    }
  }
}
