import * as wire from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DnsRecord as WireAnswer } from '../../src/dns/client.js';
import {
  answerPresentation,
  canonicalData,
  canonicalIpv6,
  hostName,
  parseData,
  presentation,
  type RecordType,
} from '../../src/features/records/record-data.js';
import { text } from '../../src/text/index.js';

const say = text.recordRules;
const data = (type: RecordType, typed: string) => {
  const parsed = parseData(type, typed);
  return 'data' in parsed ? parsed.data : `error: ${parsed.error}`;
};

/** The answer as a nameserver would serve it: encoded and decoded by dns-packet, as the DNS client reads it. */
function served(answer: WireAnswer): WireAnswer {
  const [decoded] = wire.decode(wire.encode({ type: 'response', answers: [answer] })).answers ?? [];
  if (decoded === undefined) throw new Error('no answer decoded');
  return decoded;
}

describe('parseData per type', () => {
  it('A: an IPv4 address, trimmed', () => {
    expect(data('A', ' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(parseData('A', '2001:db8::1')).toEqual({ error: say.notIpv4({ value: '2001:db8::1' }) });
    expect(parseData('A', '192.0.2.01')).toEqual({ error: say.notIpv4({ value: '192.0.2.01' }) });
    expect(parseData('A', '  ')).toEqual({ error: say.dataEmpty({ type: 'A' }) });
  });

  it('AAAA: an IPv6 address in one compressed lower-case form', () => {
    expect(data('AAAA', '2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(data('AAAA', '[2001:db8::1]')).toBe('2001:db8::1');
    // The longest run of zeros is compressed (RFC 5952 §4.2.3), not the first.
    expect(data('AAAA', '2001:0:0:1:0:0:0:1')).toBe('2001:0:0:1::1');
    expect(data('AAAA', '::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(parseData('AAAA', '192.0.2.1')).toEqual({ error: say.notIpv6({ value: '192.0.2.1' }) });
    expect(parseData('AAAA', 'fe80::1%eth0')).toEqual({ error: say.notIpv6({ value: 'fe80::1%eth0' }) });
  });

  it('CNAME, ALIAS, NS: a host name, lower case, with its trailing dot', () => {
    expect(data('CNAME', ' Target.Example.COM ')).toBe('target.example.com.');
    expect(data('ALIAS', 'lb.example.net.')).toBe('lb.example.net.');
    expect(data('NS', 'ns1.example.net')).toBe('ns1.example.net.');
    expect(data('CNAME', '_token.dcv.example-ca.com')).toBe('_token.dcv.example-ca.com.');
    expect(data('CNAME', 'bücher.example')).toBe('xn--bcher-kva.example.');
    expect(parseData('CNAME', '192.0.2.1')).toEqual({
      error: say.ipNotHost({ value: '192.0.2.1', type: 'CNAME' }),
    });
    expect(parseData('NS', 'ns1')).toEqual({ error: say.notHost({ value: 'ns1' }) });
    expect(parseData('CNAME', 'a..example')).toEqual({ error: say.notHost({ value: 'a..example' }) });
    expect(parseData('CNAME', '-a.example')).toEqual({ error: say.notHost({ value: '-a.example' }) });
    expect(parseData('ALIAS', 'https://x.example')).toEqual({
      error: say.notHost({ value: 'https://x.example' }),
    });
  });

  it('MX: a host name, or "." for the null MX', () => {
    expect(data('MX', 'Mail.Example.de')).toBe('mail.example.de.');
    expect(data('MX', '.')).toBe('.');
    expect(parseData('MX', '2001:db8::25')).toEqual({
      error: say.ipNotHost({ value: '2001:db8::25', type: 'MX' }),
    });
  });

  it('TXT: the plain text, surrounding quotes stripped, no control characters, at most 2,000 characters', () => {
    expect(data('TXT', 'challengetoken')).toBe('challengetoken');
    expect(data('TXT', ' "v=spf1 -all" ')).toBe('v=spf1 -all');
    expect(data('TXT', '"v=DKIM1; k=rsa; " "p=MIIB"')).toBe('v=DKIM1; k=rsa; p=MIIB');
    expect(data('TXT', '"say \\"hi\\""')).toBe('say "hi"');
    expect(data('TXT', 'a "quoted" word')).toBe('a "quoted" word');
    expect(data('TXT', 'x'.repeat(2000))).toHaveLength(2000);
    expect(parseData('TXT', 'x'.repeat(2001))).toEqual({
      error: say.txtTooLong({ length: 2001, max: 2000 }),
    });
    expect(parseData('TXT', 'two\nlines')).toEqual({ error: say.txtControl });
    expect(parseData('TXT', '""')).toEqual({ error: say.dataEmpty({ type: 'TXT' }) });
  });

  it('SRV: weight port target', () => {
    expect(data('SRV', ' 5  5060 SIP.example.de ')).toBe('5 5060 sip.example.de.');
    expect(data('SRV', '0 0 .')).toBe('0 0 .');
    expect(data('SRV', '65535 65535 sip.example.de.')).toBe('65535 65535 sip.example.de.');
    expect(parseData('SRV', '10 5 5060 sip.example.de')).toEqual({
      error: say.srvFormat({ value: '10 5 5060 sip.example.de' }),
    });
    expect(parseData('SRV', '65536 1 sip.example.de')).toEqual({ error: say.srvWeight({ value: '65536' }) });
    expect(parseData('SRV', '1 65536 sip.example.de')).toEqual({ error: say.srvPort({ value: '65536' }) });
    expect(parseData('SRV', '1 1 sip')).toEqual({ error: say.notHost({ value: 'sip' }) });
  });

  it('CAA: flags tag "value", tag lower-cased, value quoted', () => {
    expect(data('CAA', '0 issue "letsencrypt.org"')).toBe('0 issue "letsencrypt.org"');
    expect(data('CAA', '0 ISSUE letsencrypt.org')).toBe('0 issue "letsencrypt.org"');
    expect(data('CAA', '128 issuewild ";"')).toBe('128 issuewild ";"');
    expect(data('CAA', '0 iodef "mailto:security@example.de"')).toBe('0 iodef "mailto:security@example.de"');
    expect(data('CAA', '0 issue "ca.example; account=1"')).toBe('0 issue "ca.example; account=1"');
    expect(data('CAA', '0 issue ""')).toBe('0 issue ""');
    expect(parseData('CAA', '256 issue "x"')).toEqual({ error: say.caaFlags({ value: '256' }) });
    expect(parseData('CAA', '0 policy "x"')).toEqual({
      error: say.caaTag({
        tag: 'policy',
        tags: 'issue, issuewild, iodef, issuemail, issuevmc, contactemail, contactphone',
      }),
    });
    expect(parseData('CAA', 'issue "x"')).toEqual({ error: say.caaFormat({ value: 'issue "x"' }) });
    expect(parseData('CAA', '0 issue "a"b"')).toEqual({ error: say.caaValue({ value: 'a"b' }) });
  });
});

describe('canonical data', () => {
  it.each([
    ['A', '192.0.2.1'],
    ['AAAA', ' 2001:DB8::0:1 '],
    ['CNAME', 'Target.Example.com'],
    ['MX', '.'],
    ['TXT', '" padded "'],
    ['TXT', '"\\"a\\" \\"b\\""'],
    ['SRV', '0 0 .'],
    ['CAA', '0 ISSUE ca.example; account=1'],
    ['CAA', '0 issue ""'],
  ] as const)('%s %j reads back to itself', (type, typed) => {
    const canonical = data(type, typed);
    expect(canonical).not.toMatch(/^error/);
    expect(canonicalData(type, canonical)).toBe(canonical);
    if (type !== 'TXT') expect(data(type, canonical)).toBe(canonical);
  });
});

describe('hostName and canonicalIpv6', () => {
  it('refuse what is no host name', () => {
    expect(hostName('192.0.2')).toBeUndefined();
    expect(hostName('')).toBeUndefined();
    expect(hostName(`${'a'.repeat(64)}.example`)).toBeUndefined();
    expect(hostName(`${'a.'.repeat(127)}de`)).toBeUndefined();
  });

  it('give any spelling of an address one form', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const canonical = canonicalIpv6(address);
        expect(canonical).toBeDefined();
        expect(canonicalIpv6(canonical ?? '')).toBe(canonical);
        expect(canonicalIpv6(address.toUpperCase())).toBe(canonical);
      }),
    );
  });
});

describe('presentation', () => {
  it('puts the priority first for MX and SRV only', () => {
    expect(presentation('MX', 'mail.example.de', 10)).toBe('10 mail.example.de.');
    expect(presentation('SRV', '5 5060 sip.example.de.', 0)).toBe('0 5 5060 sip.example.de.');
    expect(presentation('A', '192.0.2.1', 10)).toBe('192.0.2.1');
  });

  it('canonicalises registrar data, and keeps data it cannot parse or a type it does not know', () => {
    expect(presentation('cname', ' Target.Example.com')).toBe('target.example.com.');
    // A TXT's data is its text, quotes and spaces included.
    expect(presentation('txt', ' "hello" ')).toBe(' "hello" ');
    expect(presentation('CNAME', 'not a host ')).toBe('not a host');
    expect(presentation('SOA', ' ns1.example.de. hostmaster.example.de. 1 2 3 4 5')).toBe(
      'ns1.example.de. hostmaster.example.de. 1 2 3 4 5',
    );
  });
});

describe('answerPresentation matches the presentation of parsed data', () => {
  const cases: { answer: WireAnswer; type: RecordType; typed: string; priority?: number }[] = [
    { answer: { type: 'A', name: 'example.de', data: '192.0.2.1' }, type: 'A', typed: '192.0.2.1' },
    {
      answer: { type: 'AAAA', name: 'example.de', data: '2001:0:0:1:0:0:0:1' },
      type: 'AAAA',
      typed: '2001:0:0:1::1',
    },
    {
      answer: { type: 'AAAA', name: 'example.de', data: '::ffff:192.0.2.1' },
      type: 'AAAA',
      typed: '::FFFF:192.0.2.1',
    },
    {
      answer: { type: 'CNAME', name: 'www.example.de', data: 'Target.Example.com' },
      type: 'CNAME',
      typed: 'target.example.com',
    },
    {
      answer: { type: 'NS', name: 'sub.example.de', data: 'ns1.example.net' },
      type: 'NS',
      typed: 'NS1.example.net.',
    },
    {
      answer: { type: 'MX', name: 'example.de', data: { preference: 10, exchange: 'mail.example.de' } },
      type: 'MX',
      typed: 'mail.example.de',
      priority: 10,
    },
    {
      answer: { type: 'MX', name: 'example.de', data: { preference: 0, exchange: '.' } },
      type: 'MX',
      typed: '.',
      priority: 0,
    },
    { answer: { type: 'TXT', name: 'example.de', data: 'v=spf1 -all' }, type: 'TXT', typed: '"v=spf1 -all"' },
    {
      answer: {
        type: 'SRV',
        name: '_sip._tcp.example.de',
        data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.de' },
      },
      type: 'SRV',
      typed: '5 5060 sip.example.de',
      priority: 10,
    },
    {
      answer: { type: 'CAA', name: 'example.de', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
      type: 'CAA',
      typed: '0 ISSUE "letsencrypt.org"',
    },
    {
      answer: {
        type: 'CAA',
        name: 'example.de',
        data: { flags: 128, tag: 'iodef', value: 'mailto:ca@example.de' },
      },
      type: 'CAA',
      typed: '128 iodef mailto:ca@example.de',
    },
  ];

  it.each(cases)('$type $typed', ({ answer, type, typed, priority }) => {
    expect(answerPresentation(served(answer))).toBe(presentation(type, data(type, typed), priority));
  });

  it('joins the strings of a long TXT, bytes first', () => {
    // 300 characters of two bytes each: the wire splits them into 255-byte strings, one character apart.
    const long = 'ü'.repeat(300);
    const bytes = Buffer.from(long);
    const strings = [bytes.subarray(0, 255), bytes.subarray(255, 510), bytes.subarray(510)];
    const answer = served({ type: 'TXT', name: 'example.de', data: strings });
    expect(answer.type === 'TXT' && Array.isArray(answer.data) && answer.data.length).toBe(3);
    expect(answerPresentation(answer)).toBe(presentation('TXT', data('TXT', long)));
  });

  it('has none for types it does not compare', () => {
    const soa = served({
      type: 'SOA',
      name: 'example.de',
      data: { mname: 'ns1.example.de', rname: 'hostmaster.example.de', serial: 1 },
    });
    expect(answerPresentation(soa)).toBeUndefined();
  });

  it('agrees with parsed data for any IPv6 address', () => {
    // Any 16 bytes, zero groups frequent so that runs of zeros of every length meet. They are written out
    // in full for the encoder: dns-packet's encoder mis-reads some spellings (`::0:0:0:0:0:0.0.0.1`).
    const group = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((value) => value.toString(16).toUpperCase()).join(':');
        const answer = served({ type: 'AAAA', name: 'example.de', data: full });
        expect(answerPresentation(answer)).toBe(presentation('AAAA', data('AAAA', full)));
      }),
    );
  });
});
