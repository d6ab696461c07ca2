import { domainToASCII } from 'node:url';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { auditBlocks } from './blocks.js';
import type { AuditLog } from './service.js';

const SHOWN = 30;

export function auditCommand(audit: AuditLog): Subcommand {
  return {
    name: 'audit',
    usage: 'audit [DOMAIN]',
    summary: "this workspace's recent audit trail, optionally for one domain or certificate id",
    run: async ({ ack, args, bolt }) => {
      const target = args[0] === undefined ? undefined : normaliseTarget(args[0]);
      const entries = await audit.latest(workspaceOf(bolt.body), {
        limit: SHOWN,
        ...(target === undefined ? {} : { target }),
      });
      const blocks = auditBlocks(entries, target);
      await ack({ response_type: 'ephemeral', text: `Audit trail (${entries.length} entries)`, blocks });
    },
  };
}

/** Domains are audited in ASCII (punycode) form; certificate ids stay as typed. */
function normaliseTarget(text: string): string {
  const lowered = text.trim().toLowerCase().replace(/\.$/, '');
  return lowered.includes('.') ? domainToASCII(lowered) || lowered : text.trim();
}
