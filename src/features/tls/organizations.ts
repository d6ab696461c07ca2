import type { App } from '@slack/bolt';
import { onView } from '../../slack/handlers.js';
import { usage } from '../../slack/lookup.js';
import { fieldErrors, readMetadata } from '../../slack/modal.js';
import type { Subcommand } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { savedOrganization } from './blocks.js';
import { ORG_IDS } from './ids.js';
import { afterAck, openThenFill, type TlsHandlerDeps } from './interaction.js';
import { blockIn, formOf, ORG_FIELDS, OrgMeta, orgModal } from './modals.js';
import { OrganizationForm, REGISTRAR_ID } from './service.js';

/** `/tls org new|show ID|edit ID`. `edit` opens at once (the trigger lasts 3 s), then fills the form in. */
export function orgCommand(deps: TlsHandlerDeps, show: Subcommand['run']): Subcommand {
  return {
    name: 'org',
    usage: 'org new|show ID|edit ID',
    summary: 'TLS organizations for OV orders: create, show, edit',
    run: async (ctx) => {
      const [verb = '', orgId] = ctx.args;
      const { body, client } = ctx.bolt;
      const channel = body.channel_id;
      if (verb.toLowerCase() === 'show') return show(ctx);
      if (verb.toLowerCase() === 'new') {
        await ctx.ack();
        await openModal(client, body.trigger_id, orgModal({ channel }));
        return;
      }
      if (verb.toLowerCase() !== 'edit' || orgId === undefined || !REGISTRAR_ID.test(orgId)) {
        return usage(ctx, '`/tls org new`, `/tls org show ID` or `/tls org edit ID`.');
      }
      await ctx.ack();
      const workspace = workspaceOf(body);
      await openThenFill(
        client,
        body.trigger_id,
        'Edit TLS organization',
        async () => orgModal({ channel, orgId }, await deps.service.organization(workspace, orgId)),
        ctx.logger,
      );
    },
  };
}

/** The organization modal's submission: field errors inline in the ack, the registrar call after it. */
export function registerOrgModal(app: App, deps: TlsHandlerDeps): void {
  onView(app, ORG_IDS.modal, deps.logger, async ({ body, view, client }) => {
    const form = OrganizationForm.safeParse(formOf(view.state.values, ORG_FIELDS));
    if (!form.success) {
      const errors = fieldErrors(form.error, blockIn(ORG_FIELDS), ORG_IDS.fields.organization);
      return { answer: { response_action: 'errors', errors } };
    }
    const meta = readMetadata(OrgMeta, view.private_metadata);
    const workspace = workspaceOf(body);
    return {
      after: afterAck({ client, user: body.user.id, channel: meta.channel }, deps.logger, async (tell) => {
        const org = await deps.service.saveOrganization(workspace, meta.orgId, form.data);
        await tell(savedOrganization(org, meta.orgId));
      }),
    };
  });
}
