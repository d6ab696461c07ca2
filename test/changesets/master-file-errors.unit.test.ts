import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  MASTER_FILE_ERROR_CODES,
  MAX_ERRORS,
  MAX_QUOTED,
  type MasterFileError,
  type MasterFileErrorCode,
  parseMasterFile,
} from '../../src/features/changesets/master-file.js';

const ORIGIN = 'example.com';

function errors(text: string): MasterFileError[] {
  const result = parseMasterFile(text, ORIGIN);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.records)}`);
  return result.errors;
}

describe('parseMasterFile: every error names its line', () => {
  const cases: [string, string, MasterFileError[]][] = [
    ['an unclosed quote', 'a 300 TXT "open\nb 300 A 192.0.2.1', [{ line: 1, code: 'unterminated_quote' }]],
    ['a ) without (', 'a 300 A 192.0.2.1 )', [{ line: 1, code: 'unbalanced_paren' }]],
    ['nested parentheses', 'a 300 TXT ( ( "x" ) )', [{ line: 1, code: 'unbalanced_paren' }]],
    [
      'a ( never closed: its line',
      'ok 60 A 192.0.2.1\na 300 TXT ( "x"\n "y"',
      [{ line: 2, code: 'unbalanced_paren' }],
    ],
    ['\\DDD above 255', 'a 300 TXT "\\256"', [{ line: 1, code: 'bad_escape', value: '\\256' }]],
    ['a backslash at the very end', 'a 300 TXT x\\', [{ line: 1, code: 'bad_escape', value: '\\' }]],
    ['$INCLUDE', 'a 60 A 192.0.2.1\n$INCLUDE /etc/passwd', [{ line: 2, code: 'include_refused' }]],
    [
      '$GENERATE',
      '$GENERATE 1-9 h$ A 192.0.2.$',
      [{ line: 1, code: 'unknown_directive', directive: '$GENERATE' }],
    ],
    ['$TTL without a value', '$TTL', [{ line: 1, code: 'bad_directive', directive: '$TTL' }]],
    ['$ORIGIN with two', '$ORIGIN a. b.', [{ line: 1, code: 'bad_directive', directive: '$ORIGIN' }]],
    ['$ORIGIN no name', '$ORIGIN a..b.', [{ line: 1, code: 'bad_name', name: 'a..b.' }]],
    ['$TTL no number', '$TTL soon', [{ line: 1, code: 'bad_ttl', value: 'soon' }]],
    ['a TTL over 2^31 − 1', 'a 2147483648 A 192.0.2.1', [{ line: 1, code: 'bad_ttl', value: '2147483648' }]],
    ['a blank owner first', '  300 A 192.0.2.1', [{ line: 1, code: 'no_owner' }]],
    ['an empty label', 'a..b 300 A 192.0.2.1', [{ line: 1, code: 'bad_name', name: 'a..b' }]],
    [
      'a label with a hyphen at its end',
      'bad- 300 A 192.0.2.1',
      [{ line: 1, code: 'bad_name', name: 'bad-' }],
    ],
    [
      'an escaped dot inside a label',
      'a\\.b 300 A 192.0.2.1',
      [{ line: 1, code: 'bad_name', name: 'a\\.b' }],
    ],
    ['a quoted owner', '"www" 300 A 192.0.2.1', [{ line: 1, code: 'bad_name', name: 'www' }]],
    [
      'an owner of another zone',
      'www.example.net. 300 A 192.0.2.1',
      [{ line: 1, code: 'outside_origin', name: 'www.example.net.', origin: 'example.com.' }],
    ],
    [
      'an owner that only ends like the zone',
      'notexample.com. 300 A 192.0.2.1',
      [{ line: 1, code: 'outside_origin', name: 'notexample.com.', origin: 'example.com.' }],
    ],
    [
      'a relative owner after $ORIGIN elsewhere',
      '$ORIGIN example.org.\nwww 300 A 192.0.2.1',
      [{ line: 2, code: 'outside_origin', name: 'www.example.org.', origin: 'example.com.' }],
    ],
    ['class CH', 'a 300 CH A 192.0.2.1', [{ line: 1, code: 'bad_class', value: 'CH' }]],
    ['no type', 'a 300 IN', [{ line: 1, code: 'missing_type' }]],
    ['HINFO', 'a 300 HINFO "PC" "Linux"', [{ line: 1, code: 'unknown_type', type: 'HINFO' }]],
    [
      'PTR, on its own line of a group',
      'a 300 A 192.0.2.1\n  PTR x.',
      [{ line: 2, code: 'unknown_type', type: 'PTR' }],
    ],
    ['a generic TYPE65', 'a 300 TYPE65 \\# 0', [{ line: 1, code: 'unknown_type', type: 'TYPE65' }]],
    ['MX without its exchange', '@ 300 MX 10', [{ line: 1, code: 'bad_rdata', type: 'MX', expected: 2 }]],
    [
      'A with two addresses',
      'a 300 A 192.0.2.1 192.0.2.2',
      [{ line: 1, code: 'bad_rdata', type: 'A', expected: 1 }],
    ],
    ['TXT with nothing', 'a 300 TXT', [{ line: 1, code: 'bad_rdata', type: 'TXT', expected: 1 }]],
    ['A not IPv4', 'a 300 A 300.1.1.1', [{ line: 1, code: 'bad_address', type: 'A', value: '300.1.1.1' }]],
    [
      'AAAA not IPv6',
      'a 300 AAAA 192.0.2.1',
      [{ line: 1, code: 'bad_address', type: 'AAAA', value: '192.0.2.1' }],
    ],
    [
      'MX preference too large',
      '@ 300 MX 70000 mail',
      [{ line: 1, code: 'bad_number', type: 'MX', value: '70000', max: 65_535 }],
    ],
    [
      'SRV port on a later line',
      '_s._tcp 300 SRV ( 1 2\n  65536 t. )',
      [{ line: 2, code: 'bad_number', type: 'SRV', value: '65536', max: 65_535 }],
    ],
    [
      'CAA flags over 255',
      '@ 300 CAA 256 issue "x"',
      [{ line: 1, code: 'bad_number', type: 'CAA', value: '256', max: 255 }],
    ],
    ['CNAME to the root', 'a 300 CNAME .', [{ line: 1, code: 'bad_target', type: 'CNAME', value: '.' }]],
    ['NS to no name', 'a 300 NS ns..x.', [{ line: 1, code: 'bad_target', type: 'NS', value: 'ns..x.' }]],
    [
      'a quoted MX exchange',
      '@ 300 MX 10 "mail"',
      [{ line: 1, code: 'bad_target', type: 'MX', value: 'mail' }],
    ],
    ['a CAA tag with a hyphen', '@ 300 CAA 0 is-sue "x"', [{ line: 1, code: 'bad_caa', value: 'is-sue' }]],
    ['a CAA value with a quote', '@ 300 CAA 0 issue "a\\"b"', [{ line: 1, code: 'bad_caa', value: 'a\\"b' }]],
    ['TXT bytes that are no UTF-8', 'a 300 TXT "\\255\\254"', [{ line: 1, code: 'bad_text' }]],
  ];

  it.each(cases)('%s', (_name, text, expected) => {
    expect(errors(text)).toEqual(expected);
  });

  it('covers every error code', () => {
    const seen = new Set<string>([
      ...cases.flatMap(([, , found]) => found.map((error) => error.code)),
      'too_many_errors',
    ]);
    expect([...seen].sort()).toEqual([...MASTER_FILE_ERROR_CODES].sort());
    expectTypeOf<(typeof MASTER_FILE_ERROR_CODES)[number]>().toEqualTypeOf<MasterFileErrorCode>();
  });

  it('collects the errors of every line, in line order, and no records', () => {
    const text = 'a 300 A 192.0.2.1\nb 300 TXT "x\nc 300 HINFO x y\nd 300 A 192.0.2.4\n$INCLUDE x';
    expect(parseMasterFile(text, ORIGIN)).toEqual({
      ok: false,
      errors: [
        { line: 2, code: 'unterminated_quote' },
        { line: 3, code: 'unknown_type', type: 'HINFO' },
        { line: 5, code: 'include_refused' },
      ],
    });
  });

  it('skips the blank-owner lines after an owner that did not read, without more errors', () => {
    expect(errors('-x- 300 A 192.0.2.1\n  300 A 192.0.2.2')).toEqual([
      { line: 1, code: 'bad_name', name: '-x-' },
    ]);
  });

  it(`lists ${MAX_ERRORS} errors at most, then says there are more`, () => {
    const text = Array.from({ length: 30 }, (_, i) => `h${i} 300 HINFO a b`).join('\n');
    const found = errors(text);
    expect(found).toHaveLength(MAX_ERRORS + 1);
    expect(found.at(-1)).toEqual({ line: MAX_ERRORS + 1, code: 'too_many_errors', max: MAX_ERRORS });
  });

  it(`cuts a quoted part to ${MAX_QUOTED} characters, so a modal's field error stays short`, () => {
    const [error] = errors(`a 300 A ${'1'.repeat(500)}`);
    expect(error).toMatchObject({ code: 'bad_address' });
    const value = (error as { value: string }).value;
    expect([...value]).toHaveLength(MAX_QUOTED);
    expect(value.endsWith('…')).toBe(true);
  });
});
