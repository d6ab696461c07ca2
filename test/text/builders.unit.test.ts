import { readFileSync } from 'node:fs';
import { domainToASCII } from 'node:url';
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  approvalMessage,
  authCodeReadyMessage,
  denyModal,
  reminderMessage,
  revealModal,
} from '../../src/features/approvals/blocks.js';
import type { ApprovalRequest, ApprovalState } from '../../src/features/approvals/record.js';
import {
  answeredPrivately,
  panelStatus,
  privateReply,
  retryingMessage,
  threadReply,
  waitingMessage,
} from '../../src/features/assistant/blocks.js';
import { SUGGESTED_PROMPTS } from '../../src/features/assistant/panel.js';
import { MAX_QUESTION_LENGTH } from '../../src/features/assistant/service.js';
import { auditBlocks } from '../../src/features/audit/blocks.js';
import { auditCommand } from '../../src/features/audit/commands.js';
import type { AuditAction, StoredAuditEntry } from '../../src/features/audit/service.js';
import { findingText, fixText, reportCard } from '../../src/features/diagnostics/blocks.js';
import { checkCommand as dnsCheckCommand } from '../../src/features/diagnostics/commands.js';
import {
  type FindingCode,
  finding,
  type NotChecked,
  type Why,
} from '../../src/features/diagnostics/findings.js';
import type { DnsReport } from '../../src/features/diagnostics/service.js';
import { recordsPage, zoneCard } from '../../src/features/dns/blocks.js';
import { recordsCommand, zoneCommand } from '../../src/features/dns/commands.js';
import { dnssecCard } from '../../src/features/dnssec/blocks.js';
import { dnssecCommand } from '../../src/features/dnssec/commands.js';
import { externalPrompt } from '../../src/features/dnssec/external.js';
import { checkMessage, type DomainCardData, domainCard } from '../../src/features/domains/blocks.js';
import { checkCommand } from '../../src/features/domains/check.js';
import { authcodeCommand, infoCommand, nsCommand } from '../../src/features/domains/commands.js';
import { type CheckState, planCheck } from '../../src/features/domains/service.js';
import { type HomeData, homeView, onboardingView, restrictedView } from '../../src/features/home/blocks.js';
import { runningJobsOf } from '../../src/features/home/running.js';
import { checkingModal, doneModal, keyModal } from '../../src/features/keys/blocks.js';
import { keyCommand } from '../../src/features/keys/commands.js';
import type { KeyStatus } from '../../src/features/keys/service.js';
import { outsiderGroup } from '../../src/features/policy/outsiders.js';
import { PermissionRefused } from '../../src/features/policy/permissions.js';
import { DEFAULT_POLICY, Policy, type PolicyField } from '../../src/features/policy/policy.js';
import { policyCommand, policyModal, policyProblem } from '../../src/features/policy/view.js';
import { outcomeMessage } from '../../src/features/publish/blocks.js';
import type { Step } from '../../src/features/publish/plan.js';
import {
  changeCard,
  changeLines,
  changeSummary,
  deleteModal,
  recordModal,
} from '../../src/features/records/blocks.js';
import type { MadeChange, RecordChange, RecordValue } from '../../src/features/records/changes.js';
import { recordCommand } from '../../src/features/records/commands.js';
import { executionOf } from '../../src/features/records/operations.js';
import {
  announcement,
  certificateCard,
  organizationCard,
  savedOrganization,
} from '../../src/features/tls/blocks.js';
import { showCommand } from '../../src/features/tls/commands.js';
import { downloadCommand } from '../../src/features/tls/download.js';
import { orderModal, orgModal, reasonModal, reissueModal } from '../../src/features/tls/modals.js';
import { orderCommand } from '../../src/features/tls/order.js';
import { orgCommand } from '../../src/features/tls/organizations.js';
import { reissueCommand } from '../../src/features/tls/reissue.js';
import { revocationCommand } from '../../src/features/tls/revoke.js';
import type { Alert, AlertCause } from '../../src/features/watches/alert.js';
import { alertMessage, batchMessage } from '../../src/features/watches/alert-blocks.js';
import {
  addedMessage,
  digestMessage,
  homeSection,
  itemName,
  listMessage,
  settingsModal,
} from '../../src/features/watches/blocks.js';
import { lookAtCertificate, lookAtDomain } from '../../src/features/watches/checks.js';
import {
  digestOutcome,
  domainWatchCommand,
  MAX_PER_COMMAND,
  tlsWatchCommand,
} from '../../src/features/watches/commands.js';
import { removalRefusal } from '../../src/features/watches/managers.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import type { DigestSettings, WatchChange, WatchItem, WatchState } from '../../src/features/watches/store.js';
import {
  BadRequestError,
  ConflictError,
  DNS_RECORD_TYPES,
  type DnsRecord,
  type DnssecState,
  type DnsZone,
  type Domain,
  DuplicateRecordError,
  ForbiddenError,
  InternalUpstreamError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  NotOfferedError,
  RateLimitedError,
  TimeoutError,
  type TlsCertificate,
  type TlsOrganization,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { KeySpace, RedisUnavailableError } from '../../src/shared/redis.js';
import { AckGate } from '../../src/slack/ack-gate.js';
import { noticeModal, slackDate } from '../../src/slack/blocks.js';
import { replyForError } from '../../src/slack/error-reply.js';
import { usage } from '../../src/slack/lookup.js';
import { codeSpan } from '../../src/slack/mrkdwn.js';
import { CommandRouter, type SubcommandContext } from '../../src/slack/router.js';
import { ShareableCards } from '../../src/slack/share.js';
import { inLanguage, LOCALES, type Locale, text, texts } from '../../src/text/index.js';
import { approvalRequest } from '../helpers/approval-request.js';
import { blockKitViolations } from '../helpers/block-kit.js';

/**
 * Every builder of a Slack message, modal or Home view, rendered in every language at the largest
 * its inputs realistically get. German runs longer than English, so a limit may break in German
 * only; and a builder that keeps an English copy of its words (read before the language was set)
 * renders German identical to English. A builder added later is one line of `BUILDERS`.
 *
 * Fixtures that hold words (an approval's summary, an alert's text) are made inside the builder's
 * thunk, so they are in the language being rendered, as they are when Regdesk stores them.
 */

type Surface = 'message' | 'modal' | 'home';
/** `dates`: the builder shows times, which must reach Slack as `<!date^…>` tokens (each reader's zone). */
type Traits = { dates?: true };
type Entry = [name: string, surface: Surface, build: () => unknown, traits?: Traits];
const DATES: Traits = { dates: true };

// ——— Time and names ———————————————————————————————————————————————————————————————————————————

/** Every time is in the 2030s, so a date formatted by Regdesk would show a "203x" year outside a token. */
const NOW = Date.UTC(2031, 2, 14, 9, 30);
const DAY = 86_400_000;

/** A 253-character name (the most DNS allows) under `parent`, in labels of up to 63. */
function nameUnder(parent: string): string {
  let name = parent;
  for (const fill of 'nmlk') {
    const room = 253 - name.length - 1;
    if (room > 0) name = `${fill.repeat(Math.min(63, room))}.${name}`;
  }
  return name;
}
/** Herøy in Møre og Romsdal: among the longest public suffixes, so the longest name one can register. */
const SUFFIX = 'xn--hery-ira.xn--mre-og-romsdal-qqb.no';
/** A registrable domain (what domains, zones and watches are) at its longest; `n` varies it. */
const registrable = (n = 0) => `${String(n).padStart(3, '0')}${'r'.repeat(60)}.${SUFFIX}`;
const DOMAIN = registrable();
/** A host name of 253 characters (a certificate's names, a record's owner). */
const longName = (n = 0) => nameUnder(registrable(n));
/** Cyrillic а, then Latin x: a label of mixed scripts, which reviews show in both forms with a warning. */
const idnLabel = (xs: number) => `а${'x'.repeat(xs)}`;
const IDN = domainToASCII(`${idnLabel(54)}.herøy.møre-og-romsdal.no`);
/** A zone with a 63-character label, and a record name filling the 253 characters under it. */
const ZONE = `${'z'.repeat(63)}.de`;
const RECORD_NAME = `${nameUnder(ZONE)}.`;
/** 13 nameservers, the most a referral carries, with long host names. */
const NAMESERVERS = Array.from(
  { length: 13 },
  (_, i) => `ns${i}.${'h'.repeat(60)}.${'g'.repeat(40)}.example.net`,
);
/** Registrar ids are at most 100 characters (`REGISTRAR_ID`). */
const CERT_ID = `crt-${'0123456789abcdef'.repeat(6)}`;
const ORG_ID = `org-${'fedcba9876543210'.repeat(6)}`;
/** A certificate's common name is at most 64 characters (X.509); its other names may be 253. */
const COMMON_NAME = `www.${'w'.repeat(56)}.de`;
const CHANNEL = 'C0123456789';
const users = (count: number, prefix = 'U0') =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(9, '0')}`);
/**
 * Text from outside (a registrar, a zone, a person) that would be live mrkdwn if it reached Slack raw:
 * an `@channel`, a disguised link, a mention, a channel link. Every fixture that carries such text
 * holds it, and no builder may let one through (issue #41).
 */
const HOSTILE = '<!channel> <https://evil.example/|click> <@U0EVIL> <#C0EVIL> <!subteam^S0EVIL>';
const LIVE_HOSTILE = /<!channel>|<https:\/\/evil|<@U0EVIL|<#C0EVIL|<!subteam\^S0EVIL/;
/** What a registrar may say back: error messages are quoted up to 300 characters. */
const REGISTRAR_SAID = `${HOSTILE} The requested operation could not be completed because ${'the registry said no; '.repeat(20)}`;

// ——— Approvals —————————————————————————————————————————————————————————————————————————————————

const IDN_ZONE = domainToASCII(`${idnLabel(54)}.de`);
/** A TXT record of 2,000 characters (the most Regdesk writes) at a 253-character name in an IDN zone. */
const txt = (fill: string): RecordValue => ({
  type: 'TXT',
  name: `${nameUnder(IDN_ZONE)}.`,
  data: `${HOSTILE} ${fill.repeat(2_000)}`,
  ttl: 604_800,
});
const recordEdit: RecordChange = { kind: 'edit', id: 123_456_789, before: txt('a'), after: txt('b') };

/** The largest request: a Revert of a record edit, 5 approvals needed, 60 admins named, a 500-character denial. */
function request(state: ApprovalState, id = 'apr_0123456789abcdef'): ApprovalRequest {
  const decided = state !== 'pending';
  return approvalRequest({
    id,
    operation: 'dns.record',
    target: IDN_ZONE,
    summary: changeSummary(IDN_ZONE, recordEdit, 'ZyXwVuTs'),
    details: changeLines(recordEdit),
    requester: 'U0REQUESTER',
    channel: CHANNEL,
    approverGroup: 'S0APPROVERS',
    askedAdmins: true,
    namedApprovers: users(60),
    createdAt: NOW - DAY,
    expiresAt: NOW + 6 * DAY,
    needed: 5,
    approvals: users(decided ? 5 : 4, 'U1'),
    state,
    decidedBy: 'U0DECIDER',
    reason: `${HOSTILE} ${'Not during the migration window. '.repeat(16)}`.slice(0, 500),
    outcome:
      state === 'failed'
        ? new BadRequestError('dns.recordUpdate', REGISTRAR_SAID).userMessage
        : executionOf(made(recordEdit)).outcome,
  });
}

const STATES: ApprovalState[] = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'denied',
  'expired',
  'withdrawn',
];

/** A policy with every list full and every choice away from the default. */
const FULL_POLICY: Policy = {
  ...DEFAULT_POLICY,
  approvers: users(100),
  approverGroup: 'S0APPROVERS',
  needed: 5,
  expiryHours: 168,
  requesters: 'listed',
  requesterUsers: users(100, 'U2'),
  approvalsChannel: CHANNEL,
  admins: users(100, 'U3'),
  orderers: 'listed',
  ordererUsers: users(100, 'U4'),
  ordersNeedApproval: true,
  recordChangesNeedApproval: true,
  recordChangeExemptTypes: [...DNS_RECORD_TYPES],
  recordChangeExemptUsers: users(100, 'U5'),
  validationPublishing: 'approval',
  assistantAnswers: 'asker',
  assistantLinkHosts: Array.from({ length: 20 }, (_, i) => `docs${i}.${'s'.repeat(40)}.example.com`),
  watchManagers: 'anyone',
};
const ALL_POLICY_FIELDS = Object.keys(Policy.shape) as PolicyField[];

// ——— Records ———————————————————————————————————————————————————————————————————————————————————

function made(change: RecordChange): MadeChange {
  return {
    id: 'AbCdEfGh',
    domain: IDN_ZONE,
    change,
    recordId: 123_456_789,
    by: 'U0REQUESTER',
    at: NOW,
    revertOf: 'ZyXwVuTs',
    before: [],
    cacheSeconds: 604_800,
  };
}
const recordTarget = { draft: 'd'.repeat(20), domain: ZONE, channel: CHANNEL, recordId: 123_456_789 };
const mx: RecordValue = {
  type: 'MX',
  name: RECORD_NAME,
  data: `mail.${ZONE}.`,
  ttl: 604_800,
  priority: 65_535,
};

/** A page of 40 records (`RECORDS_PER_PAGE`), TXT data far past what a line shows, every tenth managed by the registrar. */
const pageRecords: DnsRecord[] = Array.from({ length: 40 }, (_, i) => ({
  id: 1_000_000 + i,
  name: RECORD_NAME,
  type: 'TXT',
  data: `${HOSTILE} ${'q'.repeat(4_000)}`,
  ttl: 604_800,
  auto: i % 10 === 0,
  active: i % 7 !== 0,
}));
const page = (current: number, editable: boolean, records = pageRecords) => ({
  domain: DOMAIN,
  type: current === 1 ? 'TXT' : undefined,
  total: 40_000,
  page: current,
  pages: 1_000,
  records,
  editable,
});

// ——— Domains, DNS, DNSSEC ——————————————————————————————————————————————————————————————————————————

const OWNER = `${HOSTILE} ${'Müller & Söhne Grundstücksverwaltungs- und Beteiligungsgesellschaft mbH & Co. KG '.repeat(3)}`;
const domainData = (domain: string, expiresIn: number): DomainCardData => ({
  domain,
  owner: OWNER,
  registered_at: NOW - 700 * DAY,
  expires_at: NOW + expiresIn * DAY,
  auto_renew: false,
  cancelled: expiresIn < 0,
  dnssec_state: 'pending-activation',
  nameservers: NAMESERVERS,
});

/** `/domain check` of 50 names (`MAX_NAMES`) at their longest, every outcome, 25 more left over. */
function checkRows(inProgress: boolean) {
  const typed = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? `bad_name_${i}..de` : registrable(i)));
  const states: CheckState[] = [
    { kind: 'available' },
    { kind: 'taken', status: 'registered, clientTransferProhibited, serverDeleteProhibited' },
    { kind: 'taken', status: '' },
    { kind: 'unknown', reason: new UpstreamFailedError('domains.availability').userMessage },
  ];
  return planCheck(typed.join(' ')).rows.map((row, i) =>
    row.state.kind === 'invalid'
      ? row
      : {
          ...row,
          state: inProgress && i % 2 === 0 ? ({ kind: 'waiting' } as const) : (states[i % 4] ?? row.state),
        },
  );
}

const zone: DnsZone = {
  domain: DOMAIN,
  origin: `${DOMAIN}.`,
  active: true,
  signed: true,
  using_regfish_nameservers: false,
  delegation_nameservers: NAMESERVERS.map((host) => ({ host })),
  soa: {
    primary_nameserver: NAMESERVERS[0] ?? '',
    mailbox: `hostmaster.${'h'.repeat(60)}.example.net`,
    serial: 2_031_031_401,
    refresh: 86_400,
    retry: 7_200,
    expire: 3_600_000,
    minimum: 3_600,
    ttl: 86_400,
  },
  record_count: 40_000,
  dnssec_state: 'active',
  counts: {
    records_total: 40_000,
    records_active: 39_000,
    records_auto: 1_000,
    records_manual: 39_000,
    by_type: Object.fromEntries(DNS_RECORD_TYPES.map((type) => [type, 4_444])),
  },
  records: [],
};

const dnssecRecord = (kind: 'ds' | 'dnskey', i: number) => ({
  kind,
  key_tag: 10_000 + i,
  flags: 257,
  protocol: 3,
  algorithm: 13,
  digest_type: 2,
  ...(kind === 'ds' ? { digest: 'AB'.repeat(32) } : { public_key: 'K'.repeat(700) }),
});
const dnssecState: DnssecState = {
  dnssec_state: 'pending',
  mode: 'external',
  desired_state: 'enabled',
  live_state: 'disabled',
  capabilities: {
    supported: true,
    provider: 'DENIC eG (registry for .de)',
    accepted_record_kinds: ['ds', 'dnskey'],
    min_records: 1,
    accepted_algorithms: [5, 7, 8, 10, 13, 14, 15, 16],
  },
  desired_records: Array.from({ length: 10 }, (_, i) => dnssecRecord('dnskey', i)),
  live_records: Array.from({ length: 10 }, (_, i) => dnssecRecord('ds', i)),
  using_regfish_nameservers: false,
  zone_signed: true,
  pending_job: {
    id: `job-${'j'.repeat(60)}`,
    kind: 'activate',
    note: 'Waiting for the registry to publish the DS records. '.repeat(4),
    settle_at: (NOW + DAY) / 1000,
    started_at: new Date(NOW - DAY).toISOString(),
    attempts: 17,
  },
};

// ——— Diagnostics —————————————————————————————————————————————————————————————————————————————————

/** Every parameter any finding's sentence takes, at its longest: lists of 13 servers, a token for `date`. */
const FINDING_PARAMS = {
  name: DOMAIN,
  parent: 'de',
  host: NAMESERVERS[0],
  address: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
  answer: 'REFUSED',
  zone: NAMESERVERS.join(', '),
  registrar: NAMESERVERS.join(', '),
  serials: '2031031401, 2031031399, 2031031302, 2031031201',
  date: slackDate(NOW + 3 * DAY),
  state: 'active',
  ca: 'DigiCert Inc.',
  issuers: 'letsencrypt.org, sectigo.com, globalsign.com, pki.goog, ssl.com, buypass.com',
  at: DOMAIN,
  count: 4,
  id: CERT_ID,
  found: 'f'.repeat(200),
  kind: 'unique-local',
  reason: 'noDenial',
};
const FIXES = [
  { name: DOMAIN, type: 'DS', value: `12345 13 2 ${'AB'.repeat(32)}`, where: 'registrar' as const },
  {
    name: DOMAIN,
    type: 'TXT',
    value: `"v=spf1 ${'include:_spf.example.net '.repeat(10)}-all"`,
    where: 'zone' as const,
  },
  { action: 'remove' as const, name: DOMAIN, type: 'TXT', value: '"v=spf1 -all"', where: 'zone' as const },
];
const WHYS: Why[] = [
  { code: 'timeout' },
  { code: 'network', detail: 'connect ECONNREFUSED 2001:db8::53:53' },
  { code: 'answered', rcode: 'SERVFAIL' },
  { code: 'notInAccount' },
  { code: 'registrar', message: REGISTRAR_SAID },
  { code: 'noAnswer' },
  { code: 'limit' },
  { code: 'notPublic', address: 'fe80::ffff:ffff:ffff:ffff%interface-with-a-long-name' },
];
const WHATS: NotChecked['what'][] = [
  { code: 'parent', parent: 'de' },
  { code: 'server', host: NAMESERVERS[1] ?? '', address: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff' },
  { code: 'serverAddress', host: NAMESERVERS[2] ?? '' },
  { code: 'registrar' },
  { code: 'resolver' },
  { code: 'caa', name: DOMAIN },
  { code: 'mail' },
  { code: 'validation', id: CERT_ID },
  { code: 'unasked', count: 1_000 },
];

/** Every finding three times over (far past the 30 shown), every kind of "could not check", 10 pending orders seen. */
function report(clean: boolean): DnsReport {
  const codes = Object.keys(texts('en').diagnosticFindings) as FindingCode[];
  const severities = ['broken', 'risky', 'advice'] as const;
  return {
    domain: IDN,
    checkedAt: NOW,
    findings: clean
      ? []
      : [0, 1, 2].flatMap((round) =>
          codes.map((code, i) =>
            finding(
              severities[(i + round) % 3] ?? 'broken',
              'dnssec',
              code,
              FINDING_PARAMS as never,
              code,
              FIXES,
            ),
          ),
        ),
    notChecked: clean ? [] : WHATS.flatMap((what) => WHYS.map((why) => ({ what, why }))),
    delegation: {
      parent: 'de',
      parentNs: NAMESERVERS,
      zoneNs: NAMESERVERS.map((ns) => `z${ns}`),
      registrarNs: NAMESERVERS,
    },
    dnssec: {
      registrar: { desired: 'enabled', live: 'disabled' },
      verdict: clean ? 'secure' : 'bogus',
      basis: clean ? 'chain' : 'resolvers',
      resolversValidate: clean ? 'yes' : 'no',
      ds: Array.from({ length: 6 }, (_, i) => `${10_000 + i} 13 2 ${'AB'.repeat(32)}`),
    },
    validationVisible: clean
      ? []
      : Array.from({ length: 10 }, (_, i) => ({ id: `${CERT_ID.slice(0, 96)}-${i}`, count: 250 })),
  };
}

// ——— TLS and publishing ——————————————————————————————————————————————————————————————————————————————

/** 100 names of up to 253 characters, each with its validation record. */
const SANS = [COMMON_NAME, ...Array.from({ length: 99 }, (_, i) => longName(i))];
function certificate(fields: Partial<TlsCertificate> = {}): TlsCertificate {
  return {
    id: CERT_ID,
    status: 'pending',
    common_name: COMMON_NAME,
    product: 'SecureSite',
    provider: 'DigiCert (GeoTrust, RapidSSL, Thawte)',
    dns_names: SANS,
    order_state: 'waiting_for_domain_control_validation',
    action_required: true,
    pending_reason: 'domain_control_validation',
    pending_message: `${HOSTILE} Publish the DNS records below. ${'The CA checks them every few minutes. '.repeat(20)}`,
    completion_url: `https://dash.example.net/tls/${CERT_ID}/complete?step=organization&return=${'r'.repeat(100)}`,
    organization_id: ORG_ID,
    validity_days: 397,
    certificate_pem_available: false,
    ordered_at: NOW - 30 * DAY,
    validation: {
      method: 'dns-cname-token',
      dns_records: SANS.map((name) => ({
        name: `_${'0123456789abcdef'.repeat(2)}.${name}`.slice(0, 253),
        type: 'CNAME',
        value: `${'0123456789abcdef'.repeat(4)}.dcv.digicert.com`,
      })),
    },
    ...fields,
  } as TlsCertificate;
}
const issued = () =>
  certificate({ status: 'issued', action_required: false, certificate_pem_available: true });

