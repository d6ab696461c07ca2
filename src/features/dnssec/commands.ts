import type { RegistrarClient } from '../../registrar/index.js';
import type { Subcommand } from '../../slack/router.js';
import { requestFromCommand } from '../approvals/request.js';
import type { ApprovalService } from '../approvals/service.js';
import { domainArgument } from '../domains/names.js';
import { type LookupDeps, lookup, usage } from '../lookup.js';
import { dnssecCard } from './blocks.js';

export interface DnssecCommandDeps extends LookupDeps {
  approvals: ApprovalService<RegistrarClient>;
}

/** `/dns dnssec DOMAIN [disable]`: status, or a disable request that needs approval. */
export function dnssecCommand(deps: DnssecCommandDeps): Subcommand {
  return {
    name: 'dnssec',
    usage: 'dnssec DOMAIN [disable]',
    summary: 'DNSSEC state, desired vs live, records and pending work; `disable` needs approval',
    run: async (ctx) => {
      const [name, verb] = ctx.args;
      const domain = domainArgument(name);
      if (domain === undefined) return usage(ctx, '`/dns dnssec DOMAIN [disable]`.');
      if (verb === undefined) {
        await lookup(ctx, deps, async (registrar) => dnssecCard(domain, await registrar.dnssec.get(domain)));
        return;
      }
      if (verb.toLowerCase() !== 'disable') return usage(ctx, '`/dns dnssec DOMAIN [disable]`.');
      await requestFromCommand(ctx, deps.approvals, 'dnssec.disable', { domain });
    },
  };
}
