import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsLab, queryDns, startDnsLab } from '../helpers/dns-lab/index.js';

/** A fresh c-ares resolver per question: nothing cached between them. */
function resolverFor(address: string): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers([address]);
  return resolver;
}

/** What node:dns rejects with (ESERVFAIL, EREFUSED, ...), or 'resolved'. */
async function failureCode(query: Promise<unknown>): Promise<string> {
  try {
    await query;
    return 'resolved';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

const DAY_MS = 86_400_000;

/** RRSIG expiration (YYYYMMDDHHmmSS, field 5 of the presentation format) as a Date. */
function expiration(rrsig: string): Date {
  const stamp = rrsig.split(' ')[4] ?? '';
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(stamp) ?? [];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

describe('the DNS lab (knot + unbound on loopback)', () => {
  let lab: DnsLab;

  // The first run on a fresh machine may install knot and unbound here.
  beforeAll(async () => {
    lab = await startDnsLab();
  }, 120_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('resolves through the validating resolver', async () => {
    const resolver = resolverFor(lab.resolver.replace(/:53$/, ''));
    expect(await resolver.resolve4(`www.${lab.zones.healthy}`)).toEqual(['192.0.2.1']);
    expect(lab.nameservers(lab.zones.healthy)).toEqual([
      `ns1.${lab.zones.healthy}`,
      `ns2.${lab.zones.healthy}`,
    ]);
  });

  it('validates the healthy zone as secure (AD) and the bad DS as bogus (SERVFAIL)', async () => {
    const healthy = await queryDns(lab.resolver, lab.zones.healthy, 'SOA');
    expect(healthy.rcode).toBe('NOERROR');
    expect(healthy.flags.ad).toBe(true);
    const resolver = resolverFor(lab.resolver.replace(/:53$/, ''));
    expect(await failureCode(resolver.resolveSoa(lab.zones.badDs))).toBe('ESERVFAIL');
  });

  it('the alt server refuses lame.de and disagrees with the primary on serial.de', async () => {
    expect(await failureCode(resolverFor(lab.addresses.alt).resolveSoa(lab.zones.lame))).toBe('EREFUSED');
    const [primary, alt] = await Promise.all([
      resolverFor(lab.addresses.primary[0]).resolveSoa(lab.zones.serial),
      resolverFor(lab.addresses.alt).resolveSoa(lab.zones.serial),
    ]);
    expect(primary.serial).toBe(2026112701);
    expect(alt.serial).toBe(2026112601);
  });

  it('signs the expiring zone with signatures that expire within 7 days, the healthy one beyond', async () => {
    const expiry = async (zone: string) => {
      const answer = await queryDns(lab.addresses.primary[0], zone, 'SOA', { recurse: false });
      const rrsig = answer.answers.find((record) => record.type === 'RRSIG');
      expect(rrsig, `RRSIG for ${zone} SOA`).toBeDefined();
      return expiration(rrsig?.data ?? '').getTime() - Date.now();
    };
    const expiring = await expiry(lab.zones.expiring);
    expect(expiring).toBeGreaterThan(0);
    expect(expiring).toBeLessThan(7 * DAY_MS);
    expect(await expiry(lab.zones.healthy)).toBeGreaterThan(7 * DAY_MS);
  });

  it('setRecord makes a new TXT visible on the primary; removeRecord takes it away', async () => {
    const owner = `_acme-challenge.${lab.zones.healthy}`;
    await lab.setRecord(lab.zones.healthy, '_acme-challenge', 'TXT', 'token-1');
    for (const address of lab.addresses.primary) {
      expect(await resolverFor(address).resolveTxt(owner)).toEqual([['token-1']]);
    }
    // Signed on commit: the new RRset carries an RRSIG.
    const signed = await queryDns(lab.addresses.primary[1], owner, 'TXT', { recurse: false });
    expect(signed.answers.map((record) => record.type).sort()).toEqual(['RRSIG', 'TXT']);
    // Replaces, not adds.
    await lab.setRecord(lab.zones.healthy, owner, 'TXT', 'token-2');
    expect(await resolverFor(lab.addresses.primary[0]).resolveTxt(owner)).toEqual([['token-2']]);
    await lab.removeRecord(lab.zones.healthy, '_acme-challenge', 'TXT');
    expect(await failureCode(resolverFor(lab.addresses.primary[0]).resolveTxt(owner))).toBe('ENOTFOUND');
  });
});
