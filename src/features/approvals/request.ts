import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import { type Person, replyPrivately } from '../../slack/reply.js';
import type { SubcommandContext } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { Roles } from '../policy/permissions.js';
import type { Policy, PolicyStore } from '../policy/policy.js';
import { policyFor, type Rules } from '../policy/rules.js';
import type { NewRequest } from './deps.js';
import { breakGlassOffer, reasonModal, reasonPrompt } from './detour-blocks.js';
import type { SensitiveOperation } from './operations.js';
import type { ApprovalRequest } from './record.js';
import { FrozenRefusal, frozenRefusal, ReasonNeeded } from './refusals.js';
import type { StashedRequest } from './stash.js';

export interface RequestInput<Op extends SensitiveOperation<never>>
  extends Pick<NewRequest<Op>, 'justification' | 'breakGlass' | 'alwaysAsk' | 'exempt'> {
  workspace: WorkspaceRef;
  user: string;
  channel: string;
  operation: Op;
  params: ReturnType<Op['parse']>;
  /** The command's or press's trigger: the reason modal opens with it while it is fresh. */
  trigger?: string;
}

/** Whatever can take a request for `Op`: the approval service, when `Op` is registered with it. */
export interface Requests<Op extends SensitiveOperation<never>> {
  request(input: NewRequest<Op>, client: WebClient): Promise<ApprovalRequest>;
  /** Keeps a request not made yet while its requester gives a reason or breaks a freeze's glass. */
  stash(workspace: WorkspaceRef, request: StashedRequest): Promise<string>;
}

function stashed<Op extends SensitiveOperation<never>>(
  input: RequestInput<Op>,
  breakGlass: boolean,
): StashedRequest {
  return {
    requester: input.user,
    channel: input.channel,
    operation: input.operation.name,
    params: input.params as Record<string, unknown>,
    summary: input.operation.summary(input.params),
    breakGlass,
    alwaysAsk: input.alwaysAsk === true,
    exempt: input.exempt === true,
  };
}

/**
 * The policy asks why (contract §3 "Policy"): the reason modal, opened with the trigger while it is
 * fresh, else a private message with a button that opens it (its press brings a new trigger).
 */
async function askReason<Op extends SensitiveOperation<never>>(
  service: Requests<Op>,
  input: RequestInput<Op>,
  requester: Person,
  logger: Logger,
): Promise<void> {
  const request = stashed(input, input.breakGlass === true);
  const id = await service.stash(input.workspace, request);
  if (input.trigger !== undefined) {
    try {
      await openModal(requester.client, input.trigger, reasonModal(id, request.summary));
      return;
    } catch (error) {
      // A trigger lives 3 s: past that (a slow policy or Slack read) the button asks instead.
      logger.info({ err: error instanceof Error ? error.message : String(error) }, 'reason modal not opened');
    }
  }
  await replyPrivately(requester, reasonPrompt(id, request.summary), logger);
}

/** A frozen class: the refusal, with Break glass, which makes the request anyway (contract §3 "Policy"). */
async function offerBreakGlass<Op extends SensitiveOperation<never>>(
  service: Requests<Op>,
  input: RequestInput<Op>,
  refusal: FrozenRefusal,
  requester: Person,
  logger: Logger,
): Promise<void> {
  const id = await service.stash(input.workspace, stashed(input, true));
  await replyPrivately(requester, breakGlassOffer(id, refusal.userMessage, refusal.freeze.name), logger);
}

/**
 * Turn a sensitive command into an approval request and tell the requester where it is. Runs after
 * the ack (the preview reads the registrar). The requester hears back privately, wherever they are
 * (slack/reply.ts).
 */
