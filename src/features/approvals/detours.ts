import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from '../../shared/logger.js';
import { onAction, onView, presser } from '../../slack/handlers.js';
import { stateOf } from '../../slack/modal.js';
import { replyPrivately } from '../../slack/reply.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { reasonModal } from './detour-blocks.js';
import { APPROVAL_IDS } from './ids.js';
import { MIN_REASON_LENGTH } from './refusals.js';
import type { ApprovalDecisions } from './service.js';

/**
 * The ways to a request that the policy sends round (contract §3 "Policy"): a reason given in a modal
 * before the request exists, and Break glass during a freeze. Buttons and the modal carry only the
 * stash id (stash.ts); the stash answers its own requester alone.
 */
export function registerRequestDetours(app: App, service: ApprovalDecisions, logger: Logger): void {
  // The modal opens within the trigger's 3 s (docs/requirements.md R2): one Redis read before it.
  onAction<BlockAction<ButtonAction>>(app, APPROVAL_IDS.giveReason, logger, async (args) => {
    const { body, action, client } = args;
    const stashId = action.value ?? '';
    const summary = await service.stashedSummary(workspaceOf(body), body.user.id, stashId);
    if (summary === undefined) {
      await replyPrivately(presser(args), { text: text.approvals.reasonStashGone }, logger);
      return;
    }
    await openModal(client, body.trigger_id, reasonModal(stashId, summary));
  });

  // Break glass makes the request now; a required reason is then asked with this press's trigger.
  onAction<BlockAction<ButtonAction>>(app, APPROVAL_IDS.breakGlass, logger, async (args) => {
    const { body, action } = args;
    const requester = {
      ...presser(args),
      ...(body.channel?.id === undefined ? {} : { channel: body.channel.id }),
    };
    await service.resume(
      workspaceOf(body),
      action.value ?? '',
      { breakGlass: true },
      requester,
      body.trigger_id,
    );
  });

  onView(app, APPROVAL_IDS.reasonModal, logger, async ({ body, view, client }) => {
    const reason = stateOf(view.state.values, APPROVAL_IDS.reasonBlock).value?.trim() ?? '';
    // Slack enforces min_length in its clients; a submission that did not pass it is answered alike.
    if (reason.length < MIN_REASON_LENGTH) {
      return {
        answer: {
          response_action: 'errors',
          errors: { [APPROVAL_IDS.reasonBlock]: text.approvals.reasonTooShort({ min: MIN_REASON_LENGTH }) },
        },
      };
    }
    const user = body.user.id;
    return {
      after: () =>
        service.resume(workspaceOf(body), view.private_metadata, { justification: reason }, { user, client }),
    };
  });
}