/** Every contact field at the 200 characters the organization form takes. */
const organization: TlsOrganization = {
  id: ORG_ID,
  organization: OWNER.slice(0, 200),
  status: 'pending_verification',
  usable_for_ordering: false,
  first_name: 'Anna-Katharina Maria Theresia'.padEnd(200, 'e'),
  last_name: 'Freifrau von und zu Hohenlohe-Schillingsfürst'.padEnd(200, 'e'),
  address: 'Hauptstraße 1, Hinterhaus, 3. Obergeschoss links'.padEnd(200, 'e'),
  postal_code: '80331'.padEnd(200, '0'),
  city: 'Garmisch-Partenkirchen'.padEnd(200, 'e'),
  country_code: 'DE',
  phone: '+49 8821 123456789'.padEnd(200, '0'),
  email: `zertifikate@${'e'.repeat(180)}.de`,
};

/** A plan with every kind of step, for all 100 names; the zone hosted elsewhere has 13 servers. */
function steps(): Step[] {
  const records = certificate().validation?.dns_records ?? [];
  const kinds = ['create', 'present', 'replace', 'blocked', 'elsewhere'] as const;
  return records.map((record, i): Step => {
    const existing = {
      id: 42 + i,
      name: record.name,
      type: 'CNAME',
      data: `${'o'.repeat(64)}.dcv.digicert.com`,
    };
    switch (kinds[i % 5]) {
      case 'replace':
        return { action: 'replace', record, zone: DOMAIN, stale: existing };
      case 'blocked':
        return { action: 'blocked', record, zone: DOMAIN, existing: [existing, existing] };
      case 'elsewhere':
        return { action: 'elsewhere', record, zone: DOMAIN };
      case 'present':
        return { action: 'present', record, zone: DOMAIN };
      default:
        return { action: 'create', record, zone: DOMAIN };
    }
  });
}

