import { dnssecCard } from '../../src/features/dnssec/blocks.js';
import { externalPrompt } from '../../src/features/dnssec/external.js';
import type { DnssecState } from '../../src/registrar/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { CHANNEL, DAY, DOMAIN, IDN, NOW, shown } from '../helpers/builder-fixtures.js';

/**
 * The DNSSEC card and the prompt for external records, the card also as `/dns dnssec` sends it. Each is
 * rendered in every language at the largest its inputs realistically get and checked by
 * test/helpers/builder-checks.ts (Block Kit limits, no outside markup, German differs, dates as tokens). A
 * builder added later is one line of `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
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

  // look-up: the card as `/dns dnssec` sends it
  ['look-up: /dns dnssec', 'message', () => shown(dnssecCard(IDN, dnssecState)), DATES],
];

checkBuilders('dnssec', BUILDERS);
