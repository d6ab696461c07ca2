import { recordsPage, zoneCard } from '../../src/features/dns/blocks.js';
import { DNS_RECORD_TYPES, type DnsRecord, type DnsZone } from '../../src/registrar/index.js';
import { checkBuilders, type Entry } from '../helpers/builder-checks.js';
import { DOMAIN, HOSTILE, NAMESERVERS, RECORD_NAME, shown } from '../helpers/builder-fixtures.js';

/**
 * The zone card and the records pages, also as `/dns zone` and `/dns records` send them. Each is rendered in
 * every language at the largest its inputs realistically get and checked by test/helpers/builder-checks.ts
 * (Block Kit limits, no outside markup, German differs, dates as tokens). A builder added later is one line
 * of `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
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

  // look-ups: the cards as `/dns zone` and `/dns records` send them
  ['look-up: /dns zone', 'message', () => shown(zoneCard(zone))],
  ['look-up: /dns records', 'message', () => shown(recordsPage(page(1, true)))],
  ['look-up: /dns records, read-only', 'message', () => shown(recordsPage(page(1, false)))],
];

checkBuilders('dns', BUILDERS);
