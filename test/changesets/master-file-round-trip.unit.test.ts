import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMasterFile, serializeZone } from '../../src/features/changesets/master-file.js';
import { CAA_TAGS, canonicalIpv6 } from '../../src/features/records/record-data.js';
import type { DnsRecord } from '../../src/registrar/index.js';

const ORIGIN = 'example.com.';
/** The zone's nameserver: a name the records below never use, so its apex NS is told apart. */
const REGISTRAR_NS = 'ns.registrar.test.';

const label = fc.stringMatching(/^[a-z0-9_](?:[a-z0-9_-]{0,8}[a-z0-9_])?$/);
const idnLabel = fc
  .constantFrom('bücher', 'münchen', '日本', 'ελλάδα', 'straße')
  .map((unicode) => domainToASCII(unicode));
const owner = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(label, idnLabel), { maxLength: 3 }))
  .map(([wildcard, labels]) => [...(wildcard ? ['*'] : []), ...labels, ORIGIN].join('.'));
const host = fc
  .tuple(
    fc.array(fc.oneof(label, idnLabel), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(ORIGIN, 'example.net.'),
  )
  .map(([labels, suffix]) => `${labels.join('.')}.${suffix}`);
const u16 = fc.integer({ min: 0, max: 65_535 });
/** Characters of any kind, those a master file treats specially often (uniform code points seldom hit them). */
const character = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    ';',
    '(',
    ')',
    ' ',
    '\t',
    '\n',
    '\u0000',
    '\u007f',
    '\u00a0',
    '\u200b',
    '\ufeff',
    'é',
    '€',
    '😀',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);
// Regdesk's CAA value: no quote and no C0 control or DEL (features/records/record-data.ts).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NOT_IN_CAA = /["\u0000-\u001f\u007f]/;
const caaValue = fc.string({ unit: character, maxLength: 40 }).filter((value) => !NOT_IN_CAA.test(value));

/** Records in Regdesk's form, each type with data of its shape; TXT of any characters at all. */
const recordData: fc.Arbitrary<Pick<DnsRecord, 'type' | 'data' | 'priority'>> = fc.oneof(
  fc.ipV4().map((data) => ({ type: 'A', data })),
  fc.ipV6().map((data) => ({ type: 'AAAA', data: canonicalIpv6(data) ?? data })),
  host.map((data) => ({ type: 'CNAME', data })),
  host.map((data) => ({ type: 'NS', data })),
  fc.tuple(u16, fc.oneof(host, fc.constant('.'))).map(([priority, data]) => ({ type: 'MX', data, priority })),
  fc.tuple(u16, u16, u16, fc.oneof(host, fc.constant('.'))).map(([priority, weight, port, target]) => ({
    type: 'SRV',
    data: `${weight} ${port} ${target}`,
    priority,
  })),
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...CAA_TAGS), caaValue)
    .map(([flags, tag, value]) => ({ type: 'CAA', data: `${flags} ${tag} "${value}"` })),
  fc.string({ unit: character, maxLength: 700 }).map((data) => ({ type: 'TXT', data })),
);
const record: fc.Arbitrary<DnsRecord> = fc
  .tuple(owner, recordData, fc.integer({ min: 0, max: 2_147_483_647 }), fc.boolean())
  .map(([name, data, ttl, auto]) => ({ name, ...data, ttl, auto }));

const key = (r: {
  name: string;
  type: string;
  data?: string | undefined;
  ttl?: number | undefined;
  priority?: number | undefined;
}) => JSON.stringify([r.name, r.type, r.data, r.ttl, r.priority]);

describe('round trip: parseMasterFile(serializeZone(zone)) gives the records back', () => {
  it('for random records of every type but ALIAS (written as a comment)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 25 }), (records) => {
        const text = serializeZone({ origin: ORIGIN, nameservers: [REGISTRAR_NS], records });
        const result = parseMasterFile(text, ORIGIN);
        if (!result.ok) throw new Error(`${JSON.stringify(result.errors)}\n${text}`);
        const back = result.records.filter((r) => !(r.type === 'NS' && r.data === REGISTRAR_NS));
        expect(back.map(key).sort()).toEqual(records.map(key).sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseMasterFile on any text', () => {
  const pieces = fc.constantFrom(
    'a',
    'www',
    '1',
    '300',
    ' ',
    '\t',
    '\n',
    '\r\n',
    '"',
    '\\',
    '\\"',
    '\\065',
    '\\999',
    '(',
    ')',
    ';',
    '.',
    '@',
    '$',
    '$ORIGIN ',
    '$TTL ',
    '$INCLUDE ',
    '*',
    'é',
    'IN',
    ' A ',
    ' TXT ',
    ' MX 10 ',
    ' SOA ',
  );
  it('never throws, and every error names a line of the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(pieces, fc.string({ unit: 'binary', maxLength: 2 })) }),
        (text) => {
          const result = parseMasterFile(text, ORIGIN);
          const lines = text.split('\n').length;
          if (result.ok) expect(result.records.every((r) => r.line >= 1 && r.line <= lines)).toBe(true);
          else expect(result.errors.every((e) => e.line >= 1 && e.line <= lines)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
