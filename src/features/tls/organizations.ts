import type { App } from '@slack/bolt';
import { REGISTRAR_ID } from '../../registrar/index.js';
import { onView } from '../../slack/handlers.js';
import { usage } from '../../slack/lookup.js';
import { fieldErrors, readMetadata } from '../../slack/modal.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { savedOrganization } from './blocks.js';
import { ORG_IDS } from './ids.js';
import type { TlsHandlerDeps } from './interaction.js';
import { blockIn, formOf, ORG_FIELDS, OrgMeta, orgModal } from './modals.js';
import { OrganizationForm } from './service.js';

/** What a refusal about organizations is audited as. */
const OPERATION = 'tls.organization';

/**
 * `/tls org new|show ID|edit ID`. `new` and `edit` open at once (the trigger lasts 3 s), then show the
 * form, or why this person may not change organizations (the policy's orderers, R33).
 */
export function orgCommand(deps: TlsHandlerDeps, show: Subcommand['run']): Subcommand {
  return {
    name: 'org',
    usage: () => text.tls.orgSyntax,
    summary: () => text.tls.orgSummary,
    run: async (ctx) => {
      const [verb = '', orgId] = ctx.args;
      const { body, client } = ctx.bolt;
      const channel = body.channel_id;
      if (verb.toLowerCase() === 'show') return show(ctx);
      const editing = verb.toLowerCase() === 'edit' && orgId !== undefined && REGISTRAR_ID.test(orgId);
      if (verb.toLowerCase() !== 'new' && !editing) {
        return usage(ctx, text.tls.orgUsage);
      }
      await ctx.ack();
      const workspace = workspaceOf(body);
      const target = editing ? { target: orgId } : {};
      await openThenFill(
        client,
        body.trigger_id,
        editing ? text.tls.editOrganizationTitle : text.tls.newOrganizationTitle,
        async () => {
          await deps.roles.require(client, workspace, body.user_id, 'organization', {
            operation: OPERATION,
            ...target,
          });
          if (!editing) return orgModal({ channel });
          return orgModal({ channel, orgId }, await deps.service.organization(workspace, orgId));
        },
        ctx.logger,
      );
    },
  };
}

/** The organization modal's submission: field errors inline in the ack, the check and registrar call after it. */
export function registerOrgModal(app: App, deps: TlsHandlerDeps): void {
  onView(app, ORG_IDS.modal, deps.logger, async ({ body, view, client }) => {
    const form = OrganizationForm.safeParse(formOf(view.state.values, ORG_FIELDS));
    if (!form.success) {
      const errors = fieldErrors(form.error, blockIn(ORG_FIELDS), ORG_IDS.fields.organization);
      return { answer: { response_action: 'errors', errors } };
    }
    const meta = readMetadata(OrgMeta, view.private_metadata);
    const workspace = workspaceOf(body);
    const user = body.user.id;
    return {
      after: afterAck({ client, user, channel: meta.channel }, deps.logger, async (tell) => {
        await deps.roles.require(client, workspace, user, 'organization', {
          operation: OPERATION,
          ...(meta.orgId === undefined ? {} : { target: meta.orgId }),
        });
        const org = await deps.service.saveOrganization(workspace, meta.orgId, form.data);
        await tell(savedOrganization(org, meta.orgId));
      }),
    };
  });
}
