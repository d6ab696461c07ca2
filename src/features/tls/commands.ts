import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { REGISTRAR_ID, type TlsService } from './service.js';

export function showCommand(deps: LookupDeps, service: TlsService): Subcommand {
  return {
    name: 'show',
    usage: 'show ID',
    summary: 'certificate status, names, validation records',
    run: async (ctx) => {
      const id = ctx.args[0];
      if (id === undefined || !REGISTRAR_ID.test(id)) return usage(ctx, '`/tls show CERTIFICATE_ID`.');
      await lookup(ctx, deps, (_registrar, workspace) => service.showCertificate(workspace, id));
    },
  };
}

/** `/tls org show ID`: the organization card (the rest of `/tls org` lives in organizations.ts). */
export function showOrganization(deps: LookupDeps, service: TlsService): Subcommand['run'] {
  return async (ctx) => {
    const id = ctx.args[1];
    if (id === undefined || !REGISTRAR_ID.test(id)) return usage(ctx, '`/tls org show ORGANIZATION_ID`.');
    await lookup(ctx, deps, (_registrar, workspace) => service.showOrganization(workspace, id));
  };
}
