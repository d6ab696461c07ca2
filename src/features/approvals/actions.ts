import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { onAction, onView } from '../../slack/handlers.js';
import { readMetadata, stateOf, writeMetadata } from '../../slack/modal.js';
import { replyPrivately } from '../../slack/reply.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { denyModal, revealModal } from './blocks.js';
import { APPROVAL_IDS } from './ids.js';
import type { ApprovalDecisions } from './service.js';

/** What the deny modal carries through Slack: the request, and the channel the presser is told in. */
const DenyMetadata = z.lazy(() => z.object({ requestId: z.string(), channel: z.string() }));

/**
 * Approve, Deny, Withdraw and Reveal buttons, in the channel, in an approver's DM or on App Home.
 * Each acks first (docs/requirements.md R1), then decides from the stored request and the signed
 * payload's user and workspace; the button value is only the request id (R10). Whatever the presser
 * should hear goes to them alone: an ephemeral where they pressed, else their DM.
 */
export function registerApprovalActions(app: App, service: ApprovalDecisions, logger: Logger): void {
  const tellPresser = async (
    client: WebClient,
    channel: string | undefined,
    user: string,
    reply?: string,
  ) => {
    if (reply === undefined) return;
    const where = channel === undefined || channel === '' ? {} : { channel };
    await replyPrivately({ user, client, ...where }, { text: reply }, logger);
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
    await openModal(client, body.trigger_id, denyModal(metadata));
  });

  // Reveal reads two Redis keys, then opens the modal within the trigger's 3 s (R2). Only the
  // requester sees the code, and only in the modal (R28); anyone else is refused.
  onAction<BlockAction<ButtonAction>>(app, APPROVAL_IDS.reveal, logger, async ({ body, action, client }) => {
    const revealed = await service.reveal(workspaceOf(body), action.value ?? '', body.user.id);
    if ('refusal' in revealed) {
      await tellPresser(client, body.channel?.id, body.user.id, revealed.refusal);
      return;
    }
    await openModal(client, body.trigger_id, revealModal(revealed.domain, revealed.code));
  });

  onView(app, APPROVAL_IDS.denyModal, logger, async ({ body, view, client }) => {
    const reason = stateOf(view.state.values, APPROVAL_IDS.denyReasonBlock).value?.trim() ?? '';
    if (reason === '') {
      return {
        answer: {
          response_action: 'errors',
          errors: { [APPROVAL_IDS.denyReasonBlock]: text.approvals.denyReasonMissing },
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
          // Told where refusals are told (ephemeral where Deny was pressed), not only by DM.
          reply = replyForError(error, logger).text;
        }
        await tellPresser(client, channel, body.user.id, reply);
      },
    };
  });
}
