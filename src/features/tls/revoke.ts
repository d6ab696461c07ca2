import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import { REVOCATION_REASONS, type RevocationReason } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { section } from '../../slack/blocks.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Requests, requestApproval } from '../approvals/request.js';
import { TLS_IDS } from './ids.js';
import { cancelOrder, revokeCertificate } from './operations.js';

const REASON_LABELS: Record<RevocationReason, string> = {
  unspecified: 'Unspecified',
  keyCompromise: 'Key compromise',
  affiliationChanged: 'Affiliation changed',
  superseded: 'Superseded',
  cessationOfOperation: 'Cessation of operation',
};

type Kind = 'revoke' | 'cancel';
const OPERATION = { revoke: revokeCertificate, cancel: cancelOrder } as const;

/** What revocation commands need of approvals: requests for these two operations. */
export type RevocationRequests = Requests<typeof revokeCertificate | typeof cancelOrder>;

export function parseReason(text: string | undefined): RevocationReason | undefined {
  if (text === undefined) return undefined;
  return REVOCATION_REASONS.find((reason) => reason.toLowerCase() === text.toLowerCase());
}

function reasonModal(kind: Kind, certificateId: string, channel: string): View {
  return {
    type: 'modal',
    callback_id: TLS_IDS.reasonModal,
    // Round-trips through Slack only: what to request, for which certificate, from which channel.
    private_metadata: JSON.stringify({ kind, certificateId, channel }),
    title: { type: 'plain_text', text: kind === 'revoke' ? 'Revoke certificate' : 'Cancel order' },
    submit: { type: 'plain_text', text: 'Request approval' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(
        kind === 'revoke'
          ? `Revoke certificate ${codeSpan(certificateId)}? This needs a second person's approval.`
          : `Cancel the order of ${codeSpan(certificateId)} (within 7 days of ordering this revokes the whole order)? This needs a second person's approval.`,
      ),
      {
        type: 'input',
        block_id: TLS_IDS.reasonBlock,
        label: { type: 'plain_text', text: 'Revocation reason' },
        element: {
          type: 'static_select',
          action_id: TLS_IDS.reasonInput,
          options: REVOCATION_REASONS.map((reason) => ({
            text: { type: 'plain_text', text: REASON_LABELS[reason] },
            value: reason,
          })),
        },
      },
    ],
  };
}

/** `/tls revoke ID [reason]` and `/tls cancel ID [reason]`: a reason modal when none is given. */
export function revocationCommand(kind: Kind, approvals: RevocationRequests): Subcommand {
  return {
    name: kind,
    usage: `${kind} ID [${REVOCATION_REASONS.join('|')}]`,
    summary:
      kind === 'revoke'
        ? 'revoke one certificate (needs approval)'
        : 'cancel an order, or revoke the whole order within 7 days (needs approval)',
    run: async ({ ack, args, bolt, respond, logger }) => {
      const [certificateId, reasonText] = args;
      if (certificateId === undefined) {
        await ack({
          response_type: 'ephemeral',
          text: `Usage: \`/tls ${kind} ID [reason]\`, e.g. \`/tls ${kind} cert-123 keyCompromise\`.`,
        });
        return;
      }
      const reason = parseReason(reasonText);
      if (reasonText !== undefined && reason === undefined) {
        await ack({
          response_type: 'ephemeral',
          text: `Unknown reason. Use one of: ${REVOCATION_REASONS.map((r) => `\`${r}\``).join(', ')}.`,
        });
        return;
      }
      await ack();
      if (reason === undefined) {
        await bolt.client.views.open({
          trigger_id: bolt.body.trigger_id,
          view: reasonModal(kind, certificateId, bolt.body.channel_id),
        });
        return;
      }
      await requestApproval(
        approvals,
        {
          workspace: workspaceOf(bolt.body),
          user: bolt.body.user_id,
          channel: bolt.body.channel_id,
          operation: OPERATION[kind],
          params: { certificateId, reason },
        },
        bolt.client,
        (text) => respond({ response_type: 'ephemeral', text }),
        logger,
      );
    },
  };
}

export function registerReasonModal(app: App, approvals: RevocationRequests, logger: Logger): void {
  app.view(TLS_IDS.reasonModal, async ({ ack, body, view, client }) => {
    const reason = parseReason(
      view.state.values[TLS_IDS.reasonBlock]?.[TLS_IDS.reasonInput]?.selected_option?.value ?? undefined,
    );
    if (reason === undefined) {
      await ack({ response_action: 'errors', errors: { [TLS_IDS.reasonBlock]: 'Choose a reason.' } });
      return;
    }
    await ack();
    const meta = JSON.parse(view.private_metadata) as { kind: Kind; certificateId: string; channel: string };
    await requestApproval(
      approvals,
      {
        workspace: workspaceOf(body),
        user: body.user.id,
        channel: meta.channel,
        operation: OPERATION[meta.kind],
        params: { certificateId: meta.certificateId, reason },
      },
      client,
      (text) => client.chat.postEphemeral({ channel: meta.channel, user: body.user.id, text }),
      logger,
    );
  });
}
