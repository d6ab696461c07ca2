import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { onAction, onView } from '../../slack/handlers.js';
import { readMetadata, stateOf, writeMetadata } from '../../slack/modal.js';
import { workspaceOf } from '../../slack/workspace.js';
import { denyModal } from './blocks.js';
import { APPROVAL_IDS } from './ids.js';
import type { ApprovalDecisions } from './service.js';

/** What the deny modal carries through Slack: the request, and the channel the presser is told in. */
const DenyMetadata = z.object({ requestId: z.string(), channel: z.string() });

/**
 * Approve, Deny and Withdraw buttons. Each acks first (docs/requirements.md R1), then decides from the
 * stored request and the signed payload's user and workspace; the button value is only the request
 * id (R10). Refusals go to the presser alone.
 */
export function registerApprovalActions(app: App, service: ApprovalDecisions, logger: Logger): void {
  const tellPresser = async (client: WebClient, channel: string | undefined, user: string, text?: string) => {
    if (text === undefined || channel === undefined || channel === '') return;
    await client.chat.postEphemeral({ channel, user, text });
  };

  // Approve and Withdraw decide at once; whatever the presser should hear comes back as text.
  const decide = (actionId: string, run: ApprovalDecisions['approve']) =>
    onAction<BlockAction<ButtonAction>>(app, actionId, logger, async ({ body, action, client }) => {
      const reply = await run.call(service, workspaceOf(body), action.value ?? '', body.user.id, client);
      await tellPresser(client, body.channel?.id, body.user.id, reply);
    });
  decide(APPROVAL_IDS.approve, service.approve);
  decide(APPROVAL_IDS.withdraw, service.withdraw);

  // Deny asks for a reason: the modal must open within 3 s of the trigger (docs/requirements.md R2),
  // so opening it is the listener's only I/O; the decision is taken when the modal is submitted.
  onAction<BlockAction<ButtonAction>>(app, APPROVAL_IDS.deny, logger, async ({ body, action, client }) => {
    const metadata = writeMetadata(DenyMetadata, {
      requestId: action.value ?? '',
      channel: body.channel?.id ?? '',
    });
    await client.views.open({ trigger_id: body.trigger_id, view: denyModal(metadata, 'this request') });
  });

  onView(app, APPROVAL_IDS.denyModal, logger, async ({ body, view, client }) => {
    const reason = stateOf(view.state.values, APPROVAL_IDS.denyReasonBlock).value?.trim() ?? '';
    if (reason === '') {
      return {
        answer: {
          response_action: 'errors',
          errors: { [APPROVAL_IDS.denyReasonBlock]: 'Give the requester a reason.' },
        },
      };
    }
    const { requestId, channel } = readMetadata(DenyMetadata, view.private_metadata);
    return {
      after: async () => {
        let reply: string | undefined;
        try {
          reply = await service.deny(workspaceOf(body), requestId, body.user.id, reason, client);
        } catch (error) {
          // Told where refusals are told (ephemeral in the request's channel), not by DM.
          reply = replyForError(error, logger).text;
        }
        await tellPresser(client, channel, body.user.id, reply);
      },
    };
  });
}
