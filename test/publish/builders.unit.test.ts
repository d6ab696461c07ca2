import { outcomeMessage } from '../../src/features/publish/blocks.js';
import type { Step } from '../../src/features/publish/plan.js';
import { checkBuilders, type Entry } from '../helpers/builder-checks.js';
import { CERT_ID, certificate, DOMAIN, NAMESERVERS, REGISTRAR_SAID } from '../helpers/builder-fixtures.js';

/**
 * Every outcome of publishing validation records. Each is rendered in every language at the largest its
 * inputs realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside
 * markup, German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

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

const BUILDERS: Entry[] = [
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
];

checkBuilders('publish', BUILDERS);
