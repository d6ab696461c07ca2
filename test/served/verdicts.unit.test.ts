import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/features/watches/alert.js';
import { alertMessage, batchMessage } from '../../src/features/watches/alert-blocks.js';
import { judgeServed, ROLLOUT_GRACE_MS } from '../../src/features/watches/served-judge.js';
import type { WatchItem } from '../../src/features/watches/store.js';
import type { LeafIdentity } from '../../src/served/leaf.js';
import type { ServedCheck } from '../../src/served/probe.js';
import { inLanguage, type Locale, markup, text } from '../../src/text/index.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

const DAY = 86_400_000;
const now = 1_800_000_000_000;
const leaf = (serial: string, notBefore: number, notAfter: number, spki = serial): LeafIdentity => ({
  spkiSha256: spki,
  serial,
  notBefore,
  notAfter,
  issuer: 'CN=Test CA',
});
const served = (l: LeafIdentity, address = '192.0.2.1'): ServedCheck => ({
  name: 'www.example.com',
  address,
  port: 443,
  kind: 'served',
  leaf: l,
});

describe('served verdicts (features/watches/served-judge.ts)', () => {
  const watched = leaf('NEW', now - 2 * DAY, now + 45 * DAY);

  it('gives a newer certificate a day to reach its servers, then calls the older one stale', () => {
    const old = leaf('OLD', now - 300 * DAY, now + 65 * DAY);
    const fresh = leaf('NEW', now - ROLLOUT_GRACE_MS / 2, now + 45 * DAY);
    expect(judgeServed([served(old)], fresh, fresh, now).stale).toHaveLength(0);
    expect(judgeServed([served(old)], watched, watched, now).stale).toEqual([
      { check: served(old), why: 'older' },
    ]);
  });

  it('calls one that ends before the watched certificate stale at once, and the watched one current', () => {
    const soon = leaf('SOON', now - 40 * DAY, now + 6 * DAY);
    const verdicts = judgeServed([served(soon), served(watched, '192.0.2.2')], watched, watched, now);
    expect(verdicts.stale.map((s) => s.why)).toEqual(['sooner']);
    expect(verdicts.current).toHaveLength(1);
  });

  it('counts the watched certificate as stale once its renewal has been out a day', () => {
    const renewal = leaf('RENEWED', now - 1.5 * DAY, now + 90 * DAY);
    expect(judgeServed([served(watched)], watched, renewal, now).stale[0]?.why).toBe('older');
    expect(judgeServed([served(renewal)], watched, renewal, now).current).toHaveLength(1);
  });

  it('never counts what could not be asked as current', () => {
    const checks: ServedCheck[] = [
      { name: 'a.example.com', address: '192.0.2.1', port: 443, kind: 'unchecked', reason: 'timeout' },
      { name: 'b.example.com', address: '10.0.0.1', kind: 'not-public', addressKind: 'private' },
      { name: 'c.example.com', kind: 'unresolved', reason: 'dns' },
    ];
    const verdicts = judgeServed(checks, watched, watched, now);
    expect(verdicts.current).toEqual([]);
    expect(verdicts.unchecked).toHaveLength(3);
  });
});

describe('served and CT alerts stay within Slack limits in English and German', () => {
  const certificate: WatchItem = {
    kind: 'certificate',
    id: 'cert-1',
    channel: 'C1',
    addedBy: 'U1',
    addedAt: now,
  };
  const zone: WatchItem = { kind: 'domain', id: 'example.com', channel: 'C1', addedBy: 'U1', addedAt: now };
  const date = markup(`<!date^${now / 1000}^{date_long}|x>`);
  const alerts = (): Array<{ alert: Alert; item: WatchItem }> => [
    {
      item: certificate,
      alert: {
        mark: 'a',
        level: 'warn',
        text: text.served.staleOlder({
          name: '*www.example.com*',
          where: '`192.0.2.1:443`',
          serial: '`01`',
          id: '`cert-1`',
          issued: date,
        }),
        buttons: ['show'],
        cause: { kind: 'served-stale', why: 'older' },
        line: text.served.staleLine({ name: '*www*', where: '`192.0.2.1:443`', id: '`cert-1`' }),
      },
    },
    {
      item: zone,
      alert: {
        mark: 'b',
        level: 'warn',
        text: text.served.ctForeign({
          zone: '*example.com*',
          issuer: `Let's Encrypt ${'x'.repeat(190)}`,
          names: Array.from({ length: 5 }, (_, i) => `\`n${i}.${'l'.repeat(60)}.example.com\``).join(', '),
          from: date,
          until: date,
        }),
        buttons: ['known'],
        cause: { kind: 'ct-foreign', issuance: 'f'.repeat(64) },
        line: 'x',
        issuance: 'f'.repeat(64),
      },
    },
  ];

  for (const locale of ['en', 'de'] as Locale[]) {
    it(`alone and batched (${locale})`, () => {
      inLanguage(locale, () => {
        for (const { alert, item } of alerts()) {
          const message = alertMessage(alert, item);
          assertWithinBlockKitLimits(message, 'message');
          const batch = batchMessage(
            alert.cause,
            Array.from({ length: 150 }, () => ({ alert, item })),
          );
          assertWithinBlockKitLimits(batch, 'message');
        }
        const known = JSON.stringify(alertMessage(alerts()[1]?.alert as Alert, zone));
        expect(known).toContain(`example.com|${'f'.repeat(64)}`);
        expect(known).toContain(text.served.buttonMarkKnown);
        for (const cause of [
          { kind: 'served-stale', why: 'sooner' },
          { kind: 'served-unchecked' },
          { kind: 'ct-unchecked' },
        ] as const)
          assertWithinBlockKitLimits(
            batchMessage(cause, [{ alert: alerts()[0]?.alert as Alert, item: certificate }]),
            'message',
          );
      });
    });
  }
});
