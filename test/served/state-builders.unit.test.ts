import { describe, expect, it } from 'vitest';
import { digestMessage, homeSection, listMessage } from '../../src/features/watches/blocks.js';
import type { CtSeen, ServedSeen } from '../../src/features/watches/seen.js';
import { ctPart, servedPart } from '../../src/features/watches/served-words.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import { inLanguage } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  CERT_ID,
  COMMON_NAME,
  DAY,
  HOSTILE,
  NOW,
  registrable,
  settings,
  watchItem,
} from '../helpers/builder-fixtures.js';

/**
 * The served and Certificate Transparency state in `/tls watch list`, `/domain watch list`, the digest
 * and App Home (features/watches/served-words.ts): every way a look can end, at the most watches a
 * workspace has, in English and German.
 */

const LONG_NAME = `${'n'.repeat(63)}.${'m'.repeat(63)}.${'o'.repeat(63)}.example`;

const SERVED: ServedSeen[] = [
  // All names serve it.
  {
    checkedAt: NOW,
    current: 6,
    stale: 0,
    unchecked: [],
    blindLooks: 0,
    names: { asked: 3, serving: 3, unchecked: 0, stale: [], staleCount: 0 },
  },
  // Some do not: an older one, one that ends sooner, names not asked.
  {
    checkedAt: NOW,
    current: 2,
    stale: 40,
    unchecked: Array.from({ length: 10 }, () => `${LONG_NAME}: ${HOSTILE}`),
    blindLooks: 0,
    names: {
      asked: 100,
      serving: 2,
      unchecked: 58,
      stale: [
        { name: `www.${HOSTILE}`, why: 'older' },
        { name: LONG_NAME, why: 'sooner' },
      ],
      staleCount: 40,
    },
  },
  {
    checkedAt: NOW,
    current: 0,
    stale: 1,
    unchecked: [],
    blindLooks: 0,
    names: { asked: 1, serving: 0, unchecked: 0, stale: [{ name: LONG_NAME, why: 'sooner' }], staleCount: 1 },
  },
  // No name answered.
  { checkedAt: NOW, current: 0, stale: 0, unchecked: ['x'], blindLooks: 4, blindSince: NOW - 3 * DAY },
];

const CT: CtSeen[] = [
  { checkedAt: NOW, status: 'clear', failures: 0, cursor: '1' },
  { checkedAt: NOW, status: 'unchecked', failures: 0, cursor: '1' },
  { checkedAt: NOW, status: 'unchecked', failures: 5, failingSince: NOW - 2 * DAY, reason: HOSTILE },
  {
    checkedAt: NOW,
    status: 'found',
    failures: 0,
    unknown: Array.from({ length: 50 }, (_, i) => ({ tbs: String(i).padStart(64, '0'), until: NOW + DAY })),
  },
  {
    checkedAt: NOW,
    status: 'unchecked',
    failures: 2,
    failingSince: NOW - DAY,
    unknown: [{ tbs: 'a'.repeat(64) }],
  },
];

/** 500 watches (the default workspace limit): certificates and zones in every served and CT state. */
function entries(): WatchedEntry[] {
  return Array.from({ length: 500 }, (_, i): WatchedEntry => {
    if (i % 2 === 0)
      return {
        item: watchItem('certificate', `${CERT_ID.slice(0, 96)}${String(i).padStart(4, '0')}`),
        state: {
          failures: 0,
          checkedAt: NOW,
          label: COMMON_NAME,
          status: 'issued',
          expiresAt: NOW + (i % 50) * DAY,
          startsAt: NOW - 40 * DAY,
          served: SERVED[Math.floor(i / 2) % SERVED.length],
        },
      };
    return {
      item: watchItem('domain', registrable(i)),
      state: {
        failures: 0,
        checkedAt: NOW,
        expiresAt: NOW + (i % 50) * DAY,
        ct: CT[Math.floor(i / 2) % CT.length],
      },
    };
  });
}