// ——— Watches ————————————————————————————————————————————————————————————————————————————————————————

const watchItem = (kind: WatchItem['kind'], id: string): WatchItem => ({
  kind,
  id,
  channel: CHANNEL,
  addedBy: 'U0WATCHER',
  addedAt: NOW - 90 * DAY,
});

/** 200 watches: domains and certificates, renewals ordered, failing ones, ones not looked at yet. */
function watched(): WatchedEntry[] {
  return Array.from({ length: 200 }, (_, i): WatchedEntry => {
    const failing = i % 9 === 0;
    if (i % 2 === 0)
      return {
        item: watchItem('domain', registrable(i)),
        state: failing
          ? { failures: 5, failingSince: NOW - 2 * DAY, lastError: REGISTRAR_SAID }
          : {
              failures: 0,
              checkedAt: i % 10 === 2 ? undefined : NOW - DAY,
              expiresAt: NOW + (i % 60) * DAY,
              autoRenew: false,
              cancelled: true,
              status: 'clientTransferProhibited, serverDeleteProhibited',
            },
      };
    return {
      item: watchItem('certificate', `${CERT_ID.slice(0, 96)}${String(i).padStart(4, '0')}`),
      state: failing
        ? { failures: 3, failingSince: NOW - DAY, label: COMMON_NAME }
        : {
            failures: 0,
            checkedAt: NOW - DAY,
            label: COMMON_NAME,
            status: 'issued',
            expiresAt: NOW + (i % 30) * DAY,
            renewal: { id: CERT_ID, placedAt: NOW - 2 * DAY, status: 'pending_validation' },
          },
    };
  });
}
const settings = (cadence: DigestSettings['cadence']): DigestSettings => ({
  channel: CHANNEL,
  cadence,
  hour: 23,
  timeZone: 'America/Argentina/ComodRivadavia',
  setBy: 'U0ADMIN',
});

