import { describe, expect, it } from 'vitest';
import {
  checkChange,
  type RecordDraft,
  type RecordValue,
  readDraft,
  recordValueOf as valueOfRecord,
} from '../../src/features/records/rules.js';
import type { DnsRecord } from '../../src/registrar/index.js';
import { text } from '../../src/text/index.js';

const say = text.recordRules;
const ZONE = 'example.de';

/** The zone as the registrar lists it. */
const RECORDS: DnsRecord[] = [
  { id: 1, name: 'example.de.', type: 'NS', data: 'ns1.registrar.example.', ttl: 86_400, auto: true },
  { id: 2, name: 'example.de.', type: 'A', data: '192.0.2.1', ttl: 3600, auto: false },
  { id: 3, name: 'www.example.de.', type: 'CNAME', data: 'example.de.', ttl: 3600 },
  { id: 4, name: 'example.de.', type: 'TXT', data: 'v=spf1 mx -all', ttl: 3600 },
  { id: 5, name: '_dmarc.example.de.', type: 'TXT', data: 'v=DMARC1; p=none', ttl: 3600 },
  { id: 6, name: 'example.de.', type: 'MX', data: 'mail.example.de.', priority: 10, ttl: 3600 },
  { id: 7, name: 'mail.example.de.', type: 'A', data: '192.0.2.25', ttl: 3600 },
  { id: 8, name: 'example.de.', type: 'NS', data: 'ns2.example.net.', ttl: 86_400 },
];

