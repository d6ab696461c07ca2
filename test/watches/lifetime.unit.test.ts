import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lifeLeftLine } from '../../src/features/tls/blocks.js';
import { certificateLifetime } from '../../src/features/tls/lifetime.js';
import { lookAtCertificate, thresholdsOf } from '../../src/features/watches/checks.js';
import type { WatchItem } from '../../src/features/watches/store.js';
import {
  CERTIFICATE_THRESHOLDS,
  certificateThresholds,
  crossedCertificateThreshold,
  crossedThreshold,
  DOMAIN_THRESHOLDS,
} from '../../src/features/watches/thresholds.js';
import type { TlsCertificate } from '../../src/registrar/index.js';
import { DAY_MS, daysUntil, lifeLeft } from '../../src/shared/days.js';
import { inLanguage } from '../../src/text/index.js';

const DAY = DAY_MS;
/** Sunday 2026-03-29 01:00 UTC: Europe/Berlin moves from CET to CEST (02:00 → 03:00 local). */
const BERLIN_SPRING = Date.UTC(2026, 2, 29, 1);
/** Sunday 2026-10-25 01:00 UTC: Europe/Berlin moves back from CEST to CET (03:00 → 02:00 local). */
const BERLIN_AUTUMN = Date.UTC(2026, 9, 25, 1);

describe('daysUntil: UTC calendar days, whatever the host time zone (src/shared/days.ts)', () => {
  it('counts calendar days: the same UTC day is 0, one millisecond past UTC midnight is the next day', () => {
    const midnight = Date.UTC(2026, 5, 1);
    expect(daysUntil(midnight, midnight)).toBe(0);
    expect(daysUntil(midnight + DAY - 1, midnight)).toBe(0);
    expect(daysUntil(midnight + DAY, midnight + DAY - 1)).toBe(1);
    expect(daysUntil(midnight - 1, midnight)).toBe(-1);
    expect(daysUntil(midnight + 30 * DAY + 23 * 3_600_000, midnight + 1)).toBe(30);
  });

  it('is not moved by a DST change in Europe/Berlin: 23- and 25-hour local days count as one UTC day each', () => {
    // Berlin local 2026-03-28 23:30 CET is 22:30 UTC; 2026-03-29 23:30 CEST is 21:30 UTC: one local day
    // apart (23 hours), and one UTC day apart too. A local-time count would give 1 only in Berlin.
    expect(daysUntil(Date.UTC(2026, 2, 29, 21, 30), Date.UTC(2026, 2, 28, 22, 30))).toBe(1);
    // Around the spring change: 24-hour steps from 23:59 UTC before it stay one UTC day apart.
    for (let i = -3; i <= 3; i += 1) {
      const now = BERLIN_SPRING + i * DAY;
      expect(daysUntil(now + DAY, now)).toBe(1);
      expect(daysUntil(now + 14 * DAY, now)).toBe(14);
    }
    // Around the autumn change (a 25-hour local day): the count across it is still whole UTC days.
    expect(daysUntil(Date.UTC(2026, 9, 26, 0, 0), Date.UTC(2026, 9, 24, 23, 59))).toBe(2);
    expect(daysUntil(BERLIN_AUTUMN + 7 * DAY, BERLIN_AUTUMN - 7 * DAY)).toBe(14);
  });

  it('agrees with the UTC dates of ISO strings, for any two instants (the host zone plays no part)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (at, now) => {
          const utcDate = (ms: number) => Date.parse(new Date(ms).toISOString().slice(0, 10));
          expect(daysUntil(at, now)).toBe(Math.round((utcDate(at) - utcDate(now)) / DAY));
        },
      ),
    );
  });

  it('lifeLeft: whole days left of the life, as a percentage of it', () => {
    const startsAt = Date.UTC(2026, 3, 1, 12);
    const expiresAt = startsAt + 46 * DAY;
    expect(lifeLeft({ startsAt, expiresAt }, expiresAt - 12 * DAY)).toEqual({
      daysLeft: 12,
      lifeDays: 46,
      percentLeft: 26,
    });
    expect(lifeLeft({ startsAt, expiresAt }, expiresAt + DAY).daysLeft).toBe(0);
    expect(lifeLeft({ startsAt, expiresAt }, startsAt - 5 * DAY).percentLeft).toBe(100);
  });
});

