import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TTL,
  type RecordDraft,
  type RecordValue,
  readDraft,
  recordValueOf as valueOfRecord,
} from '../../src/features/records/rules.js';
import { text } from '../../src/text/index.js';

const say = text.recordRules;
const ZONE = 'example.de';
const TYPES = 'A, AAAA, CNAME, TXT, MX, NS, SRV, CAA, ALIAS';

const draft = (fields: Partial<RecordDraft>): RecordDraft => ({
  type: 'A',
  name: 'www',
  data: '192.0.2.1',
  ...fields,
});
const read = (fields: Partial<RecordDraft>) => readDraft(ZONE, draft(fields));
const value = (fields: Partial<RecordDraft>): RecordValue => {
  const result = read(fields);
  if ('errors' in result) throw new Error(JSON.stringify(result.errors));
  return result.value;
};
const errors = (fields: Partial<RecordDraft>) => {
  const result = read(fields);
  return 'errors' in result ? result.errors : {};
};

describe('readDraft', () => {
  it('reads a plain record, with the default TTL', () => {
    expect(read({})).toEqual({
      value: { type: 'A', name: 'www.example.de.', data: '192.0.2.1', ttl: DEFAULT_TTL },
    });
  });

  it.each([
    ['www', 'www.example.de.'],
    ['  WWW  ', 'www.example.de.'],
    ['', 'example.de.'],
    ['@', 'example.de.'],
    ['example.de', 'example.de.'],
    ['EXAMPLE.DE.', 'example.de.'],
    ['www.example.de', 'www.example.de.'],
    ['www.example.de.', 'www.example.de.'],
    ['_dmarc.mail', '_dmarc.mail.example.de.'],
    ['*', '*.example.de.'],
    ['*.dev.example.de.', '*.dev.example.de.'],
    // Wildcard and service labels never start a name in another zone.
    ['*.dev', '*.dev.example.de.'],
    ['_dmarc.shop', '_dmarc.shop.example.de.'],
    ['bücher', 'xn--bcher-kva.example.de.'],
    // Relative, as its last label is no top-level domain.
    ['www.example', 'www.example.example.de.'],
    // The relative reading of a name that ends in a TLD, written in full.
    ['api.dev.example.de', 'api.dev.example.de.'],
  ])('takes the name %j as %s', (name, fqdn) => {
    expect(value({ name }).name).toBe(fqdn);
  });

  it.each(['www.other.com.', 'mail.', 'example.de.example.com.'])(
    'refuses the name %j outside the zone',
    (name) => {
      expect(errors({ name })).toEqual({
        name: say.nameOutside({ name: name.replace(/\.$/, ''), zone: ZONE }),
      });
    },
  );

  it.each([
    ['www.other.com', 'com'],
    ['notexample.de', 'de'],
    ['_dmarc.other.com', 'com'],
    ['API.Dev', 'dev'],
  ])('refuses %j, which ends in a top-level domain, naming the relative reading', (name, tld) => {
    expect(errors({ name })).toEqual({
      name: say.nameElsewhere({ name: name.toLowerCase(), zone: ZONE, tld }),
    });
  });

  it.each(['www..x', 'a b', 'www.*', '-www', 'ü/x', 'a@b'])('refuses the invalid name %j', (name) => {
    expect(errors({ name }).name).toBe(say.nameInvalid({ name: name.toLowerCase() }));
  });

  it('refuses a name longer than 253 characters', () => {
    const name = Array.from({ length: 5 }, () => 'a'.repeat(50)).join('.');
    expect(errors({ name })).toEqual({ name: say.nameTooLong({ name }) });
    expect(value({ name: Array.from({ length: 4 }, () => 'a'.repeat(50)).join('.') }).name).toHaveLength(215);
  });

  it('takes the type in any case, and refuses others', () => {
    expect(value({ type: ' aaaa ', data: '2001:db8::1' }).type).toBe('AAAA');
    expect(errors({ type: 'SOA' })).toEqual({ type: say.typeUnknown({ type: 'SOA', types: TYPES }) });
    expect(errors({ type: '' })).toEqual({ type: say.typeMissing({ types: TYPES }) });
  });

  it.each([
    ['59', 'range'],
    ['60', 60],
    [' 604800 ', 604_800],
    // Grouped as the messages write them, in English and German.
    ['604,800', 604_800],
    ['3.600', 3600],
    ['86 400', 86_400],
    ['604,801', 'range'],
    ['3.60', 'invalid'],
    ['1,2,3', 'invalid'],
    ['604801', 'range'],
    ['abc', 'invalid'],
    ['3.5', 'invalid'],
    ['-60', 'invalid'],
    ['', DEFAULT_TTL],
    [undefined, DEFAULT_TTL],
  ] as const)('reads the TTL %j', (ttl, expected) => {
    const typed = (ttl ?? '').trim();
    if (expected === 'range')
      expect(errors({ ttl })).toEqual({ ttl: say.ttlRange({ value: typed, min: 60, max: 604_800 }) });
    else if (expected === 'invalid')
      expect(errors({ ttl })).toEqual({
        ttl: say.ttlInvalid({ value: typed, min: 60, max: 604_800, fallback: 3600 }),
      });
    else expect(value({ ttl }).ttl).toBe(expected);
  });

  it('reads the priority of MX (10 when empty, 0 for a null MX) and SRV (required)', () => {
    expect(value({ type: 'MX', name: '@', data: 'mail.example.de', priority: ' 20 ' })).toMatchObject({
      priority: 20,
    });
    expect(value({ type: 'MX', name: '@', data: 'mail.example.de' })).toMatchObject({ priority: 10 });
    expect(value({ type: 'MX', name: '@', data: '.' })).toMatchObject({ data: '.', priority: 0 });
    expect(value({ type: 'MX', name: '@', data: ' 5 Mail.Example.de ' })).toMatchObject({
      data: 'mail.example.de.',
      priority: 5,
    });
    expect(
      value({ type: 'SRV', name: '_sip._tcp', data: '5 5060 sip.example.de', priority: '0' }),
    ).toMatchObject({
      data: '5 5060 sip.example.de.',
      priority: 0,
    });
    expect(errors({ type: 'SRV', name: '_sip._tcp', data: '5 5060 sip.example.de' })).toEqual({
      priority: say.priorityRequired({ type: 'SRV' }),
    });
    for (const priority of ['65536', '-1', '1.5', 'high'])
      expect(errors({ type: 'MX', data: 'mail.example.de', priority })).toEqual({
        priority: say.priorityInvalid({ value: priority }),
      });
    expect(value({ type: 'MX', data: 'mail.example.de', priority: '65535' }).priority).toBe(65_535);
  });

  it('refuses a priority on other types', () => {
    expect(errors({ priority: '10' })).toEqual({ priority: say.priorityNotUsed({ type: 'A' }) });
    expect(value({ priority: '  ' })).not.toHaveProperty('priority');
  });

  it('canonicalises the data, and puts its error on the data field', () => {
    expect(value({ type: 'TXT', data: ' "hello world" ' }).data).toBe('hello world');
    expect(value({ type: 'CNAME', data: 'Target.Example.com' }).data).toBe('target.example.com.');
    expect(errors({ data: 'not an address' })).toEqual({ data: say.notIpv4({ value: 'not an address' }) });
  });

  it('reports every field at once', () => {
    expect(errors({ name: 'www.other.com.', ttl: '1', data: 'x', priority: '1' })).toEqual({
      name: say.nameOutside({ name: 'www.other.com', zone: ZONE }),
      ttl: say.ttlRange({ value: '1', min: 60, max: 604_800 }),
      data: say.notIpv4({ value: 'x' }),
      priority: say.priorityNotUsed({ type: 'A' }),
    });
  });
});

describe('recordValueOf', () => {
  it('reads a registrar record, canonical where it parses', () => {
    expect(
      valueOfRecord({ id: 1, name: 'WWW.example.de', type: 'cname', data: 'Target.example.com', ttl: 300 }),
    ).toEqual({
      type: 'CNAME',
      name: 'www.example.de.',
      data: 'target.example.com.',
      ttl: 300,
    });
    expect(
      valueOfRecord({ id: 2, name: 'example.de.', type: 'MX', data: 'mail.example.de.', priority: 10 }),
    ).toEqual({
      type: 'MX',
      name: 'example.de.',
      data: 'mail.example.de.',
      ttl: DEFAULT_TTL,
      priority: 10,
    });
    expect(
      valueOfRecord({ id: 3, name: 'example.de.', type: 'CNAME', data: 'odd data', ttl: 60 })?.data,
    ).toBe('odd data');
  });

  it('has none for types Regdesk does not write or records without data', () => {
    expect(
      valueOfRecord({ id: 4, name: 'example.de.', type: 'SOA', data: 'ns1. host. 1 2 3 4 5' }),
    ).toBeUndefined();
    expect(valueOfRecord({ id: 5, name: 'example.de.', type: 'A' })).toBeUndefined();
  });
});
