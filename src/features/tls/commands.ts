import { REGISTRAR_ID } from '../../registrar/index.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { Roles } from '../policy/permissions.js';
import type { TlsService } from './service.js';

type TlsLookupDeps = LookupDeps & { roles: Roles };

/**
 * Whether the person typing may read at all (members in good standing, docs/requirements.md R33):
 * acked first, since Slack may be asked; a refusal is audited and told, and false returned.
 */
export async function mayLookUp(ctx: SubcommandContext, roles: Roles, operation: string, target: string) {
  await ctx.ack();
  const { body, client } = ctx.bolt;
  const access = await roles.check(client, workspaceOf(body), body.user_id, 'lookup', { operation, target });
  if (!access.allowed)
    await ctx.respond({
      response_type: 'ephemeral',
      text: text.tls.lookupRefused({ reason: access.reason }),
    });
  return access.allowed;
}

export function showCommand(deps: TlsLookupDeps, service: TlsService): Subcommand {
  return {
    name: 'show',
    usage: () => text.tls.showSyntax,
    summary: () => text.tls.showSummary,
    run: async (ctx) => {
      const id = ctx.args[0];
      if (id === undefined || !REGISTRAR_ID.test(id)) return usage(ctx, text.tls.showUsage);
      await lookup(ctx, deps, (_registrar, workspace) => service.showCertificate(workspace, id));
    },
  };
}

/** `/tls org show ID`: the organization card (the rest of `/tls org` lives in organizations.ts). */
export function showOrganization(deps: TlsLookupDeps, service: TlsService): Subcommand['run'] {
  return async (ctx) => {
    const id = ctx.args[1];
    if (id === undefined || !REGISTRAR_ID.test(id)) return usage(ctx, text.tls.orgShowUsage);
    await lookup(ctx, deps, (_registrar, workspace) => service.showOrganization(workspace, id));
  };
}
