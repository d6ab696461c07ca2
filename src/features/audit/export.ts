import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { exportRecord } from './entry.js';
import type { AuditLog, StoredAuditEntry } from './service.js';

/**
 * Who may read the trail: the policy's permission model (features/policy `Roles`), seen through this
 * one method so the audit, which every feature writes to, imports no feature of its own.
 */
export interface TrailAccess {
  check(
    client: WebClient,
    workspace: WorkspaceRef,
    user: string,
    act: 'view' | 'export',
    about: { operation?: string; target?: string },
  ): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

export interface AuditCommandDeps {
  audit: AuditLog;
  roles: TrailAccess;
}

/** One entry per line, with its time also in ISO 8601 for people reading the file (entry.ts). */
function toJsonLines(entries: readonly StoredAuditEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(exportRecord(entry))}\n`).join('');
}

/**
 * `/domain audit export`: the workspace's whole trail as JSON Lines, uploaded into the admin's DM with
 * Regdesk, never into the channel it was asked in (the trail names people and resources). Workspace
 * admins, owners and Regdesk admins only; the export is itself audited. Entries hold no secret (R12).
 */
export async function exportTrail(ctx: SubcommandContext, deps: AuditCommandDeps): Promise<void> {
  await ctx.ack();
  const { body, client } = ctx.bolt;
  const workspace = workspaceOf(body);
  const user = body.user_id;
  const access = await deps.roles.check(client, workspace, user, 'export', { operation: 'audit.export' });
  if (!access.allowed) {
    await ctx.respond({ response_type: 'ephemeral', text: text.slack.refused({ reason: access.reason }) });
    return;
  }
  const entries: StoredAuditEntry[] = [];
  for await (const entry of deps.audit.all(workspace)) entries.push(entry);
  const dm = (await client.conversations.open({ users: user })).channel?.id;
  if (dm === undefined) throw new Error('conversations.open returned no channel');
  const day = new Date().toISOString().slice(0, 10);
  await client.filesUploadV2({
    channel_id: dm,
    file: Buffer.from(toJsonLines(entries), 'utf8'),
    filename: `regdesk-audit-${workspace.teamId}-${day}.jsonl`,
    title: text.workspace.auditExportTitle({ count: entries.length }),
    initial_comment: text.workspace.auditExportComment,
  });
  await deps.audit.append(workspace, {
    action: 'export',
    actor: user,
    outcome: text.workspace.auditExportOutcome({ count: entries.length }),
  });
  await ctx.respond({
    response_type: 'ephemeral',
    text: text.workspace.auditExportSent({ count: entries.length }),
  });
}