/** What looks raise, in the language being rendered: each kind of alert the checks and the sweep make. */
function alerts(): { item: WatchItem; alert: Alert }[] {
  const domainItem = watchItem('domain', IDN);
  const domain = (expiresIn: number): Domain => ({
    domain: IDN,
    expires_at: NOW + expiresIn * DAY,
    auto_renew: false,
    cancelled: true,
    nameservers: NAMESERVERS,
  });
  const seen: WatchState = {
    failures: 0,
    checkedAt: NOW - DAY,
    expiresAt: NOW + 400 * DAY,
    autoRenew: true,
    nameservers: NAMESERVERS.map((ns) => `old-${ns}`),
    dnssec: { desired: 'enabled', live: 'enabled', pending: true, pendingSince: NOW - 5 * DAY },
  };
  const drifting = {
    dnssec_state: 'active',
    desired_state: 'enabled',
    live_state: 'disabled',
    desired_records: [],
    live_records: [],
  };
  const pending = { ...drifting, dnssec_state: 'pending', pending_job: { id: 'job-1' } };
  const certItem = watchItem('certificate', CERT_ID);
  const renewal = { id: CERT_ID, placedAt: NOW - 2 * DAY, status: 'pending_validation' };
  const name = `*${itemName(domainItem)}*`;
  const remove = `/domain watch remove ${IDN}`;
  const looks = [
    lookAtDomain(domainItem, seen, domain(5), drifting, NOW),
    lookAtDomain(domainItem, seen, domain(-1), pending, NOW),
    lookAtCertificate(certItem, { failures: 0 }, { ...issued(), expires_at: NOW - DAY }, NOW, renewal),
    lookAtCertificate(
      certItem,
      { failures: 0, status: 'issued' },
      certificate({ status: 'certificate-revoked' }),
      NOW,
    ),
    lookAtCertificate(certItem, { failures: 0 }, certificate(), NOW),
  ];
  // Alerts made outside the checks, as sweep.ts makes them (an item the registrar no longer knows, one
  // it cannot read) and dns-look.ts (a new finding of the live DNS check).
  const sentence = findingText(finding('broken', 'dnssec', 'dsMatchesNoKey', { name: IDN }, 'ds', FIXES));
  const swept: Alert[] = [
    {
      mark: 'dns',
      level: 'warn',
      text: text.watches.dnsFindingAlert({
        name,
        finding: sentence,
        fixes: FIXES.map((fix) => fixText(fix, NAMESERVERS)).join('\n'),
        domain: IDN,
      }),
      buttons: ['show'],
      cause: { kind: 'dns-finding', code: 'dsMatchesNoKey' },
      line: text.watches.dnsFindingLine({ name, finding: sentence }),
    },
    {
      mark: 'not-found',
      level: 'warn',
      text: text.watches.notFoundDomain({ name, remove }),
      buttons: ['show'],
      cause: { kind: 'not-found' },
      line: name,
    },
    {
      mark: 'unreachable',
      level: 'warn',
      text: text.watches.couldNotCheck({ name, times: 5, reason: REGISTRAR_SAID.slice(0, 200) }),
      buttons: ['show'],
      cause: { kind: 'unreachable', code: 'regdesk_registrar_internal', reason: REGISTRAR_SAID },
      line: name,
    },
  ];
  return [
    ...looks.flatMap((look, i) =>
      look.alerts.map((alert) => ({ item: i < 2 ? domainItem : certItem, alert })),
    ),
    ...swept.map((alert) => ({ item: domainItem, alert })),
  ];
}
const alertOf = (kind: AlertCause['kind']) => {
  const found = alerts().find(({ alert }) => alert.cause.kind === kind);
  if (found === undefined) throw new Error(`no ${kind} alert: the fixture no longer raises one`);
  return found;
};
/** 150 items with one cause (past the 100 lines a batch names), domains and certificates as the cause has them. */
function batch(cause: AlertCause) {
  const { item, alert } = alertOf(cause.kind);
  return batchMessage(
    cause,
    Array.from({ length: 150 }, (_, i) => ({
      item: { ...item, id: `${item.id}-${i}` },
      alert: { ...alert, cause },
    })),
  );
}
const alertFor = (kind: AlertCause['kind']) => {
  const { alert, item } = alertOf(kind);
  return alertMessage(alert, item);
};
const ALERT_KINDS: [name: string, kind: AlertCause['kind']][] = [
  ['domain lapses (loud)', 'domain-expiry'],
  ['delegation changed', 'delegation'],
  ['DNSSEC drift', 'dnssec-drift'],
  ['DNSSEC stuck', 'dnssec-stuck'],
  ['certificate expired, renewal ordered', 'certificate-expiry'],
  ['certificate revoked', 'certificate-status'],
  ['certificate stuck', 'certificate-stuck'],
  ['DNS finding', 'dns-finding'],
  ['not found', 'not-found'],
  ['could not check', 'unreachable'],
];
const BATCH_CAUSES: [name: string, cause: AlertCause][] = [
  ['domains expired', { kind: 'domain-expiry', threshold: 0, lapses: true }],
  ['domains lapse', { kind: 'domain-expiry', threshold: 60, lapses: true }],
  ['domains expire', { kind: 'domain-expiry', threshold: 30, lapses: false }],
  ['certificates expired', { kind: 'certificate-expiry', threshold: 0, renewed: true }],
  ['certificates expire', { kind: 'certificate-expiry', threshold: 14, renewed: false }],
  ['delegation', { kind: 'delegation' }],
  ['DNSSEC drift', { kind: 'dnssec-drift' }],
  ['DNSSEC stuck', { kind: 'dnssec-stuck' }],
  ['certificate status', { kind: 'certificate-status', status: 'certificate-revoked' }],
  ['certificates stuck', { kind: 'certificate-stuck', usualDays: 14 }],
  ['not found', { kind: 'not-found' }],
  ['DNS finding', { kind: 'dns-finding', code: 'dsMatchesNoKey' }],
  ['could not check', { kind: 'unreachable', code: 'regdesk_registrar_internal', reason: REGISTRAR_SAID }],
];
/** What changed since the last digest: the words of the checks, 200 of them. */
function changes(): WatchChange[] {
  const looks = alerts();
  const said = [
    text.watches.autoRenewTurnedOff({ name: `*${IDN}*` }),
    text.watches.delegationChanged({
      name: `*${IDN}*`,
      from: NAMESERVERS.map(codeSpan).join(', '),
      to: NAMESERVERS.map(codeSpan).join(', '),
    }),
    ...looks.map(({ alert }) => alert.line),
  ];
  return Array.from({ length: 200 }, (_, i) => ({ at: NOW - i * 60_000, text: said[i % said.length] ?? '' }));
}

