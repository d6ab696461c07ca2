import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import type { SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { SensitiveOperation } from './operations.js';
import type { NewRequest } from './service.js';
import type { ApprovalRequest } from './store.js';

export interface RequestInput<Op extends SensitiveOperation<never>> {
  workspace: WorkspaceRef;
  user: string;
  channel: string;
  operation: Op;
  params: ReturnType<Op['parse']>;
}

/** Whatever can take a request for `Op`: the approval service, when `Op` is registered with it. */
export interface Requests<Op extends SensitiveOperation<never>> {
  request(input: NewRequest<Op>, client: WebClient): Promise<ApprovalRequest>;
}

/**
 * Turn a sensitive command into an approval request and tell the requester where it is. Runs after
 * the ack (the preview reads the registrar). `reply` is the requester-only channel (response_url or
 * an ephemeral post).
 */
export async function requestApproval<Op extends SensitiveOperation<never>>(
  service: Requests<Op>,
  input: RequestInput<Op>,
  client: WebClient,
  reply: (text: string) => Promise<unknown>,
  logger: Logger,
): Promise<void> {
  try {
    const request = await service.request(
      {
        workspace: input.workspace,
        requester: input.user,
        channel: input.channel,
        operation: input.operation,
        params: input.params,
      },
      client,
    );
    await reply(
      `:lock: Approval requested in <#${request.channel}>: another approver has to approve before anything happens. ` +
        `You can withdraw it there. (\`${request.id}\`)`,
    );
  } catch (error) {
    await reply(replyForError(error, logger).text);
  }
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
    { workspace: workspaceOf(body), user: body.user_id, channel: body.channel_id, operation, params },
    ctx.bolt.client,
    (text) => ctx.respond({ response_type: 'ephemeral', text }),
    ctx.logger,
  );
}
