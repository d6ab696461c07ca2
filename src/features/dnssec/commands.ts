import type { RegistrarClient } from '../../registrar/index.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { requestApproval } from '../approvals/request.js';
import type { ApprovalService } from '../approvals/service.js';
import { parseDomainName } from '../domains/names.js';
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
      const parsed = name === undefined ? undefined : parseDomainName(name);
      if (parsed === undefined || !parsed.ok) return usage(ctx, '`/dns dnssec DOMAIN [disable]`.');
      const domain = parsed.ascii;
      if (verb === undefined) {
        await lookup(ctx, deps, async (registrar) => dnssecCard(domain, await registrar.dnssec.get(domain)));
        return;
      }
      if (verb.toLowerCase() !== 'disable') return usage(ctx, '`/dns dnssec DOMAIN [disable]`.');
      await ctx.ack();
      await requestApproval(
        deps.approvals,
        {
          workspace: workspaceOf(ctx.bolt.body),
          user: ctx.bolt.body.user_id,
          channel: ctx.bolt.body.channel_id,
          operation: 'dnssec.disable',
          params: { domain },
        },
        ctx.bolt.client,
        (text) => ctx.respond({ response_type: 'ephemeral', text }),
        ctx.logger,
      );
    },
  };
}
