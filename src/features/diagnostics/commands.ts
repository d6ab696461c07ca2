import { domainArgument } from '../../shared/domain-names.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { reportCard } from './blocks.js';
import type { CheckGate } from './gate.js';
import { type DiagnosticsDeps, diagnose } from './service.js';

/**
 * `/dns check DOMAIN`: live diagnostics, answered like every look-up (ack first, then the card). The
 * person's gate is passed before the ack: a refusal is the ack itself, with when to retry.
 */
export function checkCommand(deps: LookupDeps & DiagnosticsDeps & { checkGate: CheckGate }): Subcommand {
  return {
    name: 'check',
    usage: () => text.diagnostics.checkUsage,
    summary: () => text.diagnostics.checkSummary,
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined || ctx.args.length > 1) return usage(ctx, text.diagnostics.checkUsageReply);
      const release = await deps.checkGate.admit(workspaceOf(ctx.bolt.body).teamId, ctx.bolt.body.user_id);
      try {
        await lookup(ctx, deps, async (registrar, workspace) =>
          reportCard(await diagnose(deps, { registrar, workspace }, domain)),
        );
      } finally {
        await release();
      }
    },
  };
}