// ——— Help and usage ——————————————————————————————————————————————————————————————————————————————————

/**
 * Every command with the subcommands the features register. Help reads only each subcommand's name,
 * usage and summary; `run` (the only user of the features' services) is never called, so they get none.
 */
const none = {} as never;
const router = new CommandRouter(createLogger({ level: 'silent' }), new AckGate())
  .add('/domain', checkCommand(none))
  .add('/domain', infoCommand(none))
  .add('/domain', nsCommand(none))
  .add('/domain', authcodeCommand(none))
  .add('/domain', policyCommand(none, none))
  .add('/domain', auditCommand(none))
  .add('/domain', keyCommand(none, none))
  .add('/domain', domainWatchCommand(none))
  .add('/dns', zoneCommand(none))
  .add('/dns', recordsCommand(none))
  .add('/dns', recordCommand(none))
  .add('/dns', dnssecCommand(none))
  .add('/dns', dnsCheckCommand(none))
  .add('/tls', orderCommand(none))
  .add('/tls', showCommand(none, none))
  .add('/tls', reissueCommand(none))
  .add('/tls', downloadCommand(none, none))
  .add('/tls', revocationCommand('revoke', none))
  .add('/tls', revocationCommand('cancel', none))
  .add('/tls', orgCommand(none, none))
  .add('/tls', tlsWatchCommand(none))
  // `/ask` is registered by registerAssistantHandlers, which needs a Bolt app: its two lines, as there.
  .setFreeText('/ask', {
    usage: () => text.assistant.askUsage,
    summary: () => text.assistant.askSummary({ max: MAX_QUESTION_LENGTH }),
    run: async () => undefined,
  });

/** What `usage()` acks: the reply to a subcommand called without what it needs. */
async function usageReply(syntax: () => string): Promise<unknown> {
  let said: unknown;
  const ack = async (response: unknown) => {
    said = response;
  };
  await usage({ ack } as unknown as SubcommandContext, syntax());
  return said;
}

/**
 * A look-up's card as the person gets it: `lookup()` adds a "Share in channel" button (one more block).
 * The card is kept in Redis for the button; a stand-in that only stores is enough to build it.
 */
const cards = new ShareableCards({ set: async () => 'OK' } as never, new KeySpace('test'));
async function shown(card: { text: string; blocks: KnownBlock[] }) {
  return {
    text: card.text,
    blocks: await cards.withShareButton({ teamId: 'T0001' }, card.text, card.blocks),
  };
}

// ——— Errors ————————————————————————————————————————————————————————————————————————————————————————

const silent = createLogger({ level: 'silent' });
/** An unexpected error's reply carries a random reference: fixed here, so the languages compare on words alone. */
const fixedReference = <T>(reply: T): T =>
  JSON.parse(JSON.stringify(reply).replace(/`[0-9a-f]{8}`/g, '`0badc0de`')) as T;
