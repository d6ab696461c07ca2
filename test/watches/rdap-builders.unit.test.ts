import { alertMessage, batchMessage } from '../../src/features/watches/alert-blocks.js';
import { addedMessage, listMessage } from '../../src/features/watches/blocks.js';
import { askRdap, MAX_RDAP_PER_COMMAND, watchedViaRdapLine } from '../../src/features/watches/rdap-adding.js';
import { lookAtRdapDomain } from '../../src/features/watches/rdap-look.js';
import type { WatchedEntry } from '../../src/features/watches/service.js';
import type { WatchItem } from '../../src/features/watches/store.js';
import type { RdapFacts, RdapLookup } from '../../src/rdap/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { DAY, HOSTILE, IDN, NOW, registrable, watchItem } from '../helpers/builder-fixtures.js';

/**
 * The words of domains watched through RDAP (features/watches/rdap-*.ts), at their largest: the longest
 * names, a registrar name of the most RDAP shows (80 characters) holding markup from outside, every
 * reason a look-up fails for, a full command's worth of names.
 */

const rdapItem = (id: string): WatchItem => ({ ...watchItem('domain', id), via: 'rdap' });
const facts = (expiresIn: number, lapsing = false): RdapFacts => ({
  expiresAt: NOW + expiresIn * DAY,
  registrar: `${HOSTILE} Registrar`.slice(0, 80),
  transferLock: false,
  lapsing,
});
const look = (expiresIn: number, lapsing = false) =>
  lookAtRdapDomain(
    rdapItem(IDN),
    {
      failures: 0,
      checkedAt: NOW - DAY,
      expiresAt: NOW + 400 * DAY,
      rdap: { transferLock: true, registrar: 'Old' },
    },
    facts(expiresIn, lapsing),
    NOW,
  );

/** Every outcome of a look-up, over a command's names (the first ones found, the rest each way of failing). */
async function added() {
  const names = Array.from({ length: 100 }, (_, i) => registrable(i));
  const outcomes: RdapLookup[] = [
    { kind: 'found', facts: facts(20) },
    { kind: 'not-found' },
    { kind: 'no-service', tld: 'de' },
    ...(
      [
        'bootstrap_unavailable',
        'timeout',
        'too_large',
        'redirects',
        'not_public',
        'insecure',
        'network',
        'status',
        'malformed',
        'paced',
      ] as const
    ).map((failure): RdapLookup => ({ kind: 'failed', failure })),
  ];
  let i = 0;
  const elsewhere = await askRdap(
    { domain: async () => outcomes[i++ % outcomes.length] as RdapLookup },
    names,
  );
  const rdapLines = [...elsewhere.found].map(([id, found]) => watchedViaRdapLine(id, found));
  return { names, elsewhere, rdapLines };
}

const BUILDERS: Entry[] = [
  ['rdap: alert, expires', 'message', () => alertMessage(look(20).alerts[0] as never, rdapItem(IDN)), DATES],
  [
    'rdap: alert, expired and lapsing',
    'message',
    () => alertMessage(look(-2, true).alerts[0] as never, rdapItem(IDN)),
    DATES,
  ],
  [
    'rdap: batch, expire',
    'message',
    () =>
      batchMessage(
        { kind: 'rdap-expiry', threshold: 30 },
        Array.from({ length: 120 }, (_, n) => ({
          item: rdapItem(registrable(n)),
          alert: look(20).alerts[0] as never,
        })),
      ),
  ],
  [
    'rdap: batch, expired',
    'message',
    () =>
      batchMessage({ kind: 'rdap-expiry', threshold: 0 }, [
        { item: rdapItem(IDN), alert: look(-1).alerts[0] as never },
      ]),
  ],
  [
    'rdap: list',
    'message',
    () => {
      const entries: WatchedEntry[] = Array.from({ length: 150 }, (_, n) => ({
        item: rdapItem(registrable(n)),
        state:
          n % 3 === 0
            ? { failures: 3, failingSince: NOW - DAY }
            : {
                failures: 0,
                checkedAt: NOW,
                expiresAt: NOW + n * DAY,
                rdap: { transferLock: n % 2 === 0, registrar: `${HOSTILE}`.slice(0, 80) },
              },
      }));
      return listMessage(entries, 500, NOW, 'domain');
    },
    DATES,
  ],
  [
    'rdap: added',
    'message',
    async () => {
      const { names, elsewhere, rdapLines } = await added();
      return addedMessage('domain', [...elsewhere.found.keys()], names.slice(MAX_RDAP_PER_COMMAND, 40), [
        ...rdapLines,
        ...elsewhere.lines,
      ]);
    },
    DATES,
  ],
];

checkBuilders('rdap', BUILDERS);
