import { domainToASCII } from 'node:url';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { auditBlocks } from './blocks.js';
import { type AuditCommandDeps, exportTrail } from './export.js';

const SHOWN = 30;

/**
 * `/domain audit [DOMAIN]`: members in good standing only, never guests, outsiders or deactivated
 * accounts (docs/requirements.md R33). `/domain audit export`: the whole trail, for admins.
 */
export function auditCommand(deps: AuditCommandDeps): Subcommand {
  return {
    name: 'audit',
    usage: () => text.workspace.auditUsage,
    summary: () => text.workspace.auditSummary,
    run: async (ctx) => {
      const { args, ack, bolt } = ctx;
      if (args[0]?.toLowerCase() === 'export') return exportTrail(ctx, deps);
      const workspace = workspaceOf(bolt.body);
      const target = args[0] === undefined ? undefined : normaliseTarget(args[0]);
      // The answer is the ack itself; the role check (cached 60 s) and the read run side by side.
      const [access, entries] = await Promise.all([
        deps.roles.check(bolt.client, workspace, bolt.body.user_id, 'view', {
          operation: 'audit',
          ...(target === undefined ? {} : { target }),
        }),
        deps.audit.latest(workspace, { limit: SHOWN, ...(target === undefined ? {} : { target }) }),
      ]);
      if (!access.allowed) {
        await ack({ response_type: 'ephemeral', text: text.slack.refused({ reason: access.reason }) });
        return;
      }
      const blocks = auditBlocks(entries, target);
      await ack({
        response_type: 'ephemeral',
        text: text.workspace.auditEntries({ count: entries.length }),
        blocks,
      });
    },
  };
}

/** Domains are audited in ASCII (punycode) form; certificate ids stay as typed. */
function normaliseTarget(typed: string): string {
  const lowered = typed.trim().toLowerCase().replace(/\.$/, '');
  return lowered.includes('.') ? domainToASCII(lowered) || lowered : typed.trim();
}