const slackError = (error: string) => ({ code: 'slack_webapi_platform_error', data: { error } });
const ERRORS: [name: string, error: () => unknown][] = [
  ...[
    'not_in_channel',
    'channel_not_found',
    'is_archived',
    'message_not_found',
    'expired_trigger_id',
    'user_not_in_channel',
  ].map((refusal): [string, () => unknown] => [`Slack refused: ${refusal}`, () => slackError(refusal)]),
  ['Slack rate limit', () => ({ code: 'slack_webapi_rate_limited_error' })],
  ['Redis down', () => new RedisUnavailableError()],
  ['registrar 400', () => new BadRequestError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 401', () => new UnauthorizedError('domains.get', REGISTRAR_SAID)],
  ['registrar 401 on a record write', () => new UnauthorizedError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 403 guard', () => new ForbiddenError('domains.nameservers', REGISTRAR_SAID)],
  ['registrar 403 assistant', () => new ForbiddenError('assistant.search', REGISTRAR_SAID)],
  ['registrar 404', () => new NotFoundError('domains.get', REGISTRAR_SAID)],
  ['registrar 405', () => new NotOfferedError('dns.recordCreate')],
  ['registrar 409', () => new ConflictError('tls.order', REGISTRAR_SAID)],
  ['registrar 417 duplicate', () => new DuplicateRecordError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 429', () => new RateLimitedError('domains.availability', '', 3_600_000)],
  ['registrar 500', () => new InternalUpstreamError('tls.get')],
  ['registrar 502', () => new UpstreamFailedError('tls.order', REGISTRAR_SAID)],
  ['registrar 502 availability', () => new UpstreamFailedError('domains.availability')],
  ['registrar unexpected status', () => new UnexpectedStatusError(418, 'tls.get', REGISTRAR_SAID)],
  ['registrar timeout', () => new TimeoutError('tls.get', 30_000)],
  ['registrar unreachable', () => new NetworkError('tls.get', 'ECONNRESET')],
  [
    'registrar malformed answer',
    () => new MalformedResponseError('tls.get', 'dns_names[3]', 'expected string'),
  ],
  ['permission refused (guest)', () => new PermissionRefused(guestRefusal())],
];
const guestRefusal = () =>
  text.approvals.outsiderCannot({ who: outsiderGroup('guest'), act: text.approvals.actView });

// ——— Home —————————————————————————————————————————————————————————————————————————————————————————————

const KEY_SET: KeyStatus = {
  state: 'set',
  masked: 'rk_live_••••••••••••3f9a',
  updatedBy: 'U0ADMIN',
  updatedAt: NOW - 10 * DAY,
  readable: false,
};
/** Every action of the trail: a new one fails to compile here until it is added. */
const AUDIT_ACTIONS = Object.keys({
  request: 1,
  approve: 1,
  deny: 1,
  withdraw: 1,
  expire: 1,
  execute: 1,
  succeed: 1,
  fail: 1,
  key_set: 1,
  key_replace: 1,
  key_remove: 1,
  policy_change: 1,
  reveal: 1,
  remind: 1,
  uninstall: 1,
  refuse: 1,
  order: 1,
  reissue: 1,
  export: 1,
  watch_add: 1,
  watch_remove: 1,
  watch_settings: 1,
  records_publish: 1,
  records_remove: 1,
  record_change: 1,
} satisfies Record<AuditAction, 1>) as AuditAction[];
/**
 * Entries of every action, with what each records at its longest (`/domain audit` shows 30): a policy
 * change its detail, a refusal or failure the reason said (an outcome is shown up to 200 characters).
 */
const auditEntries = (count: number): StoredAuditEntry[] =>
  Array.from({ length: count }, (_, i) => {
    const action = AUDIT_ACTIONS[i % AUDIT_ACTIONS.length] ?? 'request';
    const at = NOW - i * 3_600_000;
    if (action === 'policy_change')
      return {
        id: `${i}`,
        at,
        action,
        actor: 'U0ADMIN',
        detail: `${HOSTILE} approvers: [] → ${JSON.stringify(users(40))}`,
      };
    return {
      id: `${i}`,
      at,
      action,
      actor: i % 5 === 0 ? 'scheduler' : 'U0ACTOR',
      operation: 'dns.record',
      target: DOMAIN,
      requestId: 'apr_0123456789abcdef',
      ...(['refuse', 'fail', 'succeed', 'deny'].includes(action) ? { outcome: REGISTRAR_SAID } : {}),
    };
  });

/** The running lines as `runningJobsOf` writes them, from queues holding 12 jobs of each kind. */
async function running(): Promise<string[]> {
  const jobs = <T>(data: (i: number) => T, name: string) => ({
    getJobs: async () => Array.from({ length: 12 }, (_, i) => ({ name, data: data(i) })),
  });
  const lines = runningJobsOf(
    jobs((i) => ({ teamId: 'T0001', requestId: `apr_${String(i).padStart(16, '0')}` }), 'execute') as never,
    jobs(
      (i) => ({
        teamId: 'T0001',
        kind: i % 2 ? 'dnssec' : 'certificate',
        resource: registrable(i),
        attempt: 40,
      }),
      'follow',
    ) as never,
  );
  return lines({ teamId: 'T0001' });
}

async function homeData(): Promise<HomeData> {
  const coming = watched();
  return {
    key: KEY_SET,
    pending: Array.from({ length: 12 }, (_, i) => request('pending', `apr_${String(i).padStart(16, '0')}`)),
    running: await running(),
    recent: auditEntries(20),
    watch: { coming, settings: settings('wednesday'), next: NOW + DAY, now: NOW },
  };
}
const emptyHome: HomeData = { key: { state: 'missing' }, pending: [], running: [], recent: [] };

// ——— Assistant ——————————————————————————————————————————————————————————————————————————————————————————

const HOSTS = ['docs.example.org'];
/** The largest answer: far more than one message, 20 sources, truncated by the registrar, from the cache. */
const huge = {
  ok: true as const,
  answer: {
    answer: `## Renewals\n\n${HOSTILE}\n\nSee [Domains](/my/domains).\n\n${'Renewal details follow. '.repeat(12_000)}`,
    truncated: true,
    sources: Array.from({ length: 20 }, (_, i) => ({
      title: `Source ${i} ${'t'.repeat(80)}`,
      url: `/my/help/${i}`,
    })),
    dashboard_url: 'https://dash.regfish.example',
  },
  cachedAt: NOW - 3_600_000,
};
const QUESTION = 'Why does my domain not resolve after I changed the nameservers? '
  .repeat(16)
  .slice(0, 1_000);
const failed = { ok: false as const, reason: REGISTRAR_SAID };

// ——— The table ——————————————————————————————————————————————————————————————————————————————————————————

const BUILDERS: Entry[] = [
  // approvals: the request message for each state, in the channel and in an approver's DM
  ...STATES.flatMap((state): Entry[] => [
    [`approvals: request ${state}, channel`, 'message', () => approvalMessage(request(state)), DATES],
    [
      `approvals: request ${state}, approver's copy`,
      'message',
      () => approvalMessage(request(state), 'approver'),
      DATES,
    ],
  ]),
  ['approvals: reminder', 'message', () => reminderMessage(request('pending')), DATES],
  ['approvals: auth code ready', 'message', () => authCodeReadyMessage(request('succeeded'), IDN)],
  ['approvals: reveal modal', 'modal', () => revealModal(IDN, `A1b2-C3d4-${'E5f6'.repeat(60)}`)],
  [
    'approvals: deny modal',
    'modal',
    () => denyModal(JSON.stringify({ id: 'apr_0123456789abcdef', channel: CHANNEL })),
  ],
  ['approvals: policy modal, default', 'modal', () => policyModal(DEFAULT_POLICY)],
  ['approvals: policy modal, every list full', 'modal', () => policyModal(FULL_POLICY)],
  [
    'approvals: policy modal, every field repaired',
    'modal',
    () =>
      policyModal(
        FULL_POLICY,
        policyProblem({ policy: FULL_POLICY, state: 'repaired', fields: ALL_POLICY_FIELDS }),
      ),
  ],
  [
    'approvals: policy modal, unreadable',
    'modal',
    () => policyModal(DEFAULT_POLICY, policyProblem({ policy: DEFAULT_POLICY, state: 'unreadable' })),
  ],
  ...(['policySaving', 'policySaved'] as const).map(
    (said): Entry => [
      `approvals: policy notice ${said}`,
      'modal',
      () => noticeModal(text.approvals.policyTitle, text.approvals[said], 'cb'),
    ],
  ),
  [
    'approvals: policy notice, refused',
    'modal',
    () => noticeModal(text.approvals.policyTitle, text.approvals.refused({ reason: guestRefusal() }), 'cb'),
  ],

  // assistant
  ['assistant: waiting, asking now', 'message', () => waitingMessage(0)],
  ['assistant: waiting in the queue', 'message', () => waitingMessage(99, 3 * 3_600_000)],
  ['assistant: waiting, time unknown', 'message', () => waitingMessage(99)],
  ['assistant: retrying', 'message', () => retryingMessage(REGISTRAR_SAID)],
  ['assistant: answered privately', 'message', () => answeredPrivately('U0ASKER')],
  ['assistant: answer in the thread', 'message', () => threadReply(huge, 'U0ASKER', HOSTS, NOW)],
  ['assistant: no answer in the thread', 'message', () => threadReply(failed, 'U0ASKER', HOSTS, NOW)],
  ['assistant: private answer (policy)', 'message', () => privateReply(huge, QUESTION, 'policy', HOSTS)],
  ['assistant: private answer (thread gone)', 'message', () => privateReply(huge, QUESTION, 'gone', HOSTS)],
  ['assistant: private failure (policy)', 'message', () => privateReply(failed, QUESTION, 'policy', HOSTS)],
  [
    'assistant: private failure (thread gone)',
    'message',
    () => privateReply(failed, QUESTION, 'gone', HOSTS),
  ],

  // audit
  ['audit: 30 entries of a domain', 'message', () => auditBlocks(auditEntries(30), DOMAIN), DATES],
  ['audit: 30 entries', 'message', () => auditBlocks(auditEntries(30)), DATES],
  ['audit: nothing recorded', 'message', () => auditBlocks([], DOMAIN)],

  // diagnostics
  ['diagnostics: report with every finding', 'message', () => reportCard(report(false)), DATES],
  ['diagnostics: clean report', 'message', () => reportCard(report(true)), DATES],

  // dns
  ['dns: zone card', 'message', () => zoneCard(zone)],
  [
    'dns: zone card, nothing known',
    'message',
    () => zoneCard({ domain: DOMAIN, delegation_nameservers: [], records: [] }),
  ],
  ['dns: records page, first, editable', 'message', () => recordsPage(page(0, true))],
  ['dns: records page of a type, middle, editable', 'message', () => recordsPage(page(1, true))],
  ['dns: records page, last, read-only', 'message', () => recordsPage(page(999, false))],
  ['dns: records page, empty', 'message', () => recordsPage({ ...page(0, true, []), total: 0, pages: 1 })],

  // dnssec
  ['dnssec: card, pending', 'message', () => dnssecCard(IDN, dnssecState), DATES],
  [
    'dnssec: external records prompt',
    'message',
    () =>
      externalPrompt({
        domain: DOMAIN,
        channel: CHANNEL,
        kinds: ['ds', 'dnskey'],
        algorithms: [5, 7, 8, 10, 13, 14, 15, 16],
        minRecords: 2,
      }),
  ],

  // domains
  [
    'domains: card, expired and cancelled (IDN)',
    'message',
    () => domainCard(domainData(IDN, -3), NOW),
    DATES,
  ],
  [
    'domains: card, expiring, auto-renew off',
    'message',
    () => domainCard(domainData(DOMAIN, 12), NOW),
    DATES,
  ],
  ['domains: card, nothing known', 'message', () => domainCard({ domain: DOMAIN }, NOW)],
  ['domains: check, in progress', 'message', () => checkMessage(checkRows(true), 25)],
  ['domains: check, done', 'message', () => checkMessage(checkRows(false), 25)],

  // home
  ['home: full', 'home', () => homeData().then(homeView), DATES],
  ['home: empty', 'home', () => homeView(emptyHome)],
  ['home: onboarding, full', 'home', () => homeData().then(onboardingView), DATES],
  ['home: onboarding, empty', 'home', () => onboardingView({ ...emptyHome, key: { state: 'sandbox' } })],
  ['home: restricted (guest)', 'home', () => restrictedView(guestRefusal())],
  [
    'home: restricted (external)',
    'home',
    () =>
      restrictedView(
        text.approvals.outsiderCannot({ who: outsiderGroup('external'), act: text.approvals.actView }),
      ),
  ],

  // keys
  [
    'keys: modal, key set, last attempt rejected',
    'modal',
    () => keyModal(KEY_SET, text.workspace.keyRejected),
    DATES,
  ],
  [
    'keys: modal, key set, registrar unreachable',
    'modal',
    () => keyModal(KEY_SET, text.workspace.keyUncheckable),
    DATES,
  ],
  ['keys: modal, no key', 'modal', () => keyModal({ state: 'missing' })],
  ['keys: modal, sandbox', 'modal', () => keyModal({ state: 'sandbox' })],
  ['keys: checking', 'modal', () => checkingModal()],
  ['keys: accepted', 'modal', () => doneModal(text.workspace.keyAccepted({ masked: KEY_SET.masked }))],
  ['keys: not an admin', 'modal', () => doneModal(text.workspace.keyChangeNotAdmin)],

  // publish
  ['publish: not ours', 'message', () => outcomeMessage(CERT_ID, { kind: 'not-ours' })],
  [
    'publish: not pending',
    'message',
    () => outcomeMessage(CERT_ID, { kind: 'not-pending', status: 'certificate-revoked' }),
  ],
  ['publish: read-only key', 'message', () => outcomeMessage(CERT_ID, { kind: 'read-only' })],
  ['publish: not offered', 'message', () => outcomeMessage(CERT_ID, { kind: 'not-offered' })],
  [
    'publish: partly written',
    'message',
    () => outcomeMessage(CERT_ID, { kind: 'partial', written: 99, reason: REGISTRAR_SAID }),
  ],
  [
    'publish: plan, nothing written',
    'message',
    () => outcomeMessage(CERT_ID, { kind: 'plan', steps: steps() }, new Map([[DOMAIN, NAMESERVERS]])),
  ],
  [
    'publish: written',
    'message',
    () => outcomeMessage(CERT_ID, { kind: 'written', steps: steps(), written: 60 }),
  ],
  [
    'publish: all present',
    'message',
    () =>
      outcomeMessage(CERT_ID, {
        kind: 'written',
        steps: steps().map((step) => ({ ...step, action: 'present' as const })),
        written: 0,
      }),
  ],

  // records
  ['records: change card', 'message', () => changeCard(made(recordEdit)), DATES],
  [
    'records: change card, served',
    'message',
    () => changeCard(made(recordEdit), { nameservers: NAMESERVERS, at: NOW }),
    DATES,
  ],
  ['records: change card, added', 'message', () => changeCard(made({ kind: 'add', after: txt('c') })), DATES],
  [
    'records: change card, deleted',
    'message',
    () => changeCard(made({ kind: 'delete', id: 1, before: txt('c') })),
    DATES,
  ],
  [
    'records: add modal',
    'modal',
    () => recordModal({ draft: 'd'.repeat(20), domain: ZONE, channel: CHANNEL }),
  ],
  ['records: edit modal, TXT', 'modal', () => recordModal(recordTarget, { ...txt('c'), name: RECORD_NAME })],
  ['records: edit modal, MX', 'modal', () => recordModal(recordTarget, mx)],
  ['records: delete modal', 'modal', () => deleteModal(recordTarget, { ...txt('c'), name: RECORD_NAME })],

  // tls
  ['tls: card, staged order with 100 names', 'message', () => certificateCard(certificate()), DATES],
  ['tls: card, issued', 'message', () => certificateCard(issued()), DATES],
  [
    'tls: card, revoked',
    'message',
    () => certificateCard(certificate({ status: 'certificate-revoked', validation: { dns_records: [] } })),
    DATES,
  ],
  ['tls: ordered', 'message', () => announcement('U0ORDERER', 'order', certificate()), DATES],
  ['tls: reissued', 'message', () => announcement('U0ORDERER', 'reissue', certificate()), DATES],
  ['tls: completed', 'message', () => announcement('U0ORDERER', 'complete', certificate()), DATES],
  ['tls: organization card', 'message', () => organizationCard(organization)],
  ['tls: organization created', 'message', () => savedOrganization(organization, undefined)],
  ['tls: organization updated', 'message', () => savedOrganization(organization, ORG_ID)],
  [
    'tls: organization replaced',
    'message',
    () => savedOrganization(organization, `${ORG_ID.slice(0, 96)}-old`),
  ],
  ['tls: order modal', 'modal', () => orderModal(CHANNEL)],
  ['tls: order modal, renewal', 'modal', () => orderModal(CHANNEL, issued())],
  [
    'tls: reissue modal',
    'modal',
    () => reissueModal({ channel: CHANNEL, draft: '0123456789abcdef01234567' }, issued()),
  ],
  ['tls: new organization modal', 'modal', () => orgModal({ channel: CHANNEL })],
  [
    'tls: edit organization modal',
    'modal',
    () => orgModal({ channel: CHANNEL, orgId: ORG_ID }, organization),
  ],
  [
    'tls: revoke reason modal',
    'modal',
    () => reasonModal({ kind: 'revoke', certificateId: CERT_ID, channel: CHANNEL }),
  ],
  [
    'tls: cancel reason modal',
    'modal',
    () => reasonModal({ kind: 'cancel', certificateId: CERT_ID, channel: CHANNEL }),
  ],

  // watches
  ['watches: list, all', 'message', () => listMessage(watched(), 500, NOW), DATES],
  ['watches: list, domains', 'message', () => listMessage(watched(), 500, NOW, 'domain'), DATES],
  ['watches: list, certificates', 'message', () => listMessage(watched(), 500, NOW, 'certificate'), DATES],
  ['watches: list, no domains', 'message', () => listMessage([], 500, NOW, 'domain')],
  ['watches: list, no certificates', 'message', () => listMessage([], 500, NOW, 'certificate')],
  [
    'watches: digest',
    'message',
    () =>
      digestMessage(
        watched(),
        changes(),
        watched().filter((entry) => entry.state.failures > 0),
        500,
        NOW,
        users(30, 'crt-'),
      ),
    DATES,
  ],
  ['watches: digest, quiet', 'message', () => digestMessage([], [], [], 0, NOW), DATES],
  [
    'watches: home section',
    'home',
    () => homeSection(watched(), settings('wednesday'), NOW + DAY, NOW),
    DATES,
  ],
  ['watches: home section, nothing set', 'home', () => homeSection([], undefined, undefined, NOW)],
  ['watches: settings modal, weekly', 'modal', () => settingsModal(settings('wednesday'))],
  ['watches: settings modal, daily', 'modal', () => settingsModal(settings('daily'))],
  [
    'watches: settings modal, off',
    'modal',
    () => settingsModal({ cadence: 'off', hour: 0, timeZone: 'UTC' }),
  ],
  [
    'watches: added',
    'message',
    () => {
      const names = Array.from({ length: MAX_PER_COMMAND }, (_, i) => registrable(i));
      const refused = names
        .slice(90)
        .map((name) =>
          text.watches.domainNotAdded({ name: codeSpan(name), reason: 'unknown top-level domain' }),
        );
      return addedMessage('domain', names.slice(0, 60), names.slice(60, 90), refused);
    },
  ],
  ['watches: nothing to add', 'message', () => addedMessage('certificate', [], [], [])],
  ...ALERT_KINDS.map(
    ([name, kind]): Entry => [`watches: alert, ${name}`, 'message', () => alertFor(kind), DATES],
  ),
  ...BATCH_CAUSES.map(([name, cause]): Entry => [`watches: batch, ${name}`, 'message', () => batch(cause)]),
  [
    'watches: batch, domains and certificates',
    'message',
    () => {
      const domains = Array.from({ length: 75 }, (_, i) => ({
        ...alertOf('not-found'),
        item: watchItem('domain', registrable(i)),
      }));
      const certs = domains.map((entry, i) => ({
        ...entry,
        item: watchItem('certificate', `${CERT_ID.slice(0, 96)}${i}`),
      }));
      return batchMessage({ kind: 'not-found' }, [...domains, ...certs]);
    },
  ],
  ['watches: digest posted', 'message', () => digestOutcome({ channel: CHANNEL, where: 'channel' })],
  ['watches: digest went to a DM', 'message', () => digestOutcome({ channel: CHANNEL, where: 'dm' })],
  ['watches: digest not posted', 'message', () => digestOutcome({ where: 'nowhere' })],
  [
    'watches: removal refused',
    'message',
    () => removalRefusal(Array.from({ length: 30 }, (_, i) => watchItem('domain', registrable(i)))),
  ],

  // look-ups: the cards above as `/domain info`, `/dns zone|records|dnssec|check`, `/tls show|org` send them
  ['look-up: /domain info', 'message', () => shown(domainCard(domainData(IDN, -3), NOW)), DATES],
  ['look-up: /dns zone', 'message', () => shown(zoneCard(zone))],
  ['look-up: /dns records', 'message', () => shown(recordsPage(page(1, true)))],
  ['look-up: /dns records, read-only', 'message', () => shown(recordsPage(page(1, false)))],
  ['look-up: /dns dnssec', 'message', () => shown(dnssecCard(IDN, dnssecState)), DATES],
  ['look-up: /dns check', 'message', () => shown(reportCard(report(false))), DATES],
  ['look-up: /tls show', 'message', () => shown(certificateCard(certificate())), DATES],
  ['look-up: /tls org', 'message', () => shown(organizationCard(organization))],

  // slack: help, usage, errors and the modals every feature shares
  ['slack: /domain help', 'message', () => router.help('/domain')],
  ['slack: /dns help', 'message', () => router.help('/dns')],
  ['slack: /tls help', 'message', () => router.help('/tls')],
  ['slack: /ask help', 'message', () => router.help('/ask')],
  ['slack: /domain near miss', 'message', () => router.help('/domain', 'polcy')],
  ['slack: /tls unknown subcommand', 'message', () => router.help('/tls', 'x'.repeat(2_000))],
  ['slack: usage, watch add', 'message', () => usageReply(() => text.watches.addDomainsUsage)],
  [
    'slack: usage, too many domains',
    'message',
    () => usageReply(() => text.watches.tooManyDomains({ max: MAX_PER_COMMAND })),
  ],
  ...ERRORS.map(
    ([name, error]): Entry => [
      `slack: error reply, ${name}`,
      'message',
      () => replyForError(error(), silent),
    ],
  ),
  [
    'slack: error reply, unexpected (nothing changed)',
    'message',
    () => fixedReference(replyForError(new Error('boom'), silent, { nothingChanged: true })),
  ],
  [
    'slack: error reply, unexpected',
    'message',
    () => fixedReference(replyForError(new Error('boom'), silent)),
  ],
  [
    'slack: error modal',
    'modal',
    () =>
      noticeModal(
        text.slack.errorModalTitle,
        replyForError(new NotFoundError('tls.get', REGISTRAR_SAID), silent).text,
        'cb',
      ),
  ],
  ['slack: loading modal', 'modal', () => noticeModal(text.tls.completeModalTitle, text.slack.loading, 'cb')],
];

// ——— Checks ——————————————————————————————————————————————————————————————————————————————————————————————

/** What Slack receives: a message's text alone, a list of blocks, or the builder's message or view. */
function asPayload(output: unknown): unknown {
  if (typeof output === 'string') return { text: output };
  if (Array.isArray(output)) return { blocks: output as KnownBlock[] };
  return output;
}

async function render(locale: Locale, build: () => unknown): Promise<unknown> {
  return asPayload(await inLanguage(locale, build));
}

type Json = Record<string, unknown>;
const limits = JSON.parse(
  readFileSync(new URL('../fixtures/block-kit/limits.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, { value: number }>>;
const limit = (section: string, name: string): number => limits[section]?.[name]?.value ?? 0;
const textOf = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as Json).text ?? '') : '';

/**
 * Limits of test/fixtures/block-kit/limits.json the shared helper does not check: options (selects,
 * checkboxes, radio buttons, overflow menus), placeholders, input hints, confirm dialog buttons.
 */
/** Slack's Block Kit reference: plain_text_input `max_length` is at most 3000 (not in limits.json). */
const PLAIN_TEXT_INPUT_MAX = 3000;

function moreViolations(payload: unknown): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        visit(child, `${at}[${i}]`);
      });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const json = node as Json;
    const options = [
      ...(Array.isArray(json.options) ? (json.options as Json[]) : []),
      ...(Array.isArray(json.initial_options) ? (json.initial_options as Json[]) : []),
      ...(typeof json.initial_option === 'object' ? [json.initial_option as Json] : []),
    ];
    if (Array.isArray(json.options) && json.options.length > limit('elements', 'static_select.options.max'))
      problems.push(`${at}: ${json.options.length} options`);
    for (const option of options) {
      const said = textOf(option.text);
      if (said.length > limit('composition', 'option.text.max'))
        problems.push(`${at}: option text ${said.length} > 75: "${said}"`);
      if (String(option.value ?? '').length > limit('composition', 'option.value.max'))
        problems.push(`${at}: option value too long`);
    }
    if (textOf(json.placeholder).length > limit('elements', 'select.placeholder.max'))
      problems.push(`${at}: placeholder ${textOf(json.placeholder).length} > 150`);
    if (json.type === 'input' && textOf(json.hint).length > limit('blocks', 'input.hint.max'))
      problems.push(`${at}: hint too long`);
    // A text input may not start with more than it holds (plain_text_input's max_length, at most 3000).
    if (json.type === 'plain_text_input' && String(json.initial_value ?? '').length > PLAIN_TEXT_INPUT_MAX)
      problems.push(`${at}: initial_value ${String(json.initial_value).length} > ${PLAIN_TEXT_INPUT_MAX}`);
    // A confirmation dialog: its buttons hold 30 characters.
    if (json.deny !== undefined && json.confirm !== undefined) {
      for (const key of ['confirm', 'deny'])
        if (textOf(json[key]).length > limit('composition', `confirm.${key}.max`))
          problems.push(`${at}: confirm ${key} ${textOf(json[key]).length} > 30: "${textOf(json[key])}"`);
    }
    for (const [key, child] of Object.entries(json)) visit(child, `${at}.${key}`);
  };
  visit(payload, '');
  return problems;
}

