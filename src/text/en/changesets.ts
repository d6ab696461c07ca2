import type { Markup } from '../escape.js';
import { count, n } from './numbers.js';

/** What Regdesk says about zone files and change sets (features/changesets). */
export const changesets = {
  // `/dns zone …` (commands.ts)
  zoneUsage: 'zone DOMAIN | zone export DOMAIN | zone import DOMAIN',
  zoneSummary:
    'SOA, delegation, DNSSEC and record counts by type; export the zone as a file, or import one as a change set',
  exportUsageReply: '`/dns zone export DOMAIN`.',
  importUsageReply: '`/dns zone import DOMAIN`.',
  exportTitle: (p: { domain: string }) => `Zone file of ${p.domain}`,
  exportComment: (p: { domain: string; count: number }) =>
    `The zone ${p.domain} as an RFC 1035 master file: SOA, apex NS and ${count(p.count, 'record')}.`,
  commentAuto: 'managed by the registrar (auto): never changed by an import',
  commentAlias: 'ALIAS is the registrar’s own type, not a standard one: kept as a comment',
  commentInactive: 'inactive at the registrar: not served',
  commentUnwritable: 'data a master file cannot hold',

  // The import modal (import.ts)
  importTitle: 'Import records',
  importSubmit: 'Plan',
  importIntro: (p: { domain: string }) =>
    `Records for *${p.domain}* in master-file form (RFC 1035: relative names, \`$ORIGIN\`, \`$TTL\`, parentheses and comments). Nothing changes until the plan is approved.`,
  importTextLabel: 'Records',
  importTextHint:
    'Paste a zone file or part of one (up to 3,000 characters). The SOA and the apex NS set are left as they are.',
  importModeLabel: 'Mode',
  modeMerge: 'Merge: create and change, never delete',
  modeReplace: 'Replace: also delete the zone’s records that are not in the text',
  importEmpty: 'Paste at least one record.',
  importLineError: (p: { line: number; problem: string }) => `Line ${p.line}: ${p.problem}`,
  importMoreErrors: (p: { count: number }) => `… and ${p.count} more.`,
  nothingToChange: (p: { domain: string; unchanged: number }) =>
    `Nothing to change in ${p.domain}: ${p.unchanged === 1 ? "the text's one record is" : `the text's ${n(p.unchanged)} records are`} already there.`,

  // What is wrong on a line of a master file (master-file-errors.ts)
  fileUnterminatedQuote: 'a quote is not closed on its line',
  fileUnbalancedParen: 'parentheses do not match',
  fileBadEscape: (p: { value: string }) => `${p.value} is not a valid escape`,
  fileIncludeRefused: '$INCLUDE is not supported: paste the records themselves',
  fileUnknownDirective: (p: { directive: string }) =>
    `${p.directive} is not supported (only $ORIGIN and $TTL)`,
  fileBadDirective: (p: { directive: string }) => `${p.directive} takes exactly one value`,
  fileNoOwner: 'the line starts blank but no record names an owner before it',
  fileBadName: (p: { name: string }) => `${p.name} is not a domain name`,
  fileOutsideOrigin: (p: { name: string; origin: string }) => `${p.name} is not in the zone ${p.origin}`,
  fileBadTtl: (p: { value: string }) => `${p.value} is not a TTL in seconds`,
  fileBadClass: (p: { value: string }) => `class ${p.value}: only IN`,
  fileMissingType: 'the record has no type',
  fileUnknownType: (p: { type: string }) =>
    `type ${p.type} cannot be written (A, AAAA, CNAME, TXT, MX, NS, SRV, CAA)`,
  fileBadRdata: (p: { type: string; expected: number }) =>
    `a ${p.type} record takes ${count(p.expected, 'value')}`,
  fileBadAddress: (p: { type: string; value: string }) => `${p.value} is not an address for ${p.type}`,
  fileBadNumber: (p: { type: string; value: string; max: number }) =>
    `${p.value} is out of range for ${p.type} (0 to ${p.max})`,
  fileBadTarget: (p: { type: string; value: string }) => `${p.value} is not a host name for ${p.type}`,
  fileBadCaa: (p: { value: string }) => `${p.value} is not a CAA property (flags tag "value")`,
  fileBadText: 'the text is not UTF-8',
  fileTooManyErrors: (p: { max: number }) => `more than ${p.max} errors: fix these first`,

  // The plan as the approval request shows it (operation.ts, blocks.ts)
  summary: (p: { domain: string; creates: number; changes: number; deletes: number }) =>
    `Change set for ${p.domain}: ${p.creates} to create, ${p.changes} to change, ${p.deletes} to delete`,
  summaryRevert: (p: { domain: string; of: string }) => `Revert change set ${p.of} of ${p.domain}`,
  planCounts: (p: { creates: number; changes: number; deletes: number; unchanged: number }) =>
    `*Plan:* ${p.creates} to create, ${p.changes} to change, ${p.deletes} to delete, ${p.unchanged} unchanged.`,
  planCreate: (p: { record: string }) => `➕ ${p.record}`,
  planChange: (p: { before: string; after: string }) => `✏️ ${p.before} → ${p.after}`,
  planDelete: (p: { record: string }) => `➖ ${p.record}`,
  planMore: (p: { count: number }) =>
    `… and ${count(p.count, 'more step')}: the whole plan is in the file in the thread.`,
  planLarge: (p: { share: number }) =>
    `:warning: This set changes or deletes ${p.share} % of the zone’s records (more than 30 %): it needs one approval more.`,
  planFileTitle: (p: { domain: string }) => `Change set plan for ${p.domain}`,
  planNoAuto: 'Records the registrar manages (auto) and the apex NS set are never touched.',

  // Applying (apply.ts)
  applying: (p: { steps: number }) =>
    `Applying ${count(p.steps, 'step')}; the thread says when they are done.`,
  applied: (p: { domain: string; done: number; id: string }) =>
    `:white_check_mark: Change set \`${p.id}\` applied to ${p.domain}: ${count(p.done, 'step')} done.`,
  stopped: (p: { domain: string; done: number; total: number; id: string; reason: string }) =>
    `:warning: Change set \`${p.id}\` stopped in ${p.domain} after ${n(p.done)} of ${count(p.total, 'step')}: ${p.reason}`,
  notDone: (p: { steps: Markup }) => `*Not done:* ${p.steps}`,
  writeFailed: 'the registrar did not take the write.',
  auditOutcome: (p: { id: string; done: number; total: number }) =>
    `change set ${p.id}: ${n(p.done)} of ${count(p.total, 'step')} done`,
  revertButton: 'Revert change set',
  revertGone: 'This change set can no longer be reverted: what it changed is no longer kept.',
  revertNothing: 'Nothing to revert: the change set changed nothing.',
  // Scheduled cutovers (operation.ts, views.ts)
  planCutover: (p: { at: Markup }) => `*Cutover:* applies ${p.at}.`,
  planCutoverLowered: (p: { at: Markup }) =>
    `*Cutover:* applies ${p.at}; once approved, the records it changes or deletes get TTL 60 at once.`,
  scheduledOutcome: (p: { at: Markup; lowered: number }) =>
    `Scheduled for ${p.at}${p.lowered === 0 ? '.' : `; ${count(p.lowered, 'record')} lowered to TTL 60 now.`}`,
  scheduled: (p: { id: string; domain: string; at: Markup; lowered: number }) =>
    `:calendar: Change set \`${p.id}\` for ${p.domain} applies ${p.at}` +
    (p.lowered === 0 ? '.' : ` (${count(p.lowered, 'record')} now at TTL 60).`) +
    ' *Cancel* before then puts the TTLs back.',
  cancelButton: 'Cancel cutover',
  cancelled: (p: { id: string; restored: number }) =>
    `:no_entry_sign: Change set \`${p.id}\` cancelled before its cutover; ${count(p.restored, 'TTL')} put back. Nothing else changed.`,
  cancelTooLate: (p: { state: string }) => `Too late to cancel: the change set is ${p.state}.`,
  importAtLabel: 'Apply at (optional)',
  importAtHint: 'Leave empty to apply once approved.',
  importLowerLabel: 'Cutover',
  importLowerOption: 'Lower TTLs first (to 60 s once approved)',
  importAtPast: 'Pick a time in the future.',
  auditCancelled: (p: { id: string }) => `change set ${p.id} cancelled before its cutover`,
  showCommand: (p: { domain: string }) => `/dns check ${p.domain}`,
  served: (p: { id: string; domain: string; count: number; nameservers: string }) =>
    `:satellite_antenna: Change set \`${p.id}\`: every nameserver of ${p.domain} serves its ${count(p.count, 'step')} (${p.nameservers}).`,
};
