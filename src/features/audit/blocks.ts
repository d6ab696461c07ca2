import type { KnownBlock } from '@slack/types';
import { context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { StoredAuditEntry } from './service.js';

const ACTION_WORDS: Record<StoredAuditEntry['action'], string> = {
  request: 'requested',
  approve: 'approved',
  deny: 'denied',
  withdraw: 'withdrew',
  expire: 'expired',
  execute: 'started',
  succeed: 'succeeded',
  fail: 'failed',
  key_set: 'set the API key',
  key_replace: 'replaced the API key',
  key_remove: 'removed the API key',
  policy_change: 'changed the approval policy',
  reveal: 'revealed their auth code',
  uninstall: 'uninstalled',
  refuse: 'was refused',
  order: 'ordered',
  reissue: 'reissued',
  export: 'exported the audit trail',
  watch_add: 'added a watch',
  watch_remove: 'removed the watch',
  watch_settings: 'changed the watch settings',
};

function actor(id: string): string {
  return /^[UW][A-Z0-9]+$/.test(id) ? `<@${id}>` : escapeMrkdwn(id);
}

export function auditLine(entry: StoredAuditEntry): string {
  const parts = [
    `${slackDate(entry.at)} ${actor(entry.actor)} ${ACTION_WORDS[entry.action] ?? escapeMrkdwn(entry.action)}`,
  ];
  if (entry.operation !== undefined) parts.push(codeSpan(entry.operation));
  if (entry.target !== undefined) parts.push(`on ${codeSpan(entry.target)}`);
  if (entry.outcome !== undefined) parts.push(`— ${escapeMrkdwn(entry.outcome.slice(0, 200))}`);
  // The full change is in `/domain audit` exports; a line shows its start.
  if (entry.detail !== undefined) parts.push(`— ${escapeMrkdwn(entry.detail.slice(0, 300))}`);
  if (entry.requestId !== undefined) parts.push(`(${codeSpan(entry.requestId)})`);
  return parts.join(' ');
}

/** Newest first; lines packed into sections so no text passes Slack's 3000 characters. */
export function auditBlocks(entries: readonly StoredAuditEntry[], target?: string): KnownBlock[] {
  const title = target === undefined ? 'Audit trail' : `Audit trail: ${target}`;
  if (entries.length === 0) return [header(title), section('Nothing recorded yet.')];
  const blocks: KnownBlock[] = [header(title)];
  blocks.push(...packLines(entries.map(auditLine)));
  blocks.push(context('Parameters are recorded as SHA-256 hashes; secrets are never recorded.'));
  return blocks;
}