export async function requestApproval<Op extends SensitiveOperation<never>>(
  service: Requests<Op>,
  input: RequestInput<Op>,
  requester: Person,
  logger: Logger,
): Promise<void> {
  const reply = (said: string) => replyPrivately(requester, { text: said }, logger);
  try {
    const request = await service.request(
      {
        workspace: input.workspace,
        requester: input.user,
        channel: input.channel,
        operation: input.operation,
        params: input.params,
        ...(input.justification === undefined ? {} : { justification: input.justification }),
        ...(input.breakGlass === undefined ? {} : { breakGlass: input.breakGlass }),
        ...(input.alwaysAsk === undefined ? {} : { alwaysAsk: input.alwaysAsk }),
        ...(input.exempt === undefined ? {} : { exempt: input.exempt }),
      },
      requester.client,
    );
    await reply(text.approvals.requested({ channel: request.channel, id: request.id }));
  } catch (error) {
    if (error instanceof ReasonNeeded) await askReason(service, input, requester, logger);
    else if (error instanceof FrozenRefusal && input.breakGlass !== true)
      await offerBreakGlass(service, input, error, requester, logger);
    else await reply(replyForError(error, logger).text);
  }
}

/** What `requestUnlessExempt` asks: the policy, the permission model and the approval service. */
export interface ExemptionDeps<Op extends SensitiveOperation<never>> {
  policies: Pick<PolicyStore, 'read'>;
  now: () => number;
  roles: Pick<Roles, 'require'>;
  approvals: Requests<Op>;
  logger: Logger;
}

/**
 * An action the policy may let happen without approval (orders, record changes, publishing): an
 * approval request unless `exempt` says the policy lets this one through, in which case the person's
 * permission is checked here (the request would check it otherwise, R33) and `run` does it at once.
 * Unreadable, the policy is the strictest one, which exempts nothing: a request, which refuses (R41).
 * `requested` when it became a request; the requester has been told where.
 */
export async function requestUnlessExempt<Op extends SensitiveOperation<never>, T>(
  deps: ExemptionDeps<Op>,
  input: RequestInput<Op>,
  requester: Person,
  exempt: (rules: Rules, policy: Policy) => boolean,
  run: () => Promise<T>,
): Promise<T | 'requested'> {
  const read = await deps.policies.read(input.workspace);
  const target = input.operation.target(input.params);
  const { rules, freeze } = policyFor(read.policy, input.operation.actionClass, target, deps.now());
  if (!exempt(rules, read.policy)) {
    await requestApproval(deps.approvals, input, requester, deps.logger);
    return 'requested';
  }
  await deps.roles.require(requester.client, input.workspace, input.user, input.operation.permission, {
    policy: read,
    operation: input.operation.name,
    target,
  });
  // Frozen, it is refused like a request would be, with Break glass (contract §3 "Policy", freezes):
  // that makes it a request needing one approval.
  if (freeze !== undefined) {
    await offerBreakGlass(
      deps.approvals,
      { ...input, exempt: true },
      frozenRefusal(freeze),
      requester,
      deps.logger,
    );
    return 'requested';
  }
  return run();
}

/** A sensitive slash command: ack at once, then post the approval request (the preview reads the registrar). */
export async function requestFromCommand<Op extends SensitiveOperation<never>>(
  ctx: SubcommandContext,
  service: Requests<Op>,
  operation: Op,
  params: ReturnType<Op['parse']>,
): Promise<void> {
  await ctx.ack();
  const body = ctx.bolt.body;
  await requestApproval(
    service,
    {
      workspace: workspaceOf(body),
      user: body.user_id,
      channel: body.channel_id,
      operation,
      params,
      trigger: body.trigger_id,
    },
    { user: body.user_id, client: ctx.bolt.client, respond: ctx.respond },
    ctx.logger,
  );
}

/**
 * A sensitive action submitted in a modal opened from `channel`: the request is made after the ack
 * (docs/requirements.md R1), so this returns the work for `onView`'s `after`.
 */
export function requestFromView<Op extends SensitiveOperation<never>>(
  service: Requests<Op>,
  submission: { body: { user: { id: string }; trigger_id?: string }; client: WebClient },
  channel: string,
  operation: Op,
  params: ReturnType<Op['parse']>,
  logger: Logger,
): () => Promise<void> {
  const { body, client } = submission;
  const user = body.user.id;
  return () =>
    requestApproval(
      service,
      {
        workspace: workspaceOf(body),
        user,
        channel,
        operation,
        params,
        ...(body.trigger_id === undefined ? {} : { trigger: body.trigger_id }),
      },
      { user, client, channel },
      logger,
    );
}