/** The day counts at which a certificate of `life` days is alerted, looked at every few hours. */
function alertsOverLife(life: number): { daysLeft: number; days: number; slot: number }[] {
  const thresholds = certificateThresholds(life);
  const startsAt = Date.UTC(2026, 3, 1, 13, 17);
  const expiresAt = startsAt + life * DAY;
  const marked = new Set<number>();
  const raised: { daysLeft: number; days: number; slot: number }[] = [];
  for (let now = startsAt; now <= expiresAt + DAY; now += 6 * 3_600_000) {
    const crossed = crossedCertificateThreshold(thresholds, expiresAt, now);
    if (crossed === undefined || marked.has(crossed.slot)) continue;
    marked.add(crossed.slot);
    raised.push({ daysLeft: daysUntil(expiresAt, now), ...crossed });
  }
  return raised;
}

describe('certificate thresholds scale with the issued lifetime (issue #45, docs/requirements.md R37)', () => {
  it('are the fixed 30/14/7/1/0 for a long life or an unknown one; domains keep theirs', () => {
    const fixed = CERTIFICATE_THRESHOLDS.map((days) => ({ days, slot: days }));
    expect(certificateThresholds(undefined)).toEqual(fixed);
    expect(certificateThresholds(398)).toEqual(fixed);
    expect(certificateThresholds(199)).toEqual(fixed);
    expect(certificateThresholds(99).map((t) => t.days)).toEqual([30, 14, 7, 1, 0]);
    expect(DOMAIN_THRESHOLDS).toEqual([60, 30, 14, 7, 1, 0]);
  });

  it('a 46-day certificate: 16, 8, 4 and 1 day(s) before its end, and expired', () => {
    expect(certificateThresholds(46)).toEqual([
      { days: 16, slot: 30 },
      { days: 8, slot: 14 },
      { days: 4, slot: 7 },
      { days: 1, slot: 1 },
      { days: 0, slot: 0 },
    ]);
    expect(certificateThresholds(6)).toEqual([
      { days: 2, slot: 30 },
      { days: 1, slot: 1 },
      { days: 0, slot: 0 },
    ]);
  });

  const lifetimes = fc.oneof(fc.constantFrom(398, 199, 99, 46, 6), fc.integer({ min: 1, max: 400 }));

  it('property: few alerts, strictly descending, none above the life, the first with a third of it left', () => {
    fc.assert(
      fc.property(lifetimes, (life) => {
        const thresholds = certificateThresholds(life);
        const days = thresholds.map((t) => t.days);
        expect(days.length).toBeLessThanOrEqual(5);
        for (let i = 1; i < days.length; i += 1) expect(days[i]).toBeLessThan(days[i - 1] ?? 0);
        for (const d of days) expect(d).toBeLessThanOrEqual(life);
        expect(days.at(-1)).toBe(0);
        // Slots are distinct, so each is marked once (the mark names the slot).
        expect(new Set(thresholds.map((t) => t.slot)).size).toBe(thresholds.length);
        // Up to 90 days the first alert comes with at least a third of the life left; above, the
        // 30-day cap applies (30 days is less than a third of a 91-day or longer life).
        const first = days[0] ?? 0;
        if (life <= 90) expect(first).toBeGreaterThanOrEqual(life / 3);
        else expect(first).toBe(30);
        // Never later in the life than the fixed slot it stands for: a list that changes never skips.
        for (const t of thresholds) expect(t.days).toBeLessThanOrEqual(t.slot);
      }),
    );
  });

  it('property: looked at every 6 hours over the life, at most 5 alerts, each raised once, in order', () => {
    fc.assert(
      fc.property(lifetimes, (life) => {
        const raised = alertsOverLife(life);
        expect(raised.length).toBeLessThanOrEqual(5);
        expect(raised.at(-1)?.days).toBe(0);
        for (let i = 1; i < raised.length; i += 1)
          expect(raised[i]?.daysLeft ?? 0).toBeLessThan(raised[i - 1]?.daysLeft ?? 0);
        const first = raised[0];
        if (life <= 90 && first !== undefined && first.days > 0)
          expect(first.daysLeft).toBeGreaterThanOrEqual(Math.ceil(life / 3));
      }),
      { numRuns: 60 },
    );
  });

  it('crossing counts calendar days: a threshold is crossed on the UTC day the count reaches it', () => {
    const expiresAt = Date.UTC(2026, 5, 30, 6);
    expect(crossedThreshold([30, 14, 7, 1, 0], expiresAt, Date.UTC(2026, 4, 30, 23, 59))).toBeUndefined();
    expect(crossedThreshold([30, 14, 7, 1, 0], expiresAt, Date.UTC(2026, 4, 31, 0, 0))).toBe(30);
    expect(crossedThreshold([30, 14, 7, 1, 0], expiresAt, Date.UTC(2026, 5, 30, 5))).toBe(1);
    expect(crossedThreshold([30, 14, 7, 1, 0], expiresAt, expiresAt)).toBe(0);
  });
});

