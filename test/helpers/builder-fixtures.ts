import { domainToASCII } from 'node:url';
import type { KnownBlock } from '@slack/types';
import type { ApprovalRequest, ApprovalState } from '../../src/features/approvals/record.js';
import type { AuditAction, StoredAuditEntry } from '../../src/features/audit/service.js';
import type { KeyStatus } from '../../src/features/keys/service.js';
import { outsiderGroup } from '../../src/features/policy/outsiders.js';
import { changeLines, changeSummary } from '../../src/features/records/blocks.js';
import type { MadeChange, RecordChange, RecordValue } from '../../src/features/records/changes.js';
import { executionOf } from '../../src/features/records/operations.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import type { DigestSettings, WatchItem } from '../../src/features/watches/store.js';
import { BadRequestError, type TlsCertificate } from '../../src/registrar/index.js';
import { KeySpace } from '../../src/shared/redis.js';
import { ShareableCards } from '../../src/slack/share.js';
import { text } from '../../src/text/index.js';
import { approvalRequest } from './approval-request.js';

/**
 * Fixtures the builder tests of several features share (each feature's `builders.unit.test.ts`, checked
 * through builder-checks.ts): names and ids at their longest, text from outside that would be live
 * mrkdwn, and the records several surfaces show (an approval request, a certificate, watches, the audit
 * trail). A fixture only one feature uses lives in that feature's file.
 *
 * Fixtures that hold words (an approval's summary, an alert's text) are made inside the builder's
 * thunk, so they are in the language being rendered, as they are when Regdesk stores them.
 */

// ——— Time and names ——————————————————————————————————————————————————————————————————————————————

