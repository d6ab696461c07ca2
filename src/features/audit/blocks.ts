import type { KnownBlock } from '@slack/types';
import { context, header, mention, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { StoredAuditEntry } from './service.js';

/** Each action as a line of the log says it ("<@U1> approved"). */
function actionWords(): Record<StoredAuditEntry['action'], string> {
  return {
    request: text.workspace.auditRequested,
    approve: text.workspace.auditApproved,
    deny: text.workspace.auditDenied,
    withdraw: text.workspace.auditWithdrew,
    expire: text.workspace.auditExpired,
    execute: text.workspace.auditStarted,
    succeed: text.workspace.auditSucceeded,
    fail: text.workspace.auditFailed,
    key_set: text.workspace.auditSetKey,
    key_replace: text.workspace.auditReplacedKey,
    key_remove: text.workspace.auditRemovedKey,
    policy_change: text.workspace.auditChangedPolicy,
    reveal: text.workspace.auditRevealed,
    remind: text.workspace.auditReminded,
    uninstall: text.workspace.auditUninstalled,
    refuse: text.workspace.auditRefused,
    order: text.workspace.auditOrdered,
    reissue: text.workspace.auditReissued,
    export: text.workspace.auditExported,
    watch_add: text.workspace.auditAddedWatch,
    watch_remove: text.workspace.auditRemovedWatch,
    watch_settings: text.workspace.auditChangedWatchSettings,
    ct_known: text.served.auditActionKnown,
    records_publish: text.publish.auditPublished,
    records_remove: text.publish.auditRemoved,
    record_change: text.records.auditChanged,
    break_glass: text.workspace.auditBrokeGlass,
    escalate: text.workspace.auditEscalated,
    agent_call: text.mcp.auditAgentCall,
    agent_revoke: text.mcp.auditAgentRevoke,
  };
}

/**
 * One entry as a line. Its outcome and detail are words recorded once, in the language of their
 * moment, and hashed into the chain as they are: `recorded: false` leaves them to `/domain audit`, for
 * a summary read in any language (App Home).
 */
export function auditLine(entry: StoredAuditEntry, options: { recorded?: boolean } = {}): string {
  const parts = [
    text.workspace.auditLine({
      when: slackDate(entry.at),
      actor: mention(entry.actor),
      action: actionWords()[entry.action] ?? escapeMrkdwn(entry.action),
    }),
  ];
  if (entry.operation !== undefined) parts.push(codeSpan(entry.operation));
  if (entry.target !== undefined)
    parts.push(text.workspace.auditOnTarget({ target: codeSpan(entry.target) }));
  const recorded = options.recorded ?? true;
  if (recorded && entry.outcome !== undefined) parts.push(`— ${escapeMrkdwn(entry.outcome.slice(0, 200))}`);
  // The full change is in `/domain audit` exports; a line shows its start.
  if (recorded && entry.detail !== undefined) parts.push(`— ${escapeMrkdwn(entry.detail.slice(0, 300))}`);
  if (entry.requestId !== undefined) parts.push(`(${codeSpan(entry.requestId)})`);
  return parts.join(' ');
}

/** Newest first; lines packed into sections so no text passes Slack's 3000 characters. */
export function auditBlocks(entries: readonly StoredAuditEntry[], target?: string): KnownBlock[] {
  const title = target === undefined ? text.workspace.auditTitle : text.workspace.auditTitleFor({ target });
  if (entries.length === 0) return [header(title), section(text.workspace.nothingRecorded)];
  const blocks: KnownBlock[] = [header(title)];
  blocks.push(...packLines(entries.map((entry) => auditLine(entry))));
  blocks.push(context(text.workspace.auditHashesNote));
  return blocks;
}
