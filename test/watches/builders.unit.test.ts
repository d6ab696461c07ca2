import { findingText, fixText } from '../../src/features/diagnostics/blocks.js';
import { finding } from '../../src/features/diagnostics/findings.js';
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
import { digestOutcome, MAX_PER_COMMAND } from '../../src/features/watches/commands.js';
import { removalRefusal } from '../../src/features/watches/managers.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import type { WatchChange, WatchItem, WatchState } from '../../src/features/watches/store.js';
import type { Domain } from '../../src/registrar/index.js';
import { codeSpan } from '../../src/slack/mrkdwn.js';
import { text } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  CERT_ID,
  CHANNEL,
  certificate,
  DAY,
  FIXES,
  IDN,
  issued,
  NAMESERVERS,
  NOW,
  REGISTRAR_SAID,
  registrable,
  settings,
  users,
  watched,
  watchItem,
} from '../helpers/builder-fixtures.js';

/**
 * Every message, Home section and modal of the watches: lists, digests, alerts and their batches. Each is
 * rendered in every language at the largest its inputs realistically get and checked by
 * test/helpers/builder-checks.ts (Block Kit limits, no outside markup, German differs, dates as tokens). A
 * builder added later is one line of `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
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
  // Every certificate with its life left (issue #45): the longest lines a digest gets.
  [
    'watches: digest, life left',
    'message',
    () => digestMessage(withLife(watched()), changes(), [], 500, NOW, users(30, 'crt-')),
    DATES,
  ],
  ['watches: list, life left', 'message', () => listMessage(withLife(watched()), 500, NOW), DATES],
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
];

/** The certificates as a look after issue #45 saves them: with the start of their (199-day) life. */
function withLife(entries: WatchedEntry[]): WatchedEntry[] {
  return entries.map((entry) =>
    entry.item.kind === 'certificate' && entry.state.expiresAt !== undefined
      ? { ...entry, state: { ...entry.state, startsAt: entry.state.expiresAt - 199 * DAY } }
      : entry,
  );
}

checkBuilders('watches', BUILDERS);
