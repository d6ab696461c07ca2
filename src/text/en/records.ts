import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { n } from './numbers.js';

/** Record changes: `/dns record add|edit|delete`, Edit/Delete on records pages, Revert (features/records). */
export const records = {
  // Commands
  recordUsage: 'record add DOMAIN | edit DOMAIN RECORD_ID | delete DOMAIN RECORD_ID',
  recordSummary: "Add, change or delete a zone's DNS records (approval by default)",
  recordUsageReply:
    'Usage: `/dns record add DOMAIN`, `/dns record edit DOMAIN RECORD_ID` or `/dns record delete DOMAIN RECORD_ID`. Record ids are listed by `/dns records DOMAIN`.',
  notOffered:
    'This registrar does not offer record changes through its API: nothing was changed. Change the records in its dashboard.',
  notInZone: (p: { id: number; zone: string }) =>
    `No record with ID ${p.id} in ${p.zone}: nothing was changed. \`/dns records\` lists the zone's records with their ids.`,

  // The modals
  addTitle: 'Add DNS record',
  editTitle: 'Edit DNS record',
  deleteTitle: 'Delete DNS record',
  addSubmit: 'Add',
  editSubmit: 'Save',
  deleteSubmit: 'Delete',
  modalIntro: (p: { zone: string }) =>
    `A record in ${p.zone}. Every rule is checked before anything is sent; the change then needs an approval unless the workspace's policy exempts it.`,
  typeLabel: 'Type',
  editingType: (p: { type: string; id: number }) => `*${p.type}* record, ID ${p.id} (the type stays).`,
  nameLabel: 'Name',
  nameHint: (p: { zone: string }) => `www, @ (or empty) for ${p.zone} itself, or a full name in ${p.zone}.`,
  dataLabel: 'Data',
  dataHint:
    'A: 192.0.2.1 · AAAA: 2001:db8::1 · CNAME, ALIAS, NS, MX: a host name · TXT: the text, no quotes needed · SRV: weight port target · CAA: 0 issue "letsencrypt.org"',
  ttlLabel: 'TTL (seconds)',
  ttlHint: '60 to 604800; empty for 3600.',
  priorityLabel: 'Priority',
  priorityHint: 'MX and SRV only (0 to 65535).',
  deleteConfirm: (p: { zone: string; record: string }) =>
    `Delete this record from ${p.zone}?\n${p.record}\nThe zone as it is now is kept, and the outcome offers Revert.`,
  draftGone:
    "This form's copy of the zone is gone (it was opened over an hour ago, or Regdesk's data was lost): close it and run the command again, so the rules see the zone as it is now.",
  editOption: 'Edit',
  deleteOption: 'Delete',

  // Requests and outcomes
  before: (p: { record: string }) => `*Before:* ${p.record}`,
  after: (p: { record: string }) => `*After:* ${p.record}`,
  nothing: '_nothing_',
  summaryAdd: (p: { type: string; name: string; zone: string }) =>
    `add ${p.type} record ${p.name} in ${p.zone}`,
  summaryEdit: (p: { type: string; name: string; zone: string; id: number }) =>
    `change ${p.type} record ${p.name} (ID ${p.id}) in ${p.zone}`,
  summaryDelete: (p: { type: string; name: string; zone: string; id: number }) =>
    `delete ${p.type} record ${p.name} (ID ${p.id}) in ${p.zone}`,
  summaryRevert: (p: { change: string; summary: string }) => `revert change ${p.change}: ${p.summary}`,
  summaryRevertMade: (p: { change: string; made: string; summary: string }) =>
    `revert change ${p.change}, made ${p.made}: ${p.summary}`,
  changedSince: (p: { id: number }) =>
    `Record ${p.id} has changed since this was asked: nothing was done. Look at it again with \`/dns records\` and ask anew.`,
  changeMade: (p: { user: string; summary: string }) => `<@${p.user}>: ${p.summary} — done.`,
  outcome: (p: { summary: string; id: string }) =>
    `Change ${p.id}: ${p.summary}; the zone as it was before is kept, and Revert puts it back`,
  changeKept: (p: { id: string; when: Markup }) =>
    `Change ${p.id}, ${p.when}. The zone's records before it are kept; Revert is a change of its own, under the same rules and policy.`,
  revertButton: 'Revert',
  revertLabel: (p: { id: string }) => `Revert DNS record change ${p.id}`,
  revertGone: (p: { id: string }) =>
    `Change ${p.id} is no longer known to Regdesk (kept 90 days, or its data was lost): nothing was done. Change the record with \`/dns record\`.`,
  servedBy: (p: { nameservers: string }) => `Served by the zone's nameservers: ${p.nameservers}.`,
  cachesMayHold: (p: { seconds: number; until: Markup }) =>
    `Resolvers may still answer from before the change for up to ${n(p.seconds)} s (until ${p.until}).`,
  settled: (p: { summary: string; nameservers: string; seconds: number; until: Markup }) =>
    `The zone's nameservers serve the change (${p.summary}): ${p.nameservers}. Resolvers may still answer from before it for up to ${n(p.seconds)} s (until ${p.until}).`,
  changeUnknown: (p: { id: string }) =>
    `Change ${p.id} is no longer known to Regdesk, so whether the nameservers serve it could not be checked.`,
  showCommand: (p: { domain: string }) => `/dns check ${p.domain}`,
  auditChanged: 'changed a DNS record',
} satisfies TextArea;
