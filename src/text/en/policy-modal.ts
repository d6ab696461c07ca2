import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';

/**
 * `/domain policy`'s "Per action" rows (features/policy/action-rows.ts): one per action class, its
 * approvals and whether a reason is required (contract §3 "Policy", `actions.<class>`), and how the
 * audit trail names a change of them (features/policy/change.ts).
 */
export const policyModal = {
  actionsIntro:
    '*Per action*: how many approvals each kind of action needs (none: it runs at once, announced in the ' +
    'channel and audited) and whether the requester must give a reason (at least 10 characters, shown in ' +
    'the request and the audit trail). *As the default* follows “Approvals needed” above. Approvers and ' +
    'expiry per action, zones and freezes come from `regdesk policy set` and stay as they are.',
  /** The records part's intro: the row of DNS record changes is what the switch of approval was. */
  recordsIntro:
    '*DNS records*: adding, editing, deleting or reverting a record changes what the world resolves. ' +
    'Unless the row “DNS record changes” above says none, every change needs approval unless the ' +
    "record's type or the person is exempt below.",

  // Each action class in plain words (features/policy/classes.ts), and what it covers
  actionRevoke: 'Revoke or cancel a certificate',
  actionAuthcode: 'Show a transfer auth code',
  actionDelegation: 'Change nameservers',
  actionDnssec: 'DNSSEC changes',
  actionRecord: 'DNS record changes',
  actionOrder: 'Certificate orders',
  actionPublish: 'Publish validation records',
  coversRevoke: '/tls revoke and /tls cancel.',
  coversAuthcode: '/domain authcode: the code is shown only to the requester.',
  coversDelegation: '/domain ns … set.',
  coversDnssec: 'Turning DNSSEC off, and external DNSSEC records.',
  coversRecord: 'Record changes, zone imports and reverts. The exemptions below need no approval.',
  coversOrder: 'Orders, reissues and completing an order. Who may order is set below.',
  coversPublish: "None: the orderer's own validation records at once; anyone else's always need an approval.",

  // A row's two inputs
  rowReasonLabel: (p: { action: Markup }) => `${p.action}: reason`,
  approvalsDefault: (p: { count: number }) => `As the default (${p.count})`,
  approvalsNone: 'None: runs at once, announced',
  approvalsCount: (p: { count: number }) => (p.count === 1 ? '1 approval' : `${p.count} approvals`),
  reasonRequired: 'Required: the requester says why',

  // Refused on submission, shown under the row: a count the modal never offered
  approvalsUnknown: 'Choose one of the options offered.',

  // A change of a row, as the audit trail records it (features/policy/change.ts)
  changeClass: (p: { actionClass: string; changes: readonly string[] }) =>
    `${p.actionClass}: ${p.changes.join(', ')}`,
  changeApprovals: (p: { before: string; after: string }) => `approvals ${p.before} → ${p.after}`,
  changeDefault: (p: { count: number }) => `default (${p.count})`,
  changeReasonRequired: 'reason required',
  changeReasonOptional: 'reason optional',
  changeField: (p: { field: string; before: string; after: string }) => `${p.field} ${p.before} → ${p.after}`,
} satisfies TextArea;
