import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { REGISTRAR_ID } from '../../registrar/index.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { onAction, onView } from '../../slack/handlers.js';
import { usage } from '../../slack/lookup.js';
import { fieldErrors, readMetadata } from '../../slack/modal.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { REISSUE_IDS } from './ids.js';
import { announce, orderOrRequest, type TlsHandlerDeps } from './interaction.js';
import { blockIn, formOf, orderModal, REISSUE_FIELDS, ReissueMeta, reissueModal } from './modals.js';
import { orderCertificate, reissueCertificate } from './operations.js';
import { namesOf, refusedNotice } from './preflight.js';

interface Opening {
  client: WebClient;
  triggerId: string;
  workspace: WorkspaceRef;
  user: string;
  channel: string;
}

/**
 * The reissue modal for `certificateId`, its names kept in a draft for the submission; or, in the
 * modal, why this person may not reissue (docs/requirements.md R33).
 */
function openReissue(deps: TlsHandlerDeps, at: Opening, certificateId: string): Promise<void> {
  return openThenFill(
    at.client,
    at.triggerId,
    text.tls.certificateModalTitle,
    async () => {
      await deps.roles.require(at.client, at.workspace, at.user, 'reissue', {
        operation: reissueCertificate.name,
        target: certificateId,
      });
      const { certificate, draftId } = await deps.service.startReissue(at.workspace, certificateId);
      const refusal = await deps.preflight.atButton(at.workspace, {
        change: 'reissue',
        actor: at.user,
        target: certificate.id,
        names: namesOf(certificate),
      });
      if (refusal !== undefined)
        return refusedNotice(text.tls.certificateModalTitle, certificate.id, refusal);
      return reissueModal({ channel: at.channel, draft: draftId }, certificate);
    },
    deps.logger,
  );
}

export function reissueCommand(deps: TlsHandlerDeps): Subcommand {
  return {
    name: 'reissue',
    usage: () => text.tls.reissueSyntax,
    summary: () => text.tls.reissueSummary,
    run: async (ctx) => {
      const id = ctx.args[0];
      if (id === undefined || !REGISTRAR_ID.test(id)) return usage(ctx, text.tls.reissueUsage);
      await ctx.ack();
      const { body, client } = ctx.bolt;
      await openReissue(
        deps,
        {
          client,
          triggerId: body.trigger_id,
          workspace: workspaceOf(body),
          user: body.user_id,
          channel: body.channel_id,
        },
        id,
      );
    },
  };
}

export function registerReissue(app: App, deps: TlsHandlerDeps): void {
  // Renew and Reissue buttons of a certificate card: the value is the certificate id only. Whoever
  // presses is checked like the commands: a card shared in a channel is seen by guests too.
  const onButton = (actionId: string, open: (at: Opening, certificateId: string) => Promise<void>) =>
    onAction<BlockAction<ButtonAction>>(app, actionId, deps.logger, ({ body, action, client }) =>
      open(
        {
          client,
          triggerId: body.trigger_id,
          workspace: workspaceOf(body),
          user: body.user.id,
          channel: body.channel?.id ?? '',
        },
        action.value ?? '',
      ),
    );
  onButton(REISSUE_IDS.reissueButton, (at, id) => openReissue(deps, at, id));
  onButton(REISSUE_IDS.renewButton, (at, id) =>
    openThenFill(
      at.client,
      at.triggerId,
      text.tls.certificateModalTitle,
      async (): Promise<View> => {
        await deps.roles.require(at.client, at.workspace, at.user, 'order', {
          operation: orderCertificate.name,
          target: id,
        });
        const certificate = await deps.service.certificate(at.workspace, id);
        const refusal = await deps.preflight.atButton(at.workspace, {
          change: 'order',
          actor: at.user,
          target: certificate.id,
          names: namesOf(certificate),
        });
        if (refusal !== undefined)
          return refusedNotice(text.tls.certificateModalTitle, certificate.id, refusal);
        return orderModal(at.channel, certificate);
      },
      deps.logger,
    ),
  );

  // The draft is read before the ack (one Redis GET, fast-failing on the request connection,
  // docs/requirements.md R22): a CSR that does not fit must go back inline, in the ack itself.
  onView(app, REISSUE_IDS.modal, deps.logger, async ({ body, view, client }) => {
    const meta = readMetadata(ReissueMeta, view.private_metadata);
    const workspace = workspaceOf(body);
    const checked = await deps.service.prepareReissue(
      workspace,
      meta.draft,
      formOf(view.state.values, REISSUE_FIELDS),
    );
    if (!checked.success) {
      const errors = fieldErrors(checked.error, blockIn(REISSUE_FIELDS), REISSUE_IDS.csr);
      return { answer: { response_action: 'errors', errors } };
    }
    const who = { client, user: body.user.id, channel: meta.channel };
    const request = checked.data;
    const refusal = await deps.preflight.atSubmission(
      workspace,
      view.id,
      {
        change: 'reissue',
        actor: who.user,
        target: request.certificateId,
        names: [request.commonName, ...(request.params.dns_names ?? [])],
      },
      request.params.dcv_method,
    );
    if (refusal !== undefined)
      return { answer: { response_action: 'errors', errors: { [REISSUE_IDS.dcv]: refusal } } };
    const params = reissueCertificate.parse(checked.data);
    return {
      after: afterAck(who, deps.logger, () =>
        orderOrRequest(deps, workspace, who, reissueCertificate, params, async () => {
          const cert = await deps.service.reissue(workspace, checked.data, who.user);
          await announce(deps, workspace, who, { operation: reissueCertificate, params }, cert);
        }),
      ),
    };
  });
}
