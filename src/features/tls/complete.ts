import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { z } from 'zod';
import { REGISTRAR_ID, validationOf } from '../../registrar/index.js';
import { formModal, noticeModal, section } from '../../slack/blocks.js';
import { onAction, onView } from '../../slack/handlers.js';
import { inputBlock, readMetadata, stateOf, writeMetadata } from '../../slack/modal.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { COMPLETE_IDS, LOADING_VIEW } from './ids.js';
import { announce, orderOrRequest, type TlsHandlerDeps } from './interaction.js';
import { completeOrder } from './operations.js';
import { namesOf, refusedNotice } from './preflight.js';

const CompleteMeta = z.lazy(() =>
  z.object({ channel: z.string(), certificateId: z.string().regex(REGISTRAR_ID) }),
);

/**
 * **Complete order** on a staged order's card (`action_required`): a modal asks for an organization
 * usable for ordering; the completion follows the order policy (approval when orders need one), and
 * the completed order is announced, its validation records published and followed in the thread.
 */
export function registerCompleteOrder(app: App, deps: TlsHandlerDeps): void {
  onAction<BlockAction<ButtonAction>>(
    app,
    COMPLETE_IDS.button,
    deps.logger,
    async ({ body, action, client }) => {
      const certificateId = action.value ?? '';
      if (!REGISTRAR_ID.test(certificateId)) throw new Error('malformed complete button value');
      const workspace = workspaceOf(body);
      const channel = body.channel?.id ?? body.user.id;
      await openThenFill(
        client,
        body.trigger_id,
        text.tls.completeModalTitle,
        async () => {
          await deps.roles.require(client, workspace, body.user.id, 'order', {
            operation: completeOrder.name,
            target: certificateId,
          });
          const cert = await deps.service.certificate(workspace, certificateId);
          if (cert.action_required !== true)
            return noticeModal(
              text.tls.completeModalTitle,
              text.tls.completeNotStaged({ id: codeSpan(cert.id), status: cert.status }),
              LOADING_VIEW,
            );
          const refusal = await deps.preflight.atButton(
            workspace,
            { change: 'complete', actor: body.user.id, target: cert.id, names: namesOf(cert) },
            validationOf(cert)?.method,
          );
          if (refusal !== undefined) return refusedNotice(text.tls.completeModalTitle, cert.id, refusal);
          return formModal(
            COMPLETE_IDS.modal,
            writeMetadata(CompleteMeta, { channel, certificateId }),
            text.tls.completeModalTitle,
            text.tls.completeSubmit,
            [
              section(
                text.tls.completeIntro({ id: codeSpan(cert.id), commonName: codeSpan(cert.common_name) }),
              ),
              inputBlock(
                COMPLETE_IDS.org,
                text.tls.organizationLabel,
                { type: 'plain_text_input', max_length: 100 },
                { hint: text.tls.completeOrgHint },
              ),
            ],
          );
        },
        deps.logger,
      );
    },
  );

  onView(app, COMPLETE_IDS.modal, deps.logger, async ({ body, view, client }) => {
    const meta = readMetadata(CompleteMeta, view.private_metadata);
    const orgId = (stateOf(view.state.values, COMPLETE_IDS.org).value ?? '').trim();
    if (!REGISTRAR_ID.test(orgId))
      return {
        answer: { response_action: 'errors', errors: { [COMPLETE_IDS.org]: text.tls.completeOrgInvalid } },
      };
    const workspace = workspaceOf(body);
    const who = { client, user: body.user.id, channel: meta.channel };
    const params = completeOrder.parse({ certificateId: meta.certificateId, orgId });
    return {
      after: afterAck(who, deps.logger, () =>
        orderOrRequest(deps, workspace, who, completeOrder, params, async () => {
          const certificate = await deps.service.complete(
            workspace,
            params.certificateId,
            params.orgId,
            who.user,
          );
          await announce(deps, workspace, who, { operation: completeOrder, params }, certificate);
        }),
      ),
    };
  });
}
