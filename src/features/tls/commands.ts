import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { certificateCard, organizationCard } from './blocks.js';

const ID = /^[A-Za-z0-9_.-]{1,100}$/;

export function showCommand(deps: LookupDeps): Subcommand {
  return {
    name: 'show',
    usage: 'show ID',
    summary: 'certificate status, names, validation records',
    run: async (ctx) => {
      const id = ctx.args[0];
      if (id === undefined || !ID.test(id)) return usage(ctx, '`/tls show CERTIFICATE_ID`.');
      await lookup(ctx, deps, async (registrar) => certificateCard(await registrar.tls.get(id)));
    },
  };
}

/** `/tls org show ID`: the organization card (the rest of `/tls org` lives in organizations.ts). */
export function showOrganization(deps: LookupDeps): Subcommand['run'] {
  return async (ctx) => {
    const id = ctx.args[1];
    if (id === undefined || !ID.test(id)) return usage(ctx, '`/tls org show ORGANIZATION_ID`.');
    await lookup(ctx, deps, async (registrar) => organizationCard(await registrar.organizations.get(id)));
  };
}
