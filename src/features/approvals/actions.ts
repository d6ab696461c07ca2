import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { denyModal } from './blocks.js';
import { APPROVAL_IDS } from './ids.js';
import type { ApprovalDecisions } from './service.js';

/**
 * Approve, Deny and Withdraw buttons. Each acks first (docs/requirements.md R1), then decides from the stored
 * request and the signed payload's user and workspace; the button value is only the request id.
 * Refusals go to the presser alone.
 */
export function registerApprovalActions(app: App, service: ApprovalDecisions, logger: Logger): void {
  const tellPresser = async (
    body: BlockAction,
    text: string | undefined,
    client: Parameters<Parameters<App['action']>[1]>[0]['client'],
  ) => {
    if (text === undefined || body.channel?.id === undefined) return;
    await client.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, text });
  };

  // Approve and Withdraw decide at once; whatever the presser should hear comes back as text.
  const decide = (actionId: string, run: typeof service.approve) =>
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      try {
        await tellPresser(
          body,
          await run.call(service, workspaceOf(body), action.value ?? '', body.user.id, client),
          client,
        );
      } catch (error) {
        await tellPresser(body, replyForError(error, logger).text, client);
      }
    });
  decide(APPROVAL_IDS.approve, service.approve);
  decide(APPROVAL_IDS.withdraw, service.withdraw);

  // Deny asks for a reason: the modal must open within 3 s of the trigger (docs/requirements.md R2), so it opens
  // before anything else; the decision is taken when the modal is submitted.
  app.action<BlockAction<ButtonAction>>(APPROVAL_IDS.deny, async ({ ack, body, action, client }) => {
    await ack();
    try {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: denyModal(`${action.value ?? ''}|${body.channel?.id ?? ''}`, 'this request'),
      });
    } catch (error) {
      await tellPresser(body, replyForError(error, logger).text, client);
    }
  });

  app.view(APPROVAL_IDS.denyModal, async ({ ack, body, view, client }) => {
    const reason =
      view.state.values[APPROVAL_IDS.denyReasonBlock]?.[APPROVAL_IDS.denyReasonInput]?.value?.trim() ?? '';
    if (reason === '') {
      await ack({
        response_action: 'errors',
        errors: { [APPROVAL_IDS.denyReasonBlock]: 'Give the requester a reason.' },
      });
      return;
    }
    await ack();
    // private_metadata round-trips through Slack only: `<request id>|<channel of the request>`.
    const [requestId = '', channel = ''] = view.private_metadata.split('|');
    let reply: string | undefined;
    try {
      reply = await service.deny(workspaceOf(body), requestId, body.user.id, reason, client);
    } catch (error) {
      reply = replyForError(error, logger).text;
    }
    if (reply !== undefined && channel !== '') {
      await client.chat.postEphemeral({ channel, user: body.user.id, text: reply });
    }
  });
}