/** Slack date tokens; the fallback after `|` is what a client without token support shows. */
const DATE_TOKEN = /<!date\^\d+\^[^|>]*\|[^>]*>/g;
const tokens = (payload: unknown): string[] => JSON.stringify(payload).match(DATE_TOKEN) ?? [];
/** A `<!date^` that is no whole token (cut by a length limit, or escaped): Slack shows it raw. */
const brokenTokens = (payload: unknown): string[] =>
  JSON.stringify(payload)
    .replace(DATE_TOKEN, '')
    .match(/(?:<|&lt;)!date\^.{0,60}/g) ?? [];
/**
 * A date Regdesk formatted itself, left once the tokens are gone: a year of the fixtures' decade or
 * a month's name, in either language.
 */
const formattedDates = (payload: unknown): string[] =>
  JSON.stringify(payload)
    .replace(DATE_TOKEN, '')
    .match(
      /\b20[23]\d\b|\b(?:January|February|March|April|June|July|August|September|October|November|December|Januar|Februar|März|Juni|Juli|Oktober|Dezember)\b/g,
    ) ?? [];

describe.each(LOCALES)('every builder within Slack’s Block Kit limits, in %s', (locale) => {
  it.each(BUILDERS)('%s', async (_name, surface, build) => {
    const payload = await render(locale, build);
    expect([...blockKitViolations(payload, surface), ...moreViolations(payload)]).toEqual([]);
  });
});

