import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** What Regdesk says about dns (see ../index.ts). */
export const dns = {
  // Values shown where the registrar reported nothing, and yes/no fields
  unknown: 'unknown',
  yes: 'yes',
  no: 'no',
  noneReported: '_none reported_',

  // `/dns zone`: usage, and the zone card
  zoneUsage: 'zone DOMAIN',
  zoneSummary: 'SOA, delegation, DNSSEC and record counts by type',
  zoneUsageReply: '`/dns zone DOMAIN`.',
  zoneTitle: (p: { name: string }) => `Zone ${p.name}`,
  activeField: (p: { value: string }) => `*Active*\n${p.value}`,
  zoneDnssecField: (p: { state: string }) => `*DNSSEC*\n${p.state}`,
  zoneDnssecSignedField: (p: { state: string }) => `*DNSSEC*\n${p.state} (signed)`,
  serviceNameserversField: (p: { value: string }) => `*Service nameservers*\n${p.value}`,
  recordCountsField: (p: {
    total: string | number;
    active: string | number;
    auto: string | number;
    manual: string | number;
  }) => `*Records*\n${p.total} (${p.active} active, ${p.auto} auto, ${p.manual} manual)`,
  soaLine: (p: {
    primary: string;
    mailbox: string;
    serial: string | number;
    refresh: string | number;
    retry: string | number;
    expire: string | number;
    minimum: string | number;
    ttl: string | number;
  }) =>
    `*SOA* ${p.primary} ${p.mailbox} serial ${p.serial}, refresh ${p.refresh}, retry ${p.retry}, expire ${p.expire}, minimum ${p.minimum}, TTL ${p.ttl}`,
  delegationSection: (p: { nameservers: string }) => `*Delegation*\n${p.nameservers}`,
  countsByType: (p: { counts: string }) => `By type: ${p.counts}`,

  // `/dns records`: usage, and a page of records
  recordsUsage: 'records DOMAIN [TYPE]',
  recordsSummary: 'records with name, type, TTL, data, auto/manual and active; large zones page',
  recordsUsageReply: '`/dns records DOMAIN [TYPE]`, e.g. `/dns records example.com MX`.',
  recordsTitle: (p: { name: string; total: number }) => `${p.name}: ${count(p.total, 'record')}`,
  recordsOfTypeTitle: (p: { name: string; total: number; type: string }) =>
    `${p.name}: ${count(p.total, `${p.type} record`)}`,
  noRecords: '_No records._',
  recordAuto: 'auto',
  recordManual: 'manual',
  recordInactive: 'inactive',
  recordsLegend: 'name · type · TTL · data · auto/manual',
  previousButton: '◀ Previous',
  previousPageLabel: (p: { name: string }) => `Previous page of ${p.name} records`,
  nextButton: 'Next ▶',
  nextPageLabel: (p: { name: string }) => `Next page of ${p.name} records`,
  pageOf: (p: { page: number; pages: number }) => `Page ${n(p.page)} of ${n(p.pages)}`,

  // `/dns dnssec`: usage, and the answers to enable and verify
  dnssecUsage: 'dnssec DOMAIN [enable|disable|verify|cancel]',
  dnssecSummary: 'DNSSEC state and records; enable, verify, cancel a transition; `disable` needs approval',
  dnssecUsageReply: '`/dns dnssec DOMAIN [enable|disable|verify|cancel]`.',
  dnssecAlreadyActive: (p: { name: string }) => `DNSSEC is already active for ${p.name}.`,
  dnssecEnabledBy: (p: { user: string; name: string; description: string }) =>
    `<@${p.user}> enabled DNSSEC for ${p.name}: ${p.description}`,
  dnssecStillConverging: (p: { name: string; description: string }) =>
    `DNSSEC for ${p.name} is still converging: ${p.description}`,

  /** A DNSSEC state as the registrar reports it (docs/registrar-api.md §2.4); a value it adds later, as sent. */
  dnssecState: (p: { state: string }) => `\`${p.state.replaceAll('`', "'")}\``,

  // The DNSSEC card
  dnssecTitle: (p: { name: string; state: string }) => `DNSSEC for ${p.name}: ${p.state}`,
  dnssecStateField: (p: { state: string }) => `*State*\n${p.state}`,
  dnssecModeField: (p: { mode: string }) => `*Mode*\n${p.mode}`,
  dnssecDesiredField: (p: { state: string }) => `*Desired*\n${p.state}`,
  dnssecLiveField: (p: { state: string }) => `*Live*\n${p.state}`,
  zoneSignedField: (p: { value: string }) => `*Zone signed*\n${p.value}`,
  pendingTransition: ':hourglass_flowing_sand: Pending transition',
  pendingTransitionWith: (p: { fields: Markup }) =>
    `:hourglass_flowing_sand: Pending transition (${p.fields})`,
  desiredRecordsHeading: (p: { count: number }) => `*Desired records* (${n(p.count)})`,
  liveRecordsHeading: (p: { count: number }) => `*Live records* (${n(p.count)})`,
  acceptedRecords: (p: { kinds: string; algorithms: string; min: string | number; provider: string }) =>
    `Accepted: ${p.kinds} · algorithms ${p.algorithms} · at least ${typeof p.min === 'number' ? count(p.min, 'record') : `${p.min} records`} · provider ${p.provider}`,

  // A DNSSEC transition that settled (the follower's outcome)
  dnssecSettledActive: (p: { name: string; state: string; mode: string }) =>
    `:lock: DNSSEC for ${p.name} is now *${p.state}* (mode ${p.mode}).`,
  dnssecSettledInactive: (p: { name: string; state: string; mode: string }) =>
    `:unlock: DNSSEC for ${p.name} is now *${p.state}* (mode ${p.mode}).`,

  // DNSSEC operations: the state in one line, approval summaries, previews and outcomes
  dnssecDescription: (p: { state: string; mode: string; desired: string; live: string }) =>
    `DNSSEC *${p.state}*, mode ${p.mode}, desired ${p.desired}, live ${p.live}`,
  dnssecDescriptionPending: (p: { state: string; mode: string; desired: string; live: string }) =>
    `DNSSEC *${p.state}* (a transition is pending), mode ${p.mode}, desired ${p.desired}, live ${p.live}`,
  dnssecNow: (p: { state: string }) => `DNSSEC is now ${p.state}`,
  dnssecNowConverging: (p: { state: string }) =>
    `DNSSEC is now ${p.state} (the registry is converging; Regdesk follows it)`,
  disableSummary: (p: { domain: string }) => `disable DNSSEC for ${p.domain}`,
  disableConsequence: 'Validating resolvers stop checking signatures; the registry removes the DS records.',
  disableAlreadyInactive: (p: { domain: string }) => `DNSSEC is already inactive for ${p.domain}.`,
  disableRefusedInactive: 'DNSSEC is already inactive',
  externalSummary: (p: { count: number; domain: string }) =>
    `set ${count(p.count, 'external DNSSEC record')} for ${p.domain}`,
  externalSha1Algorithm: (p: { algorithms: string }) =>
    `:warning: Algorithm ${p.algorithms} (RSA/SHA-1) is deprecated by RFC 9905: validators are dropping it. ` +
    'Ask the DNS provider to roll over to algorithm 13 (ECDSAP256SHA256) or 15 (ED25519).',
  dnskeyRecord: (p: { keyTag: string; record: string }) =>
    `DNSKEY (key tag ${p.keyTag}):\n\`\`\`${p.record}\`\`\``,

  // External nameservers: the prompt after `enable`, and the records modal
  externalNeedsRecords:
    'This domain uses external nameservers: DNSSEC needs the DS records from your DNS provider.',
  externalNeedsRecordsFor: (p: { name: string }) =>
    `${p.name} uses external nameservers: DNSSEC needs the DS records from your DNS provider.`,
  enterRecordsButton: 'Enter DNSSEC records',
  externalModalTitle: 'External DNSSEC',
  externalModalSubmit: 'Request approval',
  externalModalIntro: (p: { name: string; kinds: string; algorithms: string; min: number }) =>
    `${p.name} uses external nameservers: paste the records your DNS provider shows. ` +
    `Accepted: ${p.kinds}, algorithms ${p.algorithms}, at least ${n(p.min)}. ` +
    'DS records need digest type 2 (SHA-256): registries refuse SHA-1. ' +
    'Changing them needs a second person’s approval.',
  recordsLabel: 'Records',
  recordsPlaceholder: 'DS 12345 13 2 49FD46E6C4B45C55D4AC…',

  // The records modal: errors shown on the records field
  lineNotARecord: (p: { line: number }) =>
    `Line ${n(p.line)} is not a DS or DNSKEY record in zone-file form.`,
  lineKindNotAccepted: (p: { line: number; kinds: string }) =>
    `Line ${n(p.line)}: the registry accepts only ${p.kinds} records.`,
  lineAlgorithmNotAccepted: (p: { line: number; algorithm: number; accepted: string }) =>
    `Line ${n(p.line)}: algorithm ${p.algorithm} is not accepted (accepted: ${p.accepted}).`,
  lineSha1Digest: (p: { line: number }) =>
    `Line ${n(p.line)}: digest type 1 (SHA-1) is refused by registries. Use the DS with digest type 2 (SHA-256).`,
  tooFewRecords: (p: { min: number }) =>
    `At least ${count(p.min, 'record')} ${p.min === 1 ? 'is' : 'are'} needed.`,
  tooManyRecords: (p: { max: number }) => `At most ${p.max} records.`,
} satisfies TextArea;
