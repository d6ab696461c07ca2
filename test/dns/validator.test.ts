import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolversValidate } from '../../src/dns/resolver-check.js';
import { IANA_ROOT_ANCHORS, validateChain } from '../../src/dns/validator.js';
import { type DnsLab, queryDns, startDnsLab } from '../helpers/dns-lab/index.js';
import { anchorsOf, clientFor } from '../helpers/live-check.js';

describe('validateChain against the DNS lab (knot signing with ECDSA P-256, NSEC and NSEC3; unbound)', () => {
  let lab: DnsLab;

  // The first run on a fresh machine may install knot and unbound here.
  beforeAll(async () => {
    lab = await startDnsLab();
  }, 120_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('has a plain resolver that validates nothing: no AD, and the bad DS answered instead of SERVFAIL', async () => {
    const healthy = await queryDns(lab.plainResolver, lab.zones.healthy, 'SOA');
    expect(healthy.flags.ad).toBe(false);
    // It still passes the RRSIGs on when asked with DO: what Regdesk validates itself.
    expect(healthy.answers.map((record) => record.type).sort()).toEqual(['RRSIG', 'SOA']);
    const bad = await queryDns(lab.plainResolver, lab.zones.badDs, 'SOA');
    expect(bad.rcode).toBe('NOERROR');
    expect((await queryDns(lab.resolver, lab.zones.badDs, 'SOA')).rcode).toBe('SERVFAIL');
  });

  it('tells a validating resolver from one that does not, and from silence (the start-up check)', async () => {
    expect(await resolversValidate(clientFor(lab.resolver))).toBe('validating');
    expect(await resolversValidate(clientFor(lab.plainResolver))).toBe('notValidating');
    // Port 9 (discard) on loopback: refused at once, so nothing to say.
    expect(await resolversValidate(clientFor('127.0.0.1:9'))).toBe('unreachable');
  });

  describe.each([
    ['validating', (l: DnsLab) => l.resolver],
    ['plain', (l: DnsLab) => l.plainResolver],
  ] as const)('through the %s resolver', (_, resolverOf) => {
    const validate = (zone: string, anchors = anchorsOf(lab.trustAnchor)) =>
      validateChain(clientFor(resolverOf(lab)), zone, anchors, Date.now());

    it('finds healthy.de and expiring.de (signatures due within 7 days, still valid) secure', async () => {
      expect(await validate(lab.zones.healthy)).toEqual({ state: 'secure' });
      expect(await validate(lab.zones.expiring)).toEqual({ state: 'secure' });
    });

    it('finds badds.de bogus: its DS in de. matches none of its keys', async () => {
      expect(await validate(lab.zones.badDs)).toEqual({
        state: 'bogus',
        at: lab.zones.badDs,
        reason: 'noMatchingKey',
      });
    });

    it('finds lame.de insecure at lame.de: unsigned, and de. proves it has no DS', async () => {
      expect(await validate(lab.zones.lame)).toEqual({ state: 'insecure', at: lab.zones.lame });
    });

    it('finds nsec3.de (NSEC3 with opt-out) secure, and its unsigned child insecure by the opt-out span', async () => {
      expect(await validate(lab.zones.nsec3)).toEqual({ state: 'secure' });
      const unsigned = `unsigned.${lab.zones.nsec3}`;
      expect(await validate(unsigned)).toEqual({ state: 'insecure', at: unsigned });
      // The proof is Knot's NSEC3 (opt-out), not an NSEC.
      const proof = await queryDns(resolverOf(lab), unsigned, 'DS');
      expect(proof.authority.map((record) => record.type)).toContain('NSEC3');
      expect(proof.authority.map((record) => record.type)).not.toContain('NSEC');
    });

    it("finds the root bogus under a trust anchor that is not the lab root's (IANA's)", async () => {
      expect(await validate(lab.zones.healthy, anchorsOf(IANA_ROOT_ANCHORS))).toEqual({
        state: 'bogus',
        at: '.',
        reason: 'noMatchingKey',
      });
    });
  });
});
