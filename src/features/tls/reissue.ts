import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { RegistrarClient, TlsCertificate } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { noticeModal, section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { Origin } from '../follow/jobs.js';
import { certificateCard } from './blocks.js';
import { csrProblems, parseCsr } from './csr.js';
import { REISSUE_IDS } from './ids.js';
import { orderModal } from './order.js';

const value = (id: string) => `${id}.value`;

interface Meta {
  channel: string;
  id: string;
  commonName: string;
  /** The order's SAN list, sent back unchanged: the spec requires it to equal the order's exactly. */
  dnsNames: string[];
}

function reissueModal(meta: Meta): View {
  const option = (v: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value: v });
  return {
    type: 'modal',
    callback_id: REISSUE_IDS.modal,
    private_metadata: JSON.stringify(meta).slice(0, 3000),
    title: { type: 'plain_text', text: 'Reissue certificate' },
    submit: { type: 'plain_text', text: 'Reissue' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(
        `Reissue ${codeSpan(meta.id)} for ${codeSpan(meta.commonName)} with a new CSR. The names stay exactly as ordered: ${meta.dnsNames.slice(0, 20).map(codeSpan).join(', ')}.`,
      ),
      {
        type: 'input',
        block_id: REISSUE_IDS.csr,
        label: { type: 'plain_text', text: 'New CSR (PEM)' },
        element: {
          type: 'plain_text_input',
          action_id: value(REISSUE_IDS.csr),
          multiline: true,
          max_length: 3000,
        },
      },
      {
        type: 'input',
        block_id: REISSUE_IDS.dcv,
        label: { type: 'plain_text', text: 'Domain validation' },
        element: {
          type: 'radio_buttons',
          action_id: value(REISSUE_IDS.dcv),
          options: [option('dns-cname-token', 'DNS (CNAME record)'), option('email', 'E-mail')],
          initial_option: option('dns-cname-token', 'DNS (CNAME record)'),
        },
      },
      {
        type: 'input',
        block_id: REISSUE_IDS.comments,
        optional: true,
        label: { type: 'plain_text', text: 'Comment' },
        element: { type: 'plain_text_input', action_id: value(REISSUE_IDS.comments), max_length: 500 },
      },
    ],
  };
}

interface Deps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  poster: ChannelPoster;
  followCertificate(workspace: WorkspaceRef, id: string, origin: Origin): Promise<void>;
  logger: Logger;
}

/** Opens a modal at once (the trigger lasts 3 s), then fills it from the registrar. */
async function openFromCertificate(
  client: WebClient,
  triggerId: string,
  registrar: RegistrarClient,
  id: string,
  build: (cert: TlsCertificate) => View,
  logger: Logger,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: noticeModal('Certificate', ':hourglass_flowing_sand: Loading…', 'tls.loading'),
  });
  const viewId = opened.view?.id ?? '';
  try {
    await client.views.update({ view_id: viewId, view: build(await registrar.tls.get(id)) });
  } catch (error) {
    await client.views.update({
      view_id: viewId,
      view: noticeModal('Certificate', replyForError(error, logger).text, 'tls.loading'),
    });
  }
}

const metaOf = (cert: TlsCertificate, channel: string): Meta => ({
  channel,
  id: cert.id,
  commonName: cert.common_name,
  dnsNames: cert.dns_names,
});

export function reissueCommand(deps: Deps): Subcommand {
  return {
    name: 'reissue',
    usage: 'reissue ID',
    summary: 'reissue a certificate with a new CSR, same names (modal)',
    run: async (ctx) => {
      const id = ctx.args[0];
      if (id === undefined || !/^[A-Za-z0-9_.-]{1,100}$/.test(id))
        return usage(ctx, '`/tls reissue CERTIFICATE_ID`.');
      await ctx.ack();
      const channel = ctx.bolt.body.channel_id;
      const registrar = deps.registrarFor(workspaceOf(ctx.bolt.body));
      await openFromCertificate(
        ctx.bolt.client,
        ctx.bolt.body.trigger_id,
        registrar,
        id,
        (cert) => reissueModal(metaOf(cert, channel)),
        ctx.logger,
      );
    },
  };
}

export function registerReissue(app: App, deps: Deps): void {
  // Renew and Reissue buttons of a certificate card: the value is the certificate id only.
  const onButton = (actionId: string, build: (cert: TlsCertificate, channel: string) => View) =>
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      const channel = body.channel?.id ?? '';
      const registrar = deps.registrarFor(workspaceOf(body));
      await openFromCertificate(
        client,
        body.trigger_id,
        registrar,
        action.value ?? '',
        (cert) => build(cert, channel),
        deps.logger,
      );
    });
  onButton(REISSUE_IDS.reissueButton, (cert, channel) => reissueModal(metaOf(cert, channel)));
  onButton(REISSUE_IDS.renewButton, (cert, channel) =>
    orderModal(channel, {
      sku: cert.product ?? '',
      commonName: cert.common_name,
      sans: cert.dns_names.filter((name) => name !== cert.common_name),
      renewalOf: cert.id,
    }),
  );

  app.view(REISSUE_IDS.modal, async ({ ack, body, view, client }) => {
    const meta = JSON.parse(view.private_metadata) as Meta;
    const csr = (view.state.values[REISSUE_IDS.csr]?.[value(REISSUE_IDS.csr)]?.value ?? '').trim();
    let problem: string | undefined;
    try {
      const problems = csrProblems(
        parseCsr(csr),
        meta.commonName,
        meta.dnsNames.filter((n) => n !== meta.commonName),
      );
      if (problems.length > 0) problem = `The CSR does not fit this certificate: ${problems.join('; ')}.`;
    } catch (error) {
      problem = `Paste a PEM CSR: ${error instanceof Error ? error.message : 'unreadable'}.`;
    }
    if (problem !== undefined) {
      await ack({ response_action: 'errors', errors: { [REISSUE_IDS.csr]: problem.slice(0, 500) } });
      return;
    }
    await ack();
    const dcv =
      view.state.values[REISSUE_IDS.dcv]?.[value(REISSUE_IDS.dcv)]?.selected_option?.value === 'email'
        ? 'email'
        : 'dns-cname-token';
    const comments =
      view.state.values[REISSUE_IDS.comments]?.[value(REISSUE_IDS.comments)]?.value ?? undefined;
    const workspace = workspaceOf(body);
    try {
      const cert = await deps.registrarFor(workspace).tls.reissue(meta.id, {
        csr,
        dcv_method: dcv,
        dns_names: meta.dnsNames,
        ...(comments ? { comments } : {}),
      });
      const card = certificateCard(cert);
      const ts = await deps.poster.post(client, {
        channel: meta.channel,
        text: `<@${body.user.id}> reissued ${card.text}`,
        blocks: [section(`<@${body.user.id}> reissued a certificate.`), ...card.blocks],
      });
      if (cert.status === 'pending')
        await deps.followCertificate(workspace, cert.id, { channel: meta.channel, threadTs: ts });
    } catch (error) {
      await client.chat.postEphemeral({
        channel: meta.channel,
        user: body.user.id,
        text: replyForError(error, deps.logger).text,
      });
    }
  });
}