const item: WatchItem = { kind: 'certificate', id: 'crt-46', channel: 'C1', addedBy: 'U1', addedAt: 0 };
const ORDERED = Date.UTC(2029, 3, 1, 10);
const cert46 = (fields: Partial<TlsCertificate> = {}): TlsCertificate => ({
  id: 'crt-46',
  status: 'issued',
  common_name: 'shop.example.com',
  dns_names: ['shop.example.com'],
  validity_days: 46,
  ordered_at: ORDERED / 1000,
  ...fields,
});

describe('lookAtCertificate with a lifetime', () => {
  it('reads the life from not-before when sent, else from the order date', () => {
    expect(certificateLifetime(cert46())).toEqual({ startsAt: ORDERED, expiresAt: ORDERED + 46 * DAY });
    const notBefore = ORDERED + 2 * DAY;
    expect(
      certificateLifetime(
        cert46({ not_before: new Date(notBefore).toISOString(), not_after: ORDERED + 48 * DAY }),
      ),
    ).toEqual({ startsAt: notBefore, expiresAt: ORDERED + 48 * DAY });
    expect(certificateLifetime(cert46({ ordered_at: undefined }))).toBeUndefined();
    expect(thresholdsOf(cert46()).map((t) => t.days)).toEqual([16, 8, 4, 1, 0]);
  });

  it('raises nothing at 30 days left, the first warning at 16, marked by its slot', () => {
    const expiresAt = ORDERED + 46 * DAY;
    expect(lookAtCertificate(item, { failures: 0 }, cert46(), expiresAt - 30 * DAY).alerts).toEqual([]);
    const look = lookAtCertificate(item, { failures: 0 }, cert46(), expiresAt - 15.5 * DAY);
    expect(look.alerts).toHaveLength(1);
    expect(look.alerts[0]?.mark).toBe('certificate:crt-46:expiry:30:2029-05-17');
    expect(look.alerts[0]?.cause).toEqual({ kind: 'certificate-expiry', threshold: 16, renewed: false });
    expect(look.state.startsAt).toBe(ORDERED);
  });

  it('a list changed from the fixed days keeps the marks: the slot already raised is not raised again', () => {
    // Before issue #45 the 46-day certificate was raised at 30 days as slot 30; with its lifetime
    // known the first warning (16 days) is slot 30 too: the same mark, so SET NX keeps it quiet,
    // and the next (8 days, slot 14) still comes.
    const expiresAt = ORDERED + 46 * DAY;
    const old = crossedCertificateThreshold(
      certificateThresholds(undefined),
      expiresAt,
      expiresAt - 29 * DAY,
    );
    const now = lookAtCertificate(item, { failures: 0 }, cert46(), expiresAt - 15 * DAY).alerts[0];
    expect(now?.mark).toBe(`certificate:crt-46:expiry:${old?.slot}:2029-05-17`);
    const next = lookAtCertificate(item, { failures: 0 }, cert46(), expiresAt - 7.5 * DAY).alerts[0];
    expect(next?.mark).toBe('certificate:crt-46:expiry:14:2029-05-17');
  });
});

describe('the life left, worded (the /tls card and the digest)', () => {
  const life = { startsAt: Date.UTC(2029, 3, 1, 12), expiresAt: Date.UTC(2029, 3, 1, 12) + 46 * DAY };
  it('says the days left and the share of the life, in English and German', async () => {
    const at = life.expiresAt - 12 * DAY + 3_600_000;
    expect(await inLanguage('en', () => lifeLeftLine(life, at))).toBe(
      '12 days left (26 % of its 46-day life)',
    );
    expect(await inLanguage('de', () => lifeLeftLine(life, at))).toBe(
      'Noch 12 Tage (26 % von 46 Tagen Laufzeit)',
    );
    expect(await inLanguage('en', () => lifeLeftLine(life, life.expiresAt + 1))).toBe(
      'Expired (after its 46-day life)',
    );
    expect(await inLanguage('de', () => lifeLeftLine(life, life.expiresAt - 1))).toBe(
      'Läuft heute ab (letzter Tag von 46 Tagen Laufzeit)',
    );
  });
});
