import { describe, expect, it } from 'vitest';
import type { DnsClient } from '../../src/dns/client.js';
import {
  caaVerdict,
  caOfProducts,
  checkCaa,
  ProductsCa,
  REGISTRAR_CA,
} from '../../src/features/diagnostics/caa.js';
import {
  isDnsMethod,
  isEmailMethod,
  parseIssueValue,
  relaxedValue,
  restrictionOf,
} from '../../src/features/diagnostics/caa-property.js';

describe('the CA behind the registrar’s products (GET /tls/products)', () => {
  it('knows CAs by name, takes issuer domains as they are, and falls back to the v1.6.2 products’ CA', () => {
    expect(caOfProducts([{ ca: 'DigiCert' }, { ca: 'GeoTrust' }])).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: "Let's Encrypt" }]).identifiers).toEqual(['letsencrypt.org']);
    expect(caOfProducts([{ ca: 'pki.example.net' }]).identifiers).toEqual(['pki.example.net']);
    const both = caOfProducts([{ ca: 'Sectigo' }, { ca: 'DigiCert' }]);
    expect(both.name).toBe('Sectigo / DigiCert');
    expect(both.identifiers).toEqual(expect.arrayContaining(['sectigo.com', 'digicert.com']));
    // No endpoint, no CA named, or only names Regdesk does not know: the v1.6.2 products (DigiCert).
    expect(caOfProducts(undefined)).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: '' }, {}])).toEqual(REGISTRAR_CA);
    expect(caOfProducts([{ ca: 'Some Unknown CA' }])).toEqual(REGISTRAR_CA);
  });

  it('reads the products once an hour per workspace; a failed read is not kept', async () => {
    let t = 0;
    const cache = new ProductsCa(() => t);
    let reads = 0;
    const read = async () => {
      reads++;
      return [{ ca: "Let's Encrypt" }];
    };
    expect((await cache.for('ws1', read)).name).toBe("Let's Encrypt");
    await cache.for('ws1', read);
    expect(reads).toBe(1);
    await cache.for('ws2', read);
    expect(reads).toBe(2);
    t += 3_600_000;
    await cache.for('ws1', read);
    expect(reads).toBe(3);
    const failing = async (): Promise<never> => {
      throw new Error('registrar down');
    };
    expect(await cache.for('ws3', failing)).toEqual(REGISTRAR_CA);
    expect((await cache.for('ws3', read)).name).toBe("Let's Encrypt");
  });
});

/** A resolver answering CAA from a table: owner name → presentation records `flags tag "value"`. */
function caaDns(zone: Record<string, string[]>): DnsClient {
  const records = async (name: string, type: string) =>
    type !== 'CAA'
      ? []
      : (zone[name] ?? []).map((line) => {
          const [, flags, tag, value] = /^(\d+) (\S+) "(.*)"$/.exec(line) ?? [];
          return { type: 'CAA', name, data: { flags: Number(flags), tag, value } };
        });
  return { records } as unknown as DnsClient;
}

