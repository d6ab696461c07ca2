import { describe, expect, it } from 'vitest';
import {
  announcement,
  certificateCard,
  organizationCard,
  savedOrganization,
} from '../../src/features/tls/blocks.js';
import { orderModal, orgModal, reasonModal, reissueModal } from '../../src/features/tls/modals.js';
import { refusalText, refusedNotice } from '../../src/features/tls/preflight.js';
import type { TlsOrganization } from '../../src/registrar/index.js';
import { texts } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  CERT_ID,
  CHANNEL,
  certificate,
  DAY,
  issued,
  NOW,
  ORG_ID,
  OWNER,
  shown,
} from '../helpers/builder-fixtures.js';
import { LONGEST_REFUSALS, REFUSING_CA } from './preflight-fixtures.js';

/** An issued 46-day certificate (the 2029 limit's size), ordered `ago` days before NOW, at midnight UTC. */
const issued46 = (ago: number) => ({
  ...issued(),
  validity_days: 46,
  ordered_at: Date.UTC(2031, 2, 14) - ago * DAY,
});

/**
 * Every certificate and organization card, announcement and modal, the cards also as `/tls show` and `/tls
 * org` send them. Each is rendered in every language at the largest its inputs realistically get and checked
 * by test/helpers/builder-checks.ts (Block Kit limits, no outside markup, German differs, dates as tokens). A
 * builder added later is one line of `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
  ['tls: card, staged order with 100 names', 'message', () => certificateCard(certificate()), DATES],
  ['tls: card, issued', 'message', () => certificateCard(issued(), NOW), DATES],
  // The life left (issue #45): a 46-day certificate 12 days before its end, on its last day, expired.
  ['tls: card, issued, 46-day life', 'message', () => certificateCard(issued46(34), NOW), DATES],
  ['tls: card, issued, last day', 'message', () => certificateCard(issued46(46), NOW + DAY / 24), DATES],
  ['tls: card, issued, expired', 'message', () => certificateCard(issued46(60), NOW), DATES],
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

  // look-ups: the cards as `/tls show` and `/tls org` send them
  ['look-up: /tls show', 'message', () => shown(certificateCard(certificate(), NOW)), DATES],
  ['look-up: /tls show, issued', 'message', () => shown(certificateCard(issued46(34), NOW)), DATES],
  ['look-up: /tls org', 'message', () => shown(organizationCard(organization))],

  // A Renew, Reissue or Complete button the preflight refuses (issue #45): the longest refusals.
  ...LONGEST_REFUSALS.map(
    ([name, refusal]): Entry => [
      `tls: button refused, ${name}`,
      'modal',
      () => refusedNotice('Certificate', CERT_ID, refusalText(refusal, REFUSING_CA)),
    ],
  ),
];

checkBuilders('tls', BUILDERS);

/**
 * The order modal's CAA refusals (issue #45) are field errors, plain text: at their longest inputs (a
 * 253-character name, a CAA value of 255 characters) each stays within a text object's 3,000
 * characters, carries no mrkdwn, and is worded in German too.
 */
describe('tls: the order modal’s CAA refusals', () => {
  const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.de`;
  const record = `${name}. CAA 128 issue "${'v'.repeat(255)}"`;
  const inputs = {
    name,
    ca: 'Sectigo / DigiCert / GlobalSign',
    issuers: 'letsencrypt.org, sectigo.com, globalsign.com, pki.goog, ssl.com, buypass.com',
    methods: 'http-01,tls-alpn-01,email-reply-00,ca-website-change',
    tag: 'abcdefghijklmno',
    record,
  };
  const keys = [
    'caaPreflightError',
    'caaPreflightMethods',
    'caaPreflightMethodsEmail',
    'caaPreflightAccount',
    'caaPreflightCritical',
  ] as const;
  it.each(keys)('%s', (key) => {
    const en = texts('en').diagnostics[key](inputs);
    const de = texts('de').diagnostics[key](inputs);
    for (const said of [en, de]) {
      expect(said.length).toBeLessThanOrEqual(3_000);
      expect(said).toContain(record);
      expect(said).not.toMatch(/[*_`<>]/);
    }
    expect(de).not.toBe(en);
  });
});