const BUILDERS: Entry[] = [
  ['served and CT: /tls watch list', 'message', () => listMessage(entries(), 500, NOW, 'certificate'), DATES],
  ['served and CT: /domain watch list', 'message', () => listMessage(entries(), 500, NOW, 'domain'), DATES],
  [
    'served and CT: digest',
    'message',
    () => {
      const all = entries();
      return digestMessage(all, [], all.slice(0, 150), all.length, NOW, [CERT_ID], all);
    },
    DATES,
  ],
  [
    'served and CT: digest, all fine',
    'message',
    () => {
      const fine = entries().filter((_, i) => i % 10 === 0 || i % 10 === 1);
      return digestMessage([], [], [], fine.length, NOW, [], fine);
    },
    DATES,
  ],
  [
    'served and CT: App Home',
    'home',
    () => homeSection(entries(), settings('daily'), NOW + DAY, NOW, entries()),
    DATES,
  ],
];

checkBuilders('served and CT state', BUILDERS);

describe('the served and CT state in words, in English and German', () => {
  const words = (locale: 'en' | 'de') =>
    inLanguage(locale, () => ({
      served: SERVED.map((served) => servedPart(served) ?? ''),
      ct: CT.map((ct) => ctPart(ct) ?? ''),
      none: [servedPart(undefined), ctPart(undefined), ctPart({ status: 'unchecked', failures: 0 })],
    }));

  it('says whether every name serves it, which does not, and what could not be checked', async () => {
    const en = await words('en');
    expect(en.served[0]).toBe('served: all 3 names serve it');
    expect(en.served[1]).toContain('served: 2 of 100 names serve it; `www.');
    expect(en.served[1]).toContain(
      'still serves the older one and 39 more names; 58 names could not be checked',
    );
    expect(en.served[2]).toContain('served: its name does not serve it; `n');
    expect(en.served[2]).toContain('serves one that ends sooner');
    expect(en.served[3]).toMatch(/^served: :warning: could not check since <!date\^\d+\^/);
    expect(en.ct[0]).toMatch(/^CT: last searched <!date\^\d+\^.*, nothing foreign$/);
    expect(en.ct[1]).toContain('still reading its history');
    expect(en.ct[2]).toMatch(/^CT: :warning: could not check since <!date/);
    expect(en.ct[3]).toBe('CT: :sleuth_or_spy: 50 unknown issuances');
    expect(en.ct[4]).toMatch(/^CT: :sleuth_or_spy: 1 unknown issuance; :warning: could not check since/);
    // Nothing is said before the first look, or while CT search is off.
    expect(en.none).toEqual([undefined, undefined, undefined]);

    const de = await words('de');
    expect(de.served[0]).toBe('Auslieferung: alle 3 Namen liefern es aus');
    expect(de.served[1]).toContain('Auslieferung: 2 von 100 Namen liefern es aus; `www.');
    expect(de.served[1]).toContain(
      'liefert noch das ältere aus und 39 weitere Namen; 58 Namen nicht prüfbar',
    );
    expect(de.served[3]).toMatch(/^Auslieferung: :warning: seit <!date\^\d+\^.* nicht prüfbar$/);
    expect(de.ct[0]).toMatch(/^CT: zuletzt gesucht <!date.*, nichts Fremdes$/);
    expect(de.ct[3]).toBe('CT: :sleuth_or_spy: 50 unbekannte Zertifikate');
  });

  it('the digest and App Home name what wants a look and count what is fine', async () => {
    const all = entries();
    // A quarter of the certificates serve everywhere; two fifths of the zones show nothing foreign.
    const fine = { certificates: 63, zones: 100 };
    const attention = 500 - fine.certificates - fine.zones;
    const digest = await inLanguage('en', () => JSON.stringify(digestMessage([], [], [], 500, NOW, [], all)));
    expect(digest).toContain(`Served and issued: ${attention} watches to look at`);
    expect(digest).toContain('63 certificates served by all their names · 100 zones with nothing foreign');
    const home = await inLanguage('de', () =>
      JSON.stringify(homeSection([], settings('daily'), undefined, NOW, all)),
    );
    expect(home).toContain(`Ausgeliefert und ausgestellt: ${attention} Überwachungen zu prüfen`);
    expect(home).toContain(`…und ${attention - 5} weitere`);
    // Nothing is added where nothing was asked yet.
    const none = await inLanguage('en', () =>
      JSON.stringify(
        homeSection([], undefined, undefined, NOW, [
          { item: watchItem('domain', 'a.example'), state: { failures: 0 } },
        ]),
      ),
    );
    expect(none).not.toContain('Served and issued');
  });
});