describe('CAA issue values (RFC 8659 §4.2, RFC 8657)', () => {
  it.each([
    ['digicert.com', { issuer: 'digicert.com', parameters: [] }],
    ['  DigiCert.COM.  ', { issuer: 'digicert.com', parameters: [] }],
    [';', { issuer: '', parameters: [] }],
    ['', { issuer: '', parameters: [] }],
    [' ; ', { issuer: '', parameters: [] }],
    ['digicert.com;', { issuer: 'digicert.com', parameters: [] }],
    [
      'example.net; accounturi=https://example.net/account/1234',
      { issuer: 'example.net', parameters: [['accounturi', 'https://example.net/account/1234']] },
    ],
    [
      'example.net ;\tvalidationmethods = dns-01 ;ValidationMethods=http-01',
      {
        issuer: 'example.net',
        parameters: [
          ['validationmethods', 'dns-01'],
          ['validationmethods', 'http-01'],
        ],
      },
    ],
  ])('%j parses', (value, parsed) => {
    expect(parseIssueValue(value)).toEqual(parsed);
  });

  it.each([
    'digicert.com validationmethods=dns-01',
    'digi cert.com',
    '-digicert.com',
    'digicert.com; validationmethods',
    'digicert.com; validationmethods=dns 01',
  ])('%j is malformed', (value) => {
    expect(parseIssueValue(value)).toBeUndefined();
  });

  it.each([
    ['digicert.com', undefined, 'digicert.com'],
    ['digicert.com; validationmethods=dns-01', undefined, 'digicert.com; validationmethods=dns-01'],
    [
      'digicert.com; validationmethods=http-01,dns-01',
      undefined,
      'digicert.com; validationmethods=http-01,dns-01',
    ],
    [
      'digicert.com; validationmethods=ca-dns-txt-change',
      undefined,
      'digicert.com; validationmethods=ca-dns-txt-change',
    ],
    ['digicert.com; validationmethods=http-01', 'methods', 'digicert.com; validationmethods=http-01,dns-01'],
    [
      'digicert.com; validationmethods=tls-alpn-01,http-01',
      'methods',
      'digicert.com; validationmethods=tls-alpn-01,http-01,dns-01',
    ],
    ['digicert.com; accounturi=https://example.net/account/1234', 'account', 'digicert.com'],
    [
      'digicert.com; accounturi=https://example.net/account/1; validationmethods=http-01',
      'methods',
      'digicert.com; validationmethods=http-01,dns-01',
    ],
    ['digicert.com; cansignhttpexchanges=yes', undefined, 'digicert.com; cansignhttpexchanges=yes'],
  ])('%j restricts: %s, and relaxed is %j', (value, restriction, relaxed) => {
    const parsed = parseIssueValue(value);
    if (parsed === undefined) throw new Error('malformed');
    expect(restrictionOf(parsed)).toBe(restriction);
    expect(relaxedValue(parsed)).toBe(relaxed);
  });

  it.each([
    // The order is validated by e-mail (the registrar's dcv_method email): dns-01 does not allow it.
    // The last column: while the way is not chosen yet (a Renew button), either one will do.
    ['digicert.com', undefined, 'digicert.com', undefined],
    ['digicert.com; validationmethods=dns-01', 'methods', 'digicert.com', undefined],
    [
      'digicert.com; validationmethods=http-01,ca-email',
      undefined,
      'digicert.com; validationmethods=http-01,ca-email',
      undefined,
    ],
    ['digicert.com; validationmethods=email-reply-00', 'methods', 'digicert.com', 'methods'],
    [
      'digicert.com; accounturi=https://example.net/account/1; validationmethods=dns-01; cansignhttpexchanges=yes',
      'methods',
      'digicert.com; cansignhttpexchanges=yes',
      'account',
    ],
    ['digicert.com; accounturi=https://example.net/account/1', 'account', 'digicert.com', 'account'],
  ])(
    '%j, for an order validated by e-mail, restricts: %s, and relaxed is %j',
    (value, restriction, relaxed, either) => {
      const parsed = parseIssueValue(value);
      if (parsed === undefined) throw new Error('malformed');
      expect(restrictionOf(parsed, ['email'])).toBe(restriction);
      expect(relaxedValue(parsed, 'email')).toBe(relaxed);
      expect(restrictionOf(parsed, ['dns', 'email'])).toBe(either);
    },
  );

  it('counts labels naming mail, but not email-reply-00 (S/MIME), as e-mail validation', () => {
    expect(['ca-email', 'CA-Constructed-Email', 'ca-mail'].every(isEmailMethod)).toBe(true);
    expect(['dns-01', 'http-01', 'email-reply-00'].some(isEmailMethod)).toBe(false);
  });

  it('counts dns-01 and labels containing dns as DNS-based, nothing else', () => {
    expect(['dns-01', 'DNS-01', 'dns-account-01', 'ca-dns-txt-change'].every(isDnsMethod)).toBe(true);
    expect(['http-01', 'tls-alpn-01', 'email-reply-00', 'ca-website-change'].some(isDnsMethod)).toBe(false);
  });
});

