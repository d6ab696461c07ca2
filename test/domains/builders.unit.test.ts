import { checkMessage, type DomainCardData, domainCard } from '../../src/features/domains/blocks.js';
import { type CheckState, planCheck } from '../../src/features/domains/service.js';
import { UpstreamFailedError } from '../../src/registrar/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  DAY,
  DOMAIN,
  IDN,
  NAMESERVERS,
  NOW,
  OWNER,
  registrable,
  shown,
} from '../helpers/builder-fixtures.js';

/**
 * The domain card and `/domain check`, the card also as `/domain info` sends it. Each is rendered in every
 * language at the largest its inputs realistically get and checked by test/helpers/builder-checks.ts (Block
 * Kit limits, no outside markup, German differs, dates as tokens). A builder added later is one line of
 * `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
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

  // look-up: the card as `/domain info` sends it
  ['look-up: /domain info', 'message', () => shown(domainCard(domainData(IDN, -3), NOW)), DATES],
];

checkBuilders('domains', BUILDERS);