const NOT_RENDERED = new Set(['initial_value', 'value', 'private_metadata']);

describe('no builder lets markup from outside through, in any language (issue #41)', () => {
  it.each(BUILDERS)('%s', async (_name, _surface, build) => {
    for (const locale of LOCALES) {
      // What Slack renders: an input's initial value and a button's value are data, shown as typed.
      const shown = JSON.stringify(await render(locale, build), (key, value) =>
        NOT_RENDERED.has(key) ? undefined : value,
      );
      expect(shown.match(LIVE_HOSTILE), locale).toBeNull();
    }
  });
});

describe('every builder speaks the language of the moment', () => {
  // Every builder has words of its own (headers, buttons, footers): none is data alone, so none is skipped.
  it.each(BUILDERS)('%s differs in German', async (_name, _surface, build) => {
    const [english, german] = await Promise.all([render('en', build), render('de', build)]);
    expect(JSON.stringify(german)).not.toBe(JSON.stringify(english));
  });
});

describe('dates stay Slack date tokens in every language (docs/requirements.md R32)', () => {
  // German lines are longer, so a message cut to Slack's limits may hold fewer of them, and fewer
  // tokens, than in English: each language is judged on its own.
  it.each(BUILDERS.filter(([, , , traits]) => traits?.dates === true))(
    '%s',
    async (_name, _surface, build) => {
      for (const locale of LOCALES) {
        const payload = await render(locale, build);
        expect(tokens(payload).length, locale).toBeGreaterThan(0);
        expect(brokenTokens(payload), locale).toEqual([]);
        expect(formattedDates(payload), locale).toEqual([]);
      }
    },
  );
});

describe('the assistant’s words outside Block Kit', () => {
  it('thread statuses follow the language', () => {
    const said = (locale: Locale) =>
      inLanguage(locale, () => [
        panelStatus.waiting(0, 90_000),
        panelStatus.waiting(12, 90_000),
        panelStatus.working(),
        panelStatus.retrying(),
      ]);
    const english = said('en');
    expect(said('de').filter((line, i) => line === english[i])).toEqual([]);
  });

  it('suggested prompts exist in each language, at most four (assistant.threads.setSuggestedPrompts)', () => {
    for (const locale of LOCALES) expect(SUGGESTED_PROMPTS[locale].prompts.length).toBeLessThanOrEqual(4);
    expect(SUGGESTED_PROMPTS.de).not.toEqual(SUGGESTED_PROMPTS.en);
  });
});