describe('whether CAA lets the registrar’s CA issue for a DNS-validated order', () => {
  const ca = caOfProducts([{ ca: 'example.net' }]);
  const verdict = (records: string[], name = 'example.com', at = 'example.com') =>
    caaVerdict(caaDns({ [at]: records }), name, ca);

  it.each([
    // RFC 8657 §5's examples, for a CA whose issuer domain is example.net.
    [['0 issue "example.net; accounturi=https://example.net/account/1234"'], 'account'],
    [['0 issue "example.net; validationmethods=dns-01"'], undefined],
    [['0 issue "example.net; validationmethods=http-01"'], 'methods'],
    [
      ['0 issue "example.net; accounturi=https://example.net/account/1234; validationmethods=dns-01"'],
      'account',
    ],
    // Whitespace around `;` and `=`.
    [['0 issue " example.net ;  validationmethods = http-01 "'], 'methods'],
    [['0 issue "example.net\t;\tvalidationmethods=dns-01\t"'], undefined],
    // One record that authorizes is enough.
    [['0 issue "example.net; validationmethods=http-01"', '0 issue "example.net"'], undefined],
    // An empty issuer: no CA.
    [['0 issue ";"'], 'issuer'],
    [['0 issue "letsencrypt.org"'], 'issuer'],
    [['0 issue "example.net validationmethods=dns-01"'], 'issuer'],
    // The critical flag: an unknown tag forbids everything; a known one does not.
    [['128 tbs "Unknown"', '0 issue "example.net"'], 'critical'],
    [['128 issue "example.net"'], undefined],
    [['128 iodef "mailto:security@example.com"', '0 issue "example.net"'], undefined],
    [['0 tbs "Unknown"', '0 issue "example.net"'], undefined],
    // No issue record: any CA.
    [['0 iodef "mailto:security@example.com"'], undefined],
  ])('%j → %s', async (records, reason) => {
    const found = await verdict(records);
    if (reason === undefined) expect(found).toEqual({ allowed: true });
    else expect(found).toMatchObject({ allowed: false, reason, at: 'example.com' });
  });

  it('gives the exact record to set, or to remove', async () => {
    expect(await verdict(['0 issue "example.net; validationmethods=http-01"'])).toMatchObject({
      methods: 'http-01',
      record: {
        name: 'example.com',
        type: 'CAA',
        value: '0 issue "example.net; validationmethods=http-01,dns-01"',
      },
    });
    expect(
      await verdict(['0 issue "example.net; accounturi=https://example.net/account/1234"']),
    ).toMatchObject({
      record: { name: 'example.com', value: '0 issue "example.net"' },
    });
    expect(await verdict(['0 issue ";"'])).toMatchObject({
      issuers: ['no CA'],
      record: { name: 'example.com', value: '0 issue "example.net"' },
    });
    expect(await verdict(['128 tbs "Unknown"'])).toMatchObject({
      tag: 'tbs',
      record: { name: 'example.com', value: '128 tbs "Unknown"', action: 'remove' },
    });
  });

  it('judges an order validated by e-mail by its own way (RFC 8657 §4)', async () => {
    const dns = caaDns({ 'example.com': ['0 issue "example.net; validationmethods=dns-01"'] });
    expect(await caaVerdict(dns, 'example.com', ca, ['dns'])).toEqual({ allowed: true });
    expect(await caaVerdict(dns, 'example.com', ca, ['email'])).toMatchObject({
      reason: 'methods',
      methods: 'dns-01',
      validation: 'email',
      record: { value: '0 issue "example.net"' },
    });
    const http = caaDns({ 'example.com': ['0 issue "example.net; validationmethods=http-01"'] });
    expect(await caaVerdict(http, 'example.com', ca, ['dns', 'email'])).toMatchObject({
      reason: 'methods',
      validation: 'dns',
      record: { value: '0 issue "example.net; validationmethods=http-01,dns-01"' },
    });
  });

  it('climbs to the parent, and a wildcard follows issuewild', async () => {
    const dns = caaDns({
      'example.com': ['0 issue "example.net; validationmethods=http-01"', '0 issuewild "example.net"'],
    });
    expect(await caaVerdict(dns, 'www.example.com', ca)).toMatchObject({
      reason: 'methods',
      at: 'example.com',
    });
    expect(await caaVerdict(dns, '*.example.com', ca)).toEqual({ allowed: true });
    const wild = caaDns({ 'example.com': ['0 issuewild "example.net; validationmethods=http-01"'] });
    expect(await caaVerdict(wild, 'example.com', ca)).toEqual({ allowed: true });
    expect(await caaVerdict(wild, '*.example.com', ca)).toMatchObject({
      reason: 'methods',
      record: { value: '0 issuewild "example.net; validationmethods=http-01,dns-01"' },
    });
  });

  it('/dns check names each reason once, with its fix', async () => {
    const dns = (records: string[]) => {
      const client = caaDns({ 'example.com': records });
      return {
        records: (name: string, type: string) =>
          type === 'SOA' ? Promise.resolve([]) : client.records(name, type as 'CAA'),
      } as unknown as DnsClient;
    };
    const codes = async (records: string[]) =>
      (await checkCaa(dns(records), 'example.com', ca)).findings.map((f) => [
        f.code,
        f.severity,
        f.fix?.[0]?.value,
      ]);
    expect(await codes(['0 issue "example.net; validationmethods=http-01"'])).toEqual([
      ['caaMethods', 'broken', '0 issue "example.net; validationmethods=http-01,dns-01"'],
    ]);
    expect(await codes(['0 issue "example.net; accounturi=https://example.net/a/1"'])).toEqual([
      ['caaAccount', 'risky', '0 issue "example.net"'],
    ]);
    expect(
      await codes(['0 issue "example.net; accounturi=https://example.net/a/1"', '0 issuewild ";"']),
    ).toEqual([
      ['caaAccount', 'risky', '0 issue "example.net"'],
      ['caaForbidsWildcard', 'risky', '0 issuewild "example.net"'],
    ]);
    expect(await codes(['128 tbs "Unknown"'])).toEqual([['caaCritical', 'broken', '128 tbs "Unknown"']]);
    expect(await codes(['0 issue "example.net"'])).toEqual([]);
  });
});
