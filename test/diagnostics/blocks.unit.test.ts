import { describe, expect, it } from 'vitest';
import { reportCard } from '../../src/features/diagnostics/blocks.js';
import { finding } from '../../src/features/diagnostics/findings.js';
import type { DnsReport } from '../../src/features/diagnostics/service.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

const long = 'n'.repeat(60);

function report(findings: number, notChecked: number): DnsReport {
  return {
    domain: 'example.com',
    checkedAt: Date.UTC(2026, 10, 27),
    findings: Array.from({ length: findings }, (_, i) =>
      finding('broken', 'dnssec', 'dsMatchesNoKey', { name: `${long}${i}.example.com` }, String(i), [
        {
          name: `${long}.example.com`,
          type: 'DS',
          value: `12345 13 2 ${'AB'.repeat(32)}`,
          where: 'registrar',
        },
      ]),
    ),
    notChecked: Array.from({ length: notChecked }, (_, i) => ({
      what: { code: 'server' as const, host: `ns${i}.${long}.example.net`, address: `192.0.2.${i % 250}` },
      why: { code: 'timeout' as const },
    })),
    delegation: {
      parent: 'com',
      parentNs: Array.from({ length: 13 }, (_, i) => `ns${i}.${long}.example.net`),
      zoneNs: [],
      registrarNs: [],
    },
    dnssec: {
      registrar: { desired: 'enabled', live: 'enabled' },
      verdict: 'bogus',
      basis: 'chain',
      resolversValidate: 'no',
      ds: ['1 13 2 AA'],
    },
    validationVisible: [{ id: 'cert-1', count: 2 }],
  };
}

describe('the /dns check card within Slack’s limits', () => {
  it('keeps a long report within Block Kit limits and says how many findings it left out', () => {
    const card = reportCard(report(80, 60));
    assertWithinBlockKitLimits({ text: card.text, blocks: card.blocks }, 'message');
    expect(card.blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(card.blocks)).toContain('50 more');
  });

  it('says a clean report is clean, with the facts', () => {
    const card = reportCard(report(0, 0));
    assertWithinBlockKitLimits({ text: card.text, blocks: card.blocks }, 'message');
    expect(card.text).toContain('no findings');
    expect(JSON.stringify(card.blocks)).toContain('bogus');
  });
});
