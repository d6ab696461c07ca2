import { describe, expect, it } from 'vitest';
import {
  parseMasterFile,
  serializeZone,
  type ZoneToExport,
} from '../../src/features/changesets/master-file.js';
import type { DnsRecord } from '../../src/registrar/index.js';
import { NAMESERVERS, ORIGIN, SOA, ZONE_RECORDS } from './zone-fixture.js';

const zone = (records: DnsRecord[], extra: Partial<ZoneToExport> = {}): ZoneToExport => ({
  origin: 'example.com',
  nameservers: ['ns1.regfish.de.', 'ns2.regfish.net.'],
  records,
  ...extra,
});
const rr = (name: string, type: string, data: string, extra: Partial<DnsRecord> = {}): DnsRecord => ({
  name,
  type,
  data,
  ttl: 300,
  ...extra,
});
/** The lines after the header ($ORIGIN, $TTL, SOA, apex NS and a blank line). */
const body = (text: string) =>
  text
    .split('\n')
    .slice(text.split('\n').indexOf('') + 1)
    .filter(Boolean);

/** The bytes of each quoted string on a line, unescaped. */
function stringBytes(text: string): Buffer[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(([, inner = '']) =>
    Buffer.concat(
      [...inner.matchAll(/\\(\d{3})|\\(.)|([^\\])/gsu)].map(([, ddd, escaped, plain]) =>
        ddd === undefined ? Buffer.from(escaped ?? plain ?? '') : Buffer.of(Number(ddd)),
      ),
    ),
  );
}