/** Every time is in the 2030s, so a date formatted by Regdesk would show a "203x" year outside a token. */
export const NOW = Date.UTC(2031, 2, 14, 9, 30);
export const DAY = 86_400_000;

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
export const registrable = (n = 0) => `${String(n).padStart(3, '0')}${'r'.repeat(60)}.${SUFFIX}`;
export const DOMAIN = registrable();
/** A host name of 253 characters (a certificate's names, a record's owner). */
const longName = (n = 0) => nameUnder(registrable(n));
/** Cyrillic а, then Latin x: a label of mixed scripts, which reviews show in both forms with a warning. */
const idnLabel = (xs: number) => `а${'x'.repeat(xs)}`;
export const IDN = domainToASCII(`${idnLabel(54)}.herøy.møre-og-romsdal.no`);
/** A zone with a 63-character label, and a record name filling the 253 characters under it. */
export const ZONE = `${'z'.repeat(63)}.de`;
export const RECORD_NAME = `${nameUnder(ZONE)}.`;
/** 13 nameservers, the most a referral carries, with long host names. */
export const NAMESERVERS = Array.from(
  { length: 13 },
  (_, i) => `ns${i}.${'h'.repeat(60)}.${'g'.repeat(40)}.example.net`,
);
/** Registrar ids are at most 100 characters (`REGISTRAR_ID`). */
export const CERT_ID = `crt-${'0123456789abcdef'.repeat(6)}`;
export const ORG_ID = `org-${'fedcba9876543210'.repeat(6)}`;
/** A certificate's common name is at most 64 characters (X.509); its other names may be 253. */
export const COMMON_NAME = `www.${'w'.repeat(56)}.de`;
export const CHANNEL = 'C0123456789';
export const users = (count: number, prefix = 'U0') =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(9, '0')}`);
/**
 * Text from outside (a registrar, a zone, a person) that would be live mrkdwn if it reached Slack raw:
 * an `@channel`, a disguised link, a mention, a channel link. Every fixture that carries such text
 * holds it, and no builder may let one through (issue #41).
 */
export const HOSTILE = '<!channel> <https://evil.example/|click> <@U0EVIL> <#C0EVIL> <!subteam^S0EVIL>';
export const LIVE_HOSTILE = /<!channel>|<https:\/\/evil|<@U0EVIL|<#C0EVIL|<!subteam\^S0EVIL/;
/** What a registrar may say back: error messages are quoted up to 300 characters. */
export const REGISTRAR_SAID = `${HOSTILE} The requested operation could not be completed because ${'the registry said no; '.repeat(20)}`;

// ——— Approvals and record changes (approvals, records, Home) —————————————————————————————————————

const IDN_ZONE = domainToASCII(`${idnLabel(54)}.de`);
/** A TXT record of 2,000 characters (the most Regdesk writes) at a 253-character name in an IDN zone. */
export const txt = (fill: string): RecordValue => ({
  type: 'TXT',
  name: `${nameUnder(IDN_ZONE)}.`,
  data: `${HOSTILE} ${fill.repeat(2_000)}`,
  ttl: 604_800,
});
export const recordEdit: RecordChange = { kind: 'edit', id: 123_456_789, before: txt('a'), after: txt('b') };

/** The largest request: a Revert of a record edit, 5 approvals needed, 60 admins named, a 500-character denial. */
export function request(state: ApprovalState, id = 'apr_0123456789abcdef'): ApprovalRequest {
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

export function made(change: RecordChange): MadeChange {
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

// ——— An owner, DNS fixes, a refusal ——————————————————————————————————————————————————————————————

/** A company name far past what a line holds (a domain's owner, a TLS organization). */
export const OWNER = `${HOSTILE} ${'Müller & Söhne Grundstücksverwaltungs- und Beteiligungsgesellschaft mbH & Co. KG '.repeat(3)}`;
/** The fixes findings carry (diagnostics, and the watches' DNS-finding alerts). */
export const FIXES = [
  { name: DOMAIN, type: 'DS', value: `12345 13 2 ${'AB'.repeat(32)}`, where: 'registrar' as const },
  {
    name: DOMAIN,
    type: 'TXT',
    value: `"v=spf1 ${'include:_spf.example.net '.repeat(10)}-all"`,
    where: 'zone' as const,
  },
  { action: 'remove' as const, name: DOMAIN, type: 'TXT', value: '"v=spf1 -all"', where: 'zone' as const },
];
/** What a guest is told it may not do (the policy's notices, Home, error replies). */
export const guestRefusal = () =>
  text.approvals.outsiderCannot({ who: outsiderGroup('guest'), act: text.approvals.actView });

// ——— Certificates (TLS, publishing, watches) —————————————————————————————————————————————————————

/** 100 names of up to 253 characters, each with its validation record. */
const SANS = [COMMON_NAME, ...Array.from({ length: 99 }, (_, i) => longName(i))];
export function certificate(fields: Partial<TlsCertificate> = {}): TlsCertificate {
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
export const issued = () =>
  certificate({ status: 'issued', action_required: false, certificate_pem_available: true });

// ——— Watches (watches, Home) —————————————————————————————————————————————————————————————————————

export const watchItem = (kind: WatchItem['kind'], id: string): WatchItem => ({
  kind,
  id,
  channel: CHANNEL,
  addedBy: 'U0WATCHER',
  addedAt: NOW - 90 * DAY,
});

/** 200 watches: domains and certificates, renewals ordered, failing ones, ones not looked at yet. */
export function watched(): WatchedEntry[] {
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
export const settings = (cadence: DigestSettings['cadence']): DigestSettings => ({
  channel: CHANNEL,
  cadence,
  hour: 23,
  timeZone: 'America/Argentina/ComodRivadavia',
  setBy: 'U0ADMIN',
});

// ——— Keys and the audit trail (keys, audit, Home) ————————————————————————————————————————————————

/** Typed as the `set` case, not `KeyStatus`: importers read `masked`, which the union would hide. */
export const KEY_SET: Extract<KeyStatus, { state: 'set' }> = {
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
  ct_known: 1,
  records_publish: 1,
  records_remove: 1,
  record_change: 1,
  break_glass: 1,
  escalate: 1,
  agent_call: 1,
  agent_revoke: 1,
} satisfies Record<AuditAction, 1>) as AuditAction[];
/**
 * Entries of every action, with what each records at its longest (`/domain audit` shows 30): a policy
 * change its detail, a refusal or failure the reason said (an outcome is shown up to 200 characters).
 */
export const auditEntries = (count: number): StoredAuditEntry[] =>
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

// ——— Look-ups (the cards of domains, DNS, DNSSEC, diagnostics, TLS) ——————————————————————————————

/**
 * A look-up's card as the person gets it: `lookup()` adds a "Share in channel" button (one more block).
 * The card is kept in Redis for the button; a stand-in that only stores is enough to build it.
 */
const cards = new ShareableCards({ set: async () => 'OK' } as never, new KeySpace('test'));
export async function shown(card: { text: string; blocks: KnownBlock[] }) {
  return {
    text: card.text,
    blocks: await cards.withShareButton({ teamId: 'T0001' }, card.text, card.blocks),
  };
}
