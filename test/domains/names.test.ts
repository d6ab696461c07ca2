import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDomainName, registrableDomain, splitNames } from '../../src/features/domains/names.js';

const vectors = readFileSync(
  new URL('../../../shared/reference/publicsuffix/tests.txt', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('//'))
  .map((line) => line.trim().split(/\s+/) as [string, string]);

const asNull = (value: string) => (value === 'null' ? null : value);

describe('registrable domains', () => {
  it('passes the Public Suffix List test vectors', () => {
    expect(vectors.length).toBeGreaterThan(70);
    for (const [input, expected] of vectors) {
      const want = asNull(expected);
      const got = registrableDomain(asNull(input));
      // The vectors give IDN results in Unicode or punycode as typed; compare in ASCII.
      expect(got === null ? null : got, input).toBe(want === null ? null : registrableDomain(want));
    }
  });
});

describe('parseDomainName', () => {
  it('accepts registrable names and converts IDN to punycode', () => {
    expect(parseDomainName('Müller.de')).toMatchObject({
      ok: true,
      ascii: 'xn--mller-kva.de',
      unicode: 'müller.de',
    });
    expect(parseDomainName('example.co.uk.')).toMatchObject({ ok: true, ascii: 'example.co.uk' });
  });

  it('refuses what cannot be registered, saying why', () => {
    expect(parseDomainName('co.uk')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('public suffix'),
    });
    expect(parseDomainName('www.example.com')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('example.com'),
    });
    expect(parseDomainName('.com')).toMatchObject({ ok: false });
    expect(parseDomainName('foo.notarealtld')).toMatchObject({
      ok: false,
      reason: 'unknown top-level domain',
    });
    expect(parseDomainName('<@U123>')).toMatchObject({ ok: false });
    expect(parseDomainName('a b')).toMatchObject({ ok: false });
  });

  it('splits on spaces, commas and newlines, merges duplicates, and caps the count', () => {
    const { names, overflow } = splitNames('a.com, b.com\nA.COM müller.de xn--mller-kva.de c.com', 3);
    expect(names.map((n) => (n.ok ? n.ascii : n.input))).toEqual(['a.com', 'b.com', 'xn--mller-kva.de']);
    expect(overflow).toBe(1);
  });
});