describe('serializeZone', () => {
  it('starts with $ORIGIN, $TTL, the SOA from the registrar and the apex NS set', () => {
    const text = serializeZone(zone([], { soa: SOA }));
    expect(text.split('\n').slice(0, 5)).toEqual([
      '$ORIGIN example.com.',
      '$TTL 86400',
      '@\t86400\tIN\tSOA\tns1.regfish.de.\thostmaster.example.com.\t2026112201\t10800\t3600\t604800\t300',
      '@\tIN\tNS\tns1.regfish.de.',
      '@\tIN\tNS\tns2.regfish.net.',
    ]);
  });

  it('makes up an SOA naming the first nameserver when the registrar shows none', () => {
    const text = serializeZone(zone([], { nameservers: ['NS2.dns.example.', 'ns1.dns.example'] }));
    expect(text).toContain('@\t3600\tIN\tSOA\tns1.dns.example.\thostmaster.example.com.\t1\t');
  });

  it('writes a mailbox given as an address in the hostmaster.zone. form, its dots escaped', () => {
    const text = serializeZone(zone([], { soa: { mailbox: 'dns.admin@Example.com' } }));
    expect(text).toContain('\tdns\\046admin.example.com.\t');
  });

  it('keeps apex NS records in the apex set, once, with their TTL and the auto mark', () => {
    const text = serializeZone(
      zone([rr('example.com.', 'NS', 'ns1.regfish.de.', { ttl: 86_400, auto: true })]),
    );
    expect(text.split('\n').filter((line) => line.includes('\tNS\t'))).toEqual([
      '@\t86400\tIN\tNS\tns1.regfish.de.\t; auto',
      '@\tIN\tNS\tns2.regfish.net.',
    ]);
  });

  it('writes owners relative to the origin, priorities of MX and SRV before their data', () => {
    const text = serializeZone(
      zone([
        rr('www.example.com.', 'CNAME', 'example.com.'),
        rr('example.com.', 'MX', 'mail.example.com.', { priority: 10 }),
        rr('_sip._tcp.example.com.', 'SRV', '5 5060 sip.example.com.', { priority: 20 }),
        rr('a.b.example.com', 'A', '192.0.2.1', { ttl: 60 }),
      ]),
    );
    expect(body(text)).toEqual([
      '@\t300\tIN\tMX\t10 mail.example.com.',
      // DNS order, label by label from the right: `_tcp` sorts before `b` (0x5F < 0x62).
      '_sip._tcp\t300\tIN\tSRV\t20 5 5060 sip.example.com.',
      'a.b\t60\tIN\tA\t192.0.2.1',
      'www\t300\tIN\tCNAME\texample.com.',
    ]);
  });

  it('reads a priority written in front of MX or SRV data when the record has none', () => {
    const text = serializeZone(zone([rr('example.com.', 'MX', '10 mail.example.com.')]));
    expect(body(text)).toEqual(['@\t300\tIN\tMX\t10 mail.example.com.']);
  });

  it('cuts a long TXT into strings of 255 bytes at most, between characters', () => {
    const text = serializeZone(zone([rr('t.example.com.', 'TXT', `${'x'.repeat(300)}${'é'.repeat(200)}`)]));
    const strings = stringBytes(text);
    expect(strings.map((bytes) => bytes.length)).toEqual([255, 255, 190]);
    expect(Buffer.concat(strings).toString('utf8')).toBe(`${'x'.repeat(300)}${'é'.repeat(200)}`);
    expect(strings.every((bytes) => Buffer.from(bytes.toString('utf8')).equals(bytes))).toBe(true);
    expect(text).toMatch(/TXT\t\( "x{255}"\n\t+"x{45}é{105}"\n\t+"é{95}" \)/);
  });

  it('escapes quotes and backslashes, and writes controls and invisible characters as \\DDD', () => {
    const text = serializeZone(zone([rr('t.example.com.', 'TXT', 'a "b" \\ c\u0001\u00a0é\u200b')]));
    expect(body(text)).toEqual(['t\t300\tIN\tTXT\t"a \\"b\\" \\\\ c\\001\\194\\160é\\226\\128\\139"']);
  });

  it('escapes a CAA value the same way', () => {
    const text = serializeZone(zone([rr('example.com.', 'CAA', '0 ISSUE "ca.example; a=\\b"')]));
    expect(body(text)).toEqual(['@\t300\tIN\tCAA\t0 issue "ca.example; a=\\\\b"']);
  });

  it('writes IDN owners as A-labels with their Unicode form in a comment', () => {
    const text = serializeZone(zone([rr('xn--bcher-kva.example.com.', 'A', '192.0.2.1', { auto: true })]));
    expect(body(text)).toEqual(['xn--bcher-kva\t300\tIN\tA\t192.0.2.1\t; bücher.example.com, auto']);
  });

  it('comments out ALIAS (no standard type), inactive records, data no file can hold, and other zones', () => {
    const text = serializeZone(
      zone([
        rr('example.com.', 'ALIAS', 'lb.example.net.'),
        rr('old.example.com.', 'A', '192.0.2.9', { active: false }),
        rr('bad.example.com.', 'A', 'not an address'),
        rr('ptr.example.com.', 'PTR', 'host.example.'),
        rr('www.example.net.', 'A', '192.0.2.1'),
      ]),
      { alias: 'ALIAS: served as the target’s A/AAAA' },
    );
    expect(body(text)).toEqual([
      '; @ 300 IN ALIAS lb.example.net.\t; ALIAS: served as the target’s A/AAAA',
      '; bad 300 IN A not an address\t; unwritable',
      '; old 300 IN A 192.0.2.9\t; inactive',
      '; ptr 300 IN PTR host.example.\t; unwritable',
      '; www.example.net. 300 IN A 192.0.2.1\t; unwritable',
    ]);
  });

  it('comments out an owner no host name has, and keeps line breaks out of comments', () => {
    const text = serializeZone(
      zone([rr('bad name.example.com.', 'A', '192.0.2.1'), rr('odd.example.com.', 'TXT\nA', '1.2.3.4\n5')]),
      { unwritable: 'cannot\nbe written' },
    );
    expect(body(text)).toEqual([
      '; bad\\032name 300 IN A 192.0.2.1\t; cannot be written',
      '; odd 300 IN TXT A 1.2.3.4 5\t; cannot be written',
    ]);
    expect(parseMasterFile(text, 'example.com')).toMatchObject({ ok: true });
  });

  it('writes a record without a TTL without one: it takes $TTL', () => {
    const text = serializeZone(zone([{ name: 'a.example.com.', type: 'A', data: '192.0.2.1' }]));
    expect(body(text)).toEqual(['a\tIN\tA\t192.0.2.1']);
  });

  it('is deterministic: the order of the records does not matter', () => {
    const input = { origin: ORIGIN, soa: SOA, nameservers: NAMESERVERS };
    const reversed = serializeZone({ ...input, records: ZONE_RECORDS.toReversed() });
    expect(serializeZone({ ...input, records: ZONE_RECORDS })).toBe(reversed);
  });
});

describe('an export re-imports', () => {
  it('gives back every record of the 40-record zone but the ALIAS and the inactive one', () => {
    const text = serializeZone({ origin: ORIGIN, soa: SOA, nameservers: NAMESERVERS, records: ZONE_RECORDS });
    const result = parseMasterFile(text, ORIGIN);
    expect(result).toMatchObject({ ok: true, notes: [{ code: 'soa_ignored' }] });
    if (!result.ok) return;
    const key = (record: {
      name: string;
      type: string;
      data?: string | undefined;
      ttl?: number | undefined;
      priority?: number | undefined;
    }) => JSON.stringify([record.name, record.type, record.data, record.ttl, record.priority]);
    const expected = ZONE_RECORDS.filter((record) => record.type !== 'ALIAS' && record.active !== false);
    expect(ZONE_RECORDS).toHaveLength(40);
    expect(result.records.map(key).sort()).toEqual(expected.map(key).sort());
  });
});
