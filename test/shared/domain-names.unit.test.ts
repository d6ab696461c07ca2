import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  hasMixedScripts,
  parseDomainName,
  registrableDomain,
  reviewName,
  splitNames,
} from '../../src/shared/domain-names.js';

// The list's official vectors, copied into the repository (see fixtures/publicsuffix/SOURCE.md).
const vectors = readFileSync(new URL('../fixtures/publicsuffix/tests.txt', import.meta.url), 'utf8')
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

  it('knows TLDs delegated after December 2024 (missing from psl 1.15)', () => {
    expect(parseDomainName('example.hotel')).toMatchObject({ ok: true, ascii: 'example.hotel' });
    expect(parseDomainName('example.web')).toMatchObject({ ok: true, ascii: 'example.web' });
  });

  it('judges registrability by the ICANN section: private suffixes are ordinary names', () => {
    expect(parseDomainName('github.io')).toMatchObject({ ok: true, ascii: 'github.io' });
    expect(parseDomainName('uk.com')).toMatchObject({ ok: true, ascii: 'uk.com' });
    expect(parseDomainName('myproject.github.io')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('did you mean github.io?'),
    });
    // The vectors, by contrast, follow the whole list.
    expect(registrableDomain('myproject.github.io')).toBe('myproject.github.io');
    expect(registrableDomain('github.io')).toBeNull();
  });

  it('refuses what cannot be registered, saying why', () => {
    expect(parseDomainName('co.uk')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('public suffix'),
    });
    expect(parseDomainName('www.example.com')).toMatchObject({
      ok: false,
      reason: 'a subdomain; did you mean example.com?',
    });
    expect(parseDomainName('com')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('public suffix'),
    });
    expect(parseDomainName('c.mm')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('public suffix'),
    });
    expect(parseDomainName('.com')).toMatchObject({ ok: false });
    expect(parseDomainName('foo.notarealtld')).toMatchObject({
      ok: false,
      reason: 'unknown top-level domain',
    });
    expect(parseDomainName('notarealtld')).toMatchObject({ ok: false, reason: 'unknown top-level domain' });
    expect(parseDomainName('a..com')).toMatchObject({ ok: false, reason: 'empty label' });
    expect(parseDomainName('-a.com')).toMatchObject({ ok: false, reason: 'not a valid domain name' });
    expect(parseDomainName('a_b.com')).toMatchObject({ ok: false, reason: 'not a valid domain name' });
    expect(parseDomainName(`${'a'.repeat(64)}.com`)).toMatchObject({ ok: false });
    expect(parseDomainName('<@U123>')).toMatchObject({ ok: false });
    expect(parseDomainName('a b')).toMatchObject({ ok: false });
  });

  it('splits on spaces, commas and newlines, merges duplicates, and caps the count', () => {
    const { names, overflow } = splitNames('a.com, b.com\nA.COM müller.de xn--mller-kva.de c.com', 3);
    expect(names.map((n) => (n.ok ? n.ascii : n.input))).toEqual(['a.com', 'b.com', 'xn--mller-kva.de']);
    expect(overflow).toBe(1);
  });
});

describe('names where someone decides', () => {
  it('shows a Unicode name beside its ASCII form, so a look-alike cannot pass for a familiar name', () => {
    const lookalike = parseDomainName('аррӏе.com');
    if (!lookalike.ok) throw new Error(lookalike.reason);
    expect(reviewName(lookalike.ascii)).toBe(`аррӏе.com (${lookalike.ascii})`);
    expect(lookalike.ascii.startsWith('xn--')).toBe(true);
    expect(reviewName('example.com')).toBe('example.com');
  });

  it('flags labels that mix scripts, and leaves single-script and Japanese names alone', () => {
    expect(hasMixedScripts('pаypal.com')).toBe(true); // Latin p, Cyrillic а
    expect(hasMixedScripts('müller.de')).toBe(false);
    expect(hasMixedScripts('аррӏе.com')).toBe(false);
    expect(hasMixedScripts('日本のドメイン.jp')).toBe(false);
    const mixed = parseDomainName('pаypal.com');
    if (!mixed.ok) throw new Error(mixed.reason);
    expect(reviewName(mixed.ascii)).toContain('⚠ mixed scripts');
  });
});
