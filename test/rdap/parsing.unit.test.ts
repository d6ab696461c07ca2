import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchServer, parseBootstrap, rdapFacts } from '../../src/rdap/index.js';
import { RdapDomain } from '../../src/rdap/schema.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/rdap/${name}`, import.meta.url), 'utf8');

describe('the RDAP bootstrap file (RFC 9224)', () => {
  const services = parseBootstrap(fixture('bootstrap.json')) ?? {};

  it('reads the example of §4 and finds each TLD its server, HTTPS first', () => {
    expect(matchServer(services, 'example.com')).toEqual({
      kind: 'server',
      tld: 'com',
      baseUrl: 'https://registry.example.com/myrdap/',
    });
    expect(matchServer(services, 'WWW.Example.NET.')).toMatchObject({
      baseUrl: 'https://registry.example.com/myrdap/',
    });
    expect(matchServer(services, 'xn--abc.xn--zckzah')).toMatchObject({
      baseUrl: 'https://example.net/rdap/xn--zckzah/',
    });
    expect(matchServer(services, 'example.de')).toEqual({ kind: 'none', tld: 'de' });
  });

  it('matches the longest label sequence, and adds the trailing slash a base URL needs', () => {
    const longer = { uk: ['https://uk.example/'], 'co.uk': ['https://co-uk.example/rdap'] };
    expect(matchServer(longer, 'shop.co.uk')).toMatchObject({ baseUrl: 'https://co-uk.example/rdap/' });
    expect(matchServer(longer, 'shop.org.uk')).toMatchObject({ baseUrl: 'https://uk.example/' });
    // Plain HTTP only when it is the only URL (http.ts then asks only a lab's addresses); no URL is none.
    expect(matchServer({ lab: ['http://lab.example/'] }, 'a.lab')).toMatchObject({
      baseUrl: 'http://lab.example/',
    });
    expect(matchServer({ odd: ['ftp://odd.example/'] }, 'a.odd')).toEqual({ kind: 'none', tld: 'odd' });
  });

  it('is no bootstrap file when it is not JSON or not shaped as one', () => {
    expect(parseBootstrap('<html>')).toBeUndefined();
    expect(parseBootstrap('{"version":"1.0","services":[["com"]]}')).toBeUndefined();
    expect(parseBootstrap('{"version":"1.0","services":[],"extra":{"ignored":true}}')).toEqual({});
  });
});

describe('an RDAP domain answer (RFC 9083 §5.3, RFC 8056 statuses)', () => {
  const example = JSON.parse(fixture('domain.json')) as Record<string, unknown>;
  const facts = (changes: Record<string, unknown>) => rdapFacts(RdapDomain.parse({ ...example, ...changes }));

  it('reads the expiration event, the registrar entity and a client transfer lock, ignoring extra fields', () => {
    expect(facts({})).toEqual({
      expiresAt: Date.parse('2030-12-31T23:59:59Z'),
      registrar: 'Example Registrar & Co.',
      transferLock: true,
      lapsing: false,
    });
  });

  it('knows each transfer lock and the statuses of a domain on its way out', () => {
    expect(facts({ status: ['server transfer prohibited'] }).transferLock).toBe(true);
    expect(facts({ status: ['transfer prohibited'] }).transferLock).toBe(true);
    expect(facts({ status: ['active', 'client update prohibited'] }).transferLock).toBe(false);
    expect(facts({ status: ['Redemption Period'] }).lapsing).toBe(true);
    expect(facts({ status: ['pending delete'] }).lapsing).toBe(true);
  });

  it('leaves out what it cannot read: no or a bad expiration date, a registrar without a name', () => {
    expect(facts({ events: [] }).expiresAt).toBeUndefined();
    expect(facts({ events: [{ eventAction: 'expiration', eventDate: 'soon' }] }).expiresAt).toBeUndefined();
    expect(
      facts({ entities: [{ roles: ['registrar'], vcardArray: ['vcard', 'not a list'] }] }).registrar,
    ).toBeUndefined();
    const noisy = ['vcard', [['fn', {}, 'text', `  Evil\u0007\nRegistrar ${'x'.repeat(200)}`]]];
    expect(facts({ entities: [{ roles: ['registrar'], vcardArray: noisy }] }).registrar).toBe(
      `Evil Registrar ${'x'.repeat(200)}`.slice(0, 80),
    );
  });

  it('is malformed when it is no domain object', () => {
    expect(RdapDomain.safeParse({ objectClassName: 'entity' }).success).toBe(false);
    expect(RdapDomain.safeParse({ objectClassName: 'domain', events: 'none' }).success).toBe(false);
  });
});