/** A record as the modal would hand it over, read by the draft rules. */
function drafted(fields: Partial<RecordDraft>): RecordValue {
  const result = readDraft(ZONE, { type: 'A', name: 'new', data: '192.0.2.9', ...fields });
  if ('errors' in result) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
const add = (fields: Partial<RecordDraft>) =>
  checkChange(ZONE, RECORDS, { kind: 'add', after: drafted(fields) });
const edit = (id: number, fields: Partial<RecordDraft>) =>
  checkChange(ZONE, RECORDS, { kind: 'edit', id, after: drafted(fields) });
const line = (record: DnsRecord, data = record.data ?? '') =>
  say.record({ name: record.name.replace(/\.$/, ''), type: record.type, data });
const at = (id: number) => {
  const record = RECORDS.find((candidate) => candidate.id === id);
  if (record === undefined) throw new Error(`no record ${id}`);
  return record;
};

describe('checkChange: the record to edit or delete', () => {
  it('must be among the zone records', () => {
    expect(checkChange(ZONE, RECORDS, { kind: 'delete', id: 123 })).toEqual({
      record: say.noRecord({ id: 123, zone: ZONE }),
    });
    expect(edit(123, {})).toEqual({ record: say.noRecord({ id: 123, zone: ZONE }) });
    expect(checkChange(ZONE, RECORDS, { kind: 'delete', id: 7 })).toEqual({});
  });

  it('is never one the registrar manages', () => {
    const auto = { record: say.autoRecord({ record: line(at(1)) }) };
    expect(checkChange(ZONE, RECORDS, { kind: 'delete', id: 1 })).toEqual(auto);
    expect(edit(1, { type: 'NS', name: '@', data: 'ns9.example.net' })).toEqual(auto);
  });

  it('is no NS record of the apex: the delegation is changed with /domain ns', () => {
    expect(checkChange(ZONE, RECORDS, { kind: 'delete', id: 8 })).toEqual({
      record: say.apexNs({ zone: ZONE }),
    });
    expect(edit(8, { type: 'NS', name: '@', data: 'ns3.example.net' })).toEqual({
      record: say.apexNs({ zone: ZONE }),
    });
  });
});

describe('checkChange: an edit', () => {
  it('changes something', () => {
    const same = valueOfRecord(at(6));
    if (same === undefined) throw new Error('no value');
    expect(checkChange(ZONE, RECORDS, { kind: 'edit', id: 6, after: same })).toEqual({
      record: say.unchanged,
    });
    // The same record as typed differently is still unchanged.
    expect(edit(6, { type: 'mx', name: '@', data: 'Mail.Example.de', priority: '10', ttl: '3600' })).toEqual({
      record: say.unchanged,
    });
    expect(edit(6, { type: 'MX', name: '@', data: 'mail.example.de', priority: '10', ttl: '300' })).toEqual(
      {},
    );
    expect(edit(6, { type: 'MX', name: '@', data: 'mail.example.de', priority: '20' })).toEqual({});
  });

  it('keeps the type', () => {
    expect(edit(7, { type: 'AAAA', name: 'mail', data: '2001:db8::25' })).toEqual({
      type: say.typeChanged({ from: 'A', to: 'AAAA' }),
    });
    expect(edit(7, { name: 'mail', data: '192.0.2.26' })).toEqual({});
  });

  it('does not count the record it replaces as a neighbour or a duplicate', () => {
    expect(edit(3, { type: 'CNAME', name: 'www', data: 'other.example.net' })).toEqual({});
    expect(edit(4, { type: 'TXT', name: '@', data: 'v=spf1 mx include:_spf.example.net -all' })).toEqual({});
    expect(edit(5, { type: 'TXT', name: '_dmarc', data: 'v=DMARC1; p=reject' })).toEqual({});
  });

  it('is checked at the name it moves to', () => {
    expect(edit(7, { name: 'www', data: '192.0.2.25' })).toEqual({
      name: say.besideCname({ name: 'www.example.de', record: line(at(3)), type: 'A' }),
    });
  });
});

describe('checkChange: the zone apex', () => {
  it('holds no CNAME (ALIAS stands in for one)', () => {
    expect(add({ type: 'CNAME', name: '@', data: 'lb.example.net' })).toEqual({
      type: say.apexCname({ zone: ZONE }),
    });
    expect(add({ type: 'ALIAS', name: '@', data: 'lb.example.net' })).toEqual({});
  });

  it('gets no NS records here, while a subdomain may be delegated', () => {
    expect(add({ type: 'NS', name: '@', data: 'ns3.example.net' })).toEqual({
      type: say.apexNs({ zone: ZONE }),
    });
    expect(add({ type: 'NS', name: 'sub', data: 'ns3.example.net' })).toEqual({});
  });
});

describe('checkChange: a CNAME is alone at its name', () => {
  it('is not added beside other records', () => {
    expect(add({ type: 'CNAME', name: 'mail', data: 'mx.example.net' })).toEqual({
      name: say.cnameBeside({ name: 'mail.example.de', records: line(at(7)) }),
    });
    expect(add({ type: 'CNAME', name: 'shop', data: 'shops.example.net' })).toEqual({});
  });

  it('is not added beside another CNAME', () => {
    expect(add({ type: 'CNAME', name: 'www', data: 'other.example.net' })).toEqual({
      name: say.twoCnames({ name: 'www.example.de', record: line(at(3)) }),
    });
  });

  it('gets no other record beside it', () => {
    expect(add({ type: 'TXT', name: 'www', data: 'hello' })).toEqual({
      name: say.besideCname({ name: 'www.example.de', record: line(at(3)), type: 'TXT' }),
    });
    expect(add({ type: 'TXT', name: 'www2', data: 'hello' })).toEqual({});
  });
});

describe('checkChange: SPF and DMARC', () => {
  it('allows one SPF record per name', () => {
    const spf = { data: say.spfTwice({ name: 'example.de', record: line(at(4)) }) };
    expect(add({ type: 'TXT', name: '@', data: '"v=spf1 -all"' })).toEqual(spf);
    expect(add({ type: 'TXT', name: '@', data: 'V=SPF1 include:_spf.example.net ~all' })).toEqual(spf);
    expect(add({ type: 'TXT', name: 'mail', data: 'v=spf1 -all' })).toEqual({});
    // One written quoted elsewhere counts as well.
    const quoted: DnsRecord = {
      id: 9,
      name: 'mail.example.de.',
      type: 'TXT',
      data: '"v=spf1 a -all"',
      ttl: 60,
    };
    expect(
      checkChange(ZONE, [...RECORDS, quoted], {
        kind: 'add',
        after: drafted({ type: 'TXT', name: 'mail', data: 'v=spf1 -all' }),
      }),
    ).toEqual({ data: say.spfTwice({ name: 'mail.example.de', record: line(quoted) }) });
    // Not SPF: another version, or no record version at all.
    expect(add({ type: 'TXT', name: '@', data: 'v=spf10 -all' })).toEqual({});
    expect(add({ type: 'TXT', name: '@', data: 'google-site-verification=abc' })).toEqual({});
  });

  it('allows one DMARC record per name, at a _dmarc name', () => {
    expect(add({ type: 'TXT', name: '_dmarc', data: 'v=DMARC1; p=reject' })).toEqual({
      data: say.dmarcTwice({ name: '_dmarc.example.de', record: line(at(5)) }),
    });
    expect(add({ type: 'TXT', name: '_dmarc.shop', data: 'v=dmarc1; p=reject' })).toEqual({});
    expect(add({ type: 'TXT', name: '@', data: 'v=DMARC1; p=reject' })).toEqual({
      name: say.dmarcName({ name: 'example.de' }),
    });
    expect(add({ type: 'TXT', name: 'shop', data: 'v=DMARC1' })).toEqual({
      name: say.dmarcName({ name: 'shop.example.de' }),
    });
  });
});

describe('checkChange: duplicates and the zone', () => {
  it('refuses an exact duplicate, however typed', () => {
    expect(add({ name: '@', data: '192.0.2.1' })).toEqual({ data: say.duplicate({ record: line(at(2)) }) });
    expect(
      add({ type: 'MX', name: 'EXAMPLE.DE.', data: 'Mail.Example.de', priority: '10', ttl: '60' }),
    ).toEqual({
      data: say.duplicate({ record: line(at(6), '10 mail.example.de.') }),
    });
    expect(add({ name: '@', data: '192.0.2.2' })).toEqual({});
    expect(add({ type: 'MX', name: '@', data: 'mail.example.de', priority: '20' })).toEqual({});
  });

  it('refuses a record outside the zone', () => {
    const after: RecordValue = { type: 'A', name: 'www.other.com.', data: '192.0.2.1', ttl: 3600 };
    expect(checkChange(ZONE, RECORDS, { kind: 'add', after })).toEqual({
      name: say.nameOutside({ name: 'www.other.com', zone: ZONE }),
    });
  });

  it('passes an empty zone', () => {
    expect(checkChange(ZONE, [], { kind: 'add', after: drafted({ name: '@' }) })).toEqual({});
  });
});
