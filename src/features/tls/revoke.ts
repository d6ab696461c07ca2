import type { App } from '@slack/bolt';
import { REVOCATION_REASONS, type RevocationReason } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { onView } from '../../slack/handlers.js';
import { readMetadata, stateOf } from '../../slack/modal.js';
import type { Subcommand } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { text } from '../../text/index.js';
import { type Requests, requestFromCommand, requestFromView } from '../approvals/request.js';
import { REASON_IDS } from './ids.js';
import { ReasonMeta, reasonModal } from './modals.js';
import { cancelOrder, revokeCertificate } from './operations.js';

type Kind = 'revoke' | 'cancel';
const OPERATION = { revoke: revokeCertificate, cancel: cancelOrder } as const;

/** What revocation commands need of approvals: requests for these two operations. */
export type RevocationRequests = Requests<typeof revokeCertificate | typeof cancelOrder>;

function parseReason(text: string | undefined): RevocationReason | undefined {
  if (text === undefined) return undefined;
  return REVOCATION_REASONS.find((reason) => reason.toLowerCase() === text.toLowerCase());
}

/**
 * `/tls revoke ID [reason]` and `/tls cancel ID [reason]`: sensitive (docs/requirements.md R8), so they
 * become approval requests; a reason modal asks for the reason when none is given.
 */
export function revocationCommand(kind: Kind, approvals: RevocationRequests): Subcommand {
  return {
    name: kind,
    usage: () => text.tls.revocationSyntax({ kind, reasons: REVOCATION_REASONS.join('|') }),
    summary: () => (kind === 'revoke' ? text.tls.revokeSummary : text.tls.cancelSummary),
    run: async (ctx) => {
      const [certificateId, reasonText] = ctx.args;
      if (certificateId === undefined) {
        await ctx.ack({
          response_type: 'ephemeral',
          text: text.tls.revocationUsage({ kind }),
        });
        return;
      }
      const reason = parseReason(reasonText);
      if (reasonText !== undefined && reason === undefined) {
        await ctx.ack({
          response_type: 'ephemeral',
          text: text.tls.unknownReason({ reasons: REVOCATION_REASONS.map((r) => `\`${r}\``).join(', ') }),
        });
        return;
      }
      if (reason !== undefined) {
        await requestFromCommand(ctx, approvals, OPERATION[kind], { certificateId, reason });
        return;
      }
      await ctx.ack();
      const { body, client } = ctx.bolt;
      await openModal(
        client,
        body.trigger_id,
        reasonModal({ kind, certificateId, channel: body.channel_id }),
      );
    },
  };
}

export function registerReasonModal(app: App, approvals: RevocationRequests, logger: Logger): void {
  onView(app, REASON_IDS.modal, logger, async ({ body, view, client }) => {
    const reason = parseReason(stateOf(view.state.values, REASON_IDS.reason).selected_option?.value);
    if (reason === undefined) {
      return {
        answer: { response_action: 'errors', errors: { [REASON_IDS.reason]: text.tls.chooseReason } },
      };
    }
    const meta = readMetadata(ReasonMeta, view.private_metadata);
    return {
      after: requestFromView(
        approvals,
        { body, client },
        meta.channel,
        OPERATION[meta.kind],
        { certificateId: meta.certificateId, reason },
        logger,
      ),
    };
  });
}
