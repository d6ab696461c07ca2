import { describe, expect, it } from 'vitest';
import { type ParsedRecord, parseMasterFile } from '../../src/features/changesets/master-file.js';

const ORIGIN = 'example.com';

/** The records of a text that parses, without their lines. */
function records(text: string, options: { defaultTtl?: number } = {}): Omit<ParsedRecord, 'line'>[] {
  const result = parseMasterFile(text, ORIGIN, options);
  if (!result.ok) throw new Error(`expected records, got ${JSON.stringify(result.errors)}`);
  return result.records.map(({ line: _line, ...record }) => record);
}

const rec = (name: string, type: string, data: string, ttl?: number, priority?: number) => ({
  name,
  type,
  data,
  ...(ttl === undefined ? {} : { ttl }),
  ...(priority === undefined ? {} : { priority }),
});

describe('parseMasterFile: what it reads (RFC 1035 §5.1)', () => {
  const cases: [string, string, ReturnType<typeof rec>[]][] = [
    ['@ is the origin', '@ 300 A 192.0.2.1', [rec('example.com.', 'A', '192.0.2.1', 300)]],
    ['a relative owner', 'www 300 A 192.0.2.1', [rec('www.example.com.', 'A', '192.0.2.1', 300)]],
    [
      'an absolute owner',
      'WWW.Example.COM. 300 A 192.0.2.1',
      [rec('www.example.com.', 'A', '192.0.2.1', 300)],
    ],
    ['a wildcard owner', '*.apps 300 A 192.0.2.1', [rec('*.apps.example.com.', 'A', '192.0.2.1', 300)]],
    [
      'a blank owner is the previous one',
      'www 300 A 192.0.2.1\n\t300 AAAA 2001:DB8:0::1',
      [rec('www.example.com.', 'A', '192.0.2.1', 300), rec('www.example.com.', 'AAAA', '2001:db8::1', 300)],
    ],
    [
      '$ORIGIN, absolute and relative to the one before',
      '$ORIGIN sub.example.com.\nwww 60 A 192.0.2.1\n$origin deeper\n@ 60 A 192.0.2.2',
      [
        rec('www.sub.example.com.', 'A', '192.0.2.1', 60),
        rec('deeper.sub.example.com.', 'A', '192.0.2.2', 60),
      ],
    ],
    [
      '$TTL for records without one, in BIND units too',
      '$TTL 1h30m\na A 192.0.2.1\nb 60 A 192.0.2.2\n$TTL 2W\nc A 192.0.2.3',
      [
        rec('a.example.com.', 'A', '192.0.2.1', 5400),
        rec('b.example.com.', 'A', '192.0.2.2', 60),
        rec('c.example.com.', 'A', '192.0.2.3', 1_209_600),
      ],
    ],
    [
      'TTL and class in either order, or absent',
      'a 300 IN A 192.0.2.1\nb IN 300 A 192.0.2.2\nc in a 192.0.2.3\nd 300 A 192.0.2.4',
      [
        rec('a.example.com.', 'A', '192.0.2.1', 300),
        rec('b.example.com.', 'A', '192.0.2.2', 300),
        rec('c.example.com.', 'A', '192.0.2.3', 300),
        rec('d.example.com.', 'A', '192.0.2.4', 300),
      ],
    ],
    [
      'parentheses over lines, with comments and ) ; inside quotes',
      'txt 300 IN TXT ( "a) b; c" ; first\n   "(d)" ; second\n )\nnext 300 A 192.0.2.1',
      [rec('txt.example.com.', 'TXT', 'a) b; c(d)', 300), rec('next.example.com.', 'A', '192.0.2.1', 300)],
    ],
    [
      'comments, blank lines, CRLF and a BOM',
      '\uFEFF; a zone\r\n\r\n   ; indented comment\r\nwww 300 A 192.0.2.1 ; trailing\r\n',
      [rec('www.example.com.', 'A', '192.0.2.1', 300)],
    ],
    [
      'quoted strings with \\" \\\\ and \\DDD escapes',
      't 300 TXT "say \\"hi\\" \\\\ \\065\\066 caf\\195\\169 \\;"',
      [rec('t.example.com.', 'TXT', 'say "hi" \\ AB café ;', 300)],
    ],
    [
      'a TXT of several strings is one text, joined; unquoted words are strings too',
      't 300 TXT "v=DKIM1; k=rsa; " "p=MIIB" AQAB',
      [rec('t.example.com.', 'TXT', 'v=DKIM1; k=rsa; p=MIIBAQAB', 300)],
    ],
    ['an empty TXT string', 't 300 TXT ""', [rec('t.example.com.', 'TXT', '', 300)]],
    [
      'MX: the preference becomes the priority; relative exchange made absolute',
      '@ 300 MX 10 mail\n@ 300 MX 20 mx.example.net.',
      [
        rec('example.com.', 'MX', 'mail.example.com.', 300, 10),
        rec('example.com.', 'MX', 'mx.example.net.', 300, 20),
      ],
    ],
    ['a null MX (RFC 7505)', '@ 300 MX 0 .', [rec('example.com.', 'MX', '.', 300, 0)]],
    [
      'SRV: priority apart, data `weight port target`',
      '_sip._tcp 300 SRV 10 5 5060 sip.example.\n_x._tcp 300 SRV 0 0 0 .',
      [
        rec('_sip._tcp.example.com.', 'SRV', '5 5060 sip.example.', 300, 10),
        rec('_x._tcp.example.com.', 'SRV', '0 0 .', 300, 0),
      ],
    ],
    [
      'CAA keeps `flags tag "value"`, the tag lower case, an unquoted value quoted',
      '@ 300 CAA 0 issue "ca.example"\n@ 300 CAA 128 IODEF mailto:a@example.com\n@ 300 CAA 0 issuewild ""',
      [
        rec('example.com.', 'CAA', '0 issue "ca.example"', 300),
        rec('example.com.', 'CAA', '128 iodef "mailto:a@example.com"', 300),
        rec('example.com.', 'CAA', '0 issuewild ""', 300),
      ],
    ],
    [
      'relative targets of CNAME, NS and ALIAS are made absolute',
      'www 300 CNAME @\nsub 300 NS ns1.sub\nftp 300 CNAME Www\n@ 300 ALIAS lb.example.net.',
      [
        rec('www.example.com.', 'CNAME', 'example.com.', 300),
        rec('sub.example.com.', 'NS', 'ns1.sub.example.com.', 300),
        rec('ftp.example.com.', 'CNAME', 'www.example.com.', 300),
        rec('example.com.', 'ALIAS', 'lb.example.net.', 300),
      ],
    ],
    [
      'IDN owners and targets in Unicode become A-labels',
      'Bücher 300 A 192.0.2.1\nshop.münchen.example.com. 300 CNAME bücher',
      [
        rec('xn--bcher-kva.example.com.', 'A', '192.0.2.1', 300),
        rec('shop.xn--mnchen-3ya.example.com.', 'CNAME', 'xn--bcher-kva.example.com.', 300),
      ],
    ],
    [
      'an escaped letter in a name is the letter',
      'w\\119w 300 A 192.0.2.1',
      [rec('www.example.com.', 'A', '192.0.2.1', 300)],
    ],
    [
      'AAAA in canonical form (RFC 5952)',
      'v6 300 AAAA 2001:0DB8:0000::0001',
      [rec('v6.example.com.', 'AAAA', '2001:db8::1', 300)],
    ],
    [
      'the SOA is read and left out, so an export re-imports',
      '@ 3600 IN SOA ns1.example. hostmaster.example.com. (\n 1 ; serial\n 7200 3600 1209600 300 )\n@ 300 A 192.0.2.1',
      [rec('example.com.', 'A', '192.0.2.1', 300)],
    ],
  ];

  it.each(cases)('%s', (_name, text, expected) => {
    expect(records(text)).toEqual(expected);
  });

  it('without $TTL, a record takes the last TTL written (RFC 1035 §5.1), then the default, then none', () => {
    expect(records('a A 192.0.2.1\nb 600 A 192.0.2.2\nc A 192.0.2.3', { defaultTtl: 3600 })).toEqual([
      rec('a.example.com.', 'A', '192.0.2.1', 3600),
      rec('b.example.com.', 'A', '192.0.2.2', 600),
      rec('c.example.com.', 'A', '192.0.2.3', 600),
    ]);
    expect(records('a A 192.0.2.1')).toEqual([rec('a.example.com.', 'A', '192.0.2.1')]);
  });

  it('gives each record the line it starts on, and notes the SOA', () => {
    const result = parseMasterFile(
      '; c\n\n@ SOA ns. h. ( 1 2\n 3 4 5 )\nwww 300 TXT (\n "a"\n "b" )\nx A 192.0.2.1',
      'example.com.',
    );
    expect(result).toMatchObject({
      ok: true,
      records: [
        { line: 5, name: 'www.example.com.' },
        { line: 8, name: 'x.example.com.' },
      ],
      notes: [{ line: 3, code: 'soa_ignored' }],
    });
  });

  it('takes the origin as Slack or the registrar gives it', () => {
    expect(parseMasterFile('@ 60 A 192.0.2.1', 'Bücher.Example.')).toMatchObject({
      ok: true,
      records: [{ name: 'xn--bcher-kva.example.' }],
    });
  });
});
