import { z } from 'zod';
import { REVOCATION_REASONS } from '../../registrar/index.js';
import { text } from '../../text/index.js';
import type { ApprovalRequest } from '../approvals/record.js';
import type { Requests } from '../approvals/request.js';
import type { ApprovalStore } from '../approvals/store.js';
import { disableDnssec } from '../dnssec/operations.js';
import { changeNameservers } from '../domains/operations.js';
import type { changeRecord } from '../records/operations.js';
import { revokeCertificate } from '../tls/operations.js';
import { type ToolContext, ToolRefusal } from './guard.js';
import { DomainName, type ToolSpec } from './tool.js';

/**
 * The write tools only ever make the approval request Slack's commands make (approvals/request.ts):
 * the same operation, parameters, policy, freeze and reason rules, posted where Slack's are (the
 * policy's approvals channel, else the channel the agent names). Nothing runs before people approve;
 * the result is the request's id, state and link, never what executing it would return.
 */

type RequestedOperation =
  | typeof revokeCertificate
  | typeof changeNameservers
  | typeof disableDnssec
  | typeof changeRecord;

export interface RequestDeps {
  approvals: Requests<RequestedOperation>;
  approvalStore: Pick<ApprovalStore, 'get'>;
}

export const Channel = z
  .string()
  .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel id (C…)')
  .optional();
export const Justification = z.string().trim().min(1).max(500).optional();

export const RequestAnswer = {
  id: z.string(),
  state: z.string(),
  operation: z.string(),
  target: z.string(),
  needed: z.number(),
  approvals: z.number(),
  channel: z.string(),
  link: z.string(),
  expiresAt: z.string(),
};

/** A request as data: its state, never its outcome's words (an auth code's request never says the code). */
export function requestAnswer(request: ApprovalRequest): Record<string, unknown> {
  return {
    id: request.id,
    state: request.state,
    operation: request.operation,
    target: request.target,
    needed: request.needed,
    approvals: request.approvals.length,
    channel: request.channel,
    // Slack's permalink form (docs.slack.dev "Linking to messages"): slack.com redirects to the workspace.
    link: `https://slack.com/archives/${request.channel}/p${request.messageTs.replace('.', '')}`,
    expiresAt: new Date(request.expiresAt).toISOString(),
  };
}

/** Makes the request as the person, in the policy's channel or the one the agent names. */
export async function makeRequest<Op extends RequestedOperation>(
  deps: RequestDeps,
  ctx: ToolContext,
  operation: Op,
  params: ReturnType<Op['parse']>,
  input: { channel?: string | undefined; justification?: string | undefined },
): Promise<Record<string, unknown>> {
  const channel = ctx.policy.policy.approvalsChannel ?? input.channel;
  if (channel === undefined) throw new ToolRefusal('channel_needed', () => text.mcp.channelNeeded);
  const request = await deps.approvals.request(
    {
      workspace: ctx.workspace,
      requester: ctx.user,
      channel,
      operation,
      params,
      ...(input.justification === undefined ? {} : { justification: input.justification }),
    },
    ctx.slack,
  );
  return requestAnswer(request);
}

export function requestTools(deps: RequestDeps): ToolSpec[] {
  const revoke: ToolSpec<{
    certificateId: z.ZodString;
    reason: z.ZodEnum<{ [K in (typeof REVOCATION_REASONS)[number]]: K }>;
    justification: typeof Justification;
    channel: typeof Channel;
  }> = {
    name: 'request_revoke',
    kind: 'write',
    act: 'request',
    description: () => text.mcp.requestRevokeTool,
    input: {
      certificateId: z.string().min(1).max(200),
      reason: z.enum(REVOCATION_REASONS),
      justification: Justification,
      channel: Channel,
    },
    output: RequestAnswer,
    target: (input) => input.certificateId,
    run: (ctx, input) =>
      makeRequest(
        deps,
        ctx,
        revokeCertificate,
        { certificateId: input.certificateId, reason: input.reason },
        input,
      ),
  };

  const delegation: ToolSpec<{
    domain: typeof DomainName;
    vanitySetId: z.ZodNullable<z.ZodNumber>;
    justification: typeof Justification;
    channel: typeof Channel;
  }> = {
    name: 'request_delegation_change',
    kind: 'write',
    act: 'request',
    description: () => text.mcp.requestDelegationChangeTool,
    input: {
      domain: DomainName,
      vanitySetId: z.number().int().positive().nullable(),
      justification: Justification,
      channel: Channel,
    },
    output: RequestAnswer,
    target: (input) => input.domain,
    run: (ctx, input) =>
      makeRequest(
        deps,
        ctx,
        changeNameservers,
        { domain: input.domain, vanitySetId: input.vanitySetId },
        input,
      ),
  };

  const dnssec: ToolSpec<{
    domain: typeof DomainName;
    change: z.ZodLiteral<'disable'>;
    justification: typeof Justification;
    channel: typeof Channel;
  }> = {
    name: 'request_dnssec_change',
    kind: 'write',
    act: 'request',
    description: () => text.mcp.requestDnssecChangeTool,
    input: {
      domain: DomainName,
      change: z.literal('disable'),
      justification: Justification,
      channel: Channel,
    },
    output: RequestAnswer,
    target: (input) => input.domain,
    run: (ctx, input) => makeRequest(deps, ctx, disableDnssec, { domain: input.domain }, input),
  };

  const status: ToolSpec<{ id: z.ZodString }> = {
    name: 'request_status',
    kind: 'read',
    act: 'view',
    description: () => text.mcp.requestStatusTool,
    input: { id: z.string().regex(/^apr_[0-9a-f]{16}$/, 'a request id (apr_…)') },
    output: RequestAnswer,
    target: (input) => input.id,
    run: async ({ workspace }, { id }) => {
      const request = await deps.approvalStore.get(workspace, id);
      if (request === undefined) throw new ToolRefusal('not_found', () => text.mcp.notFound);
      return requestAnswer(request);
    },
  };

  return [revoke, delegation, dnssec, status] as ToolSpec[];
}
