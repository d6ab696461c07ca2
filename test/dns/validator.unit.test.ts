import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as wire from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { type DnsAnswer, type DnsClient, type DnsRecord, DnsUnreachable } from '../../src/dns/client.js';
import { dsDenial, nsec3Hash } from '../../src/dns/denial.js';
import { type DnskeyData, dsDigest, dsFor, keyTag } from '../../src/dns/dnssec.js';
import { canonicalOwner, dnskeyPublicKey, signRrset } from '../../src/dns/signatures.js';
import {
  IANA_ROOT_ANCHORS,
  parseTrustAnchors,
  type TrustAnchor,
  VALIDATED_ALGORITHMS,
  validateChain,
} from '../../src/dns/validator.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const SECONDS = NOW / 1000;
const DAY = 86_400;

interface Signer {
  zone: string;
  algorithm: number;
  privateKey: KeyObject;
  dnskey: DnskeyData;
}

function signer(zone: string, algorithm: number, flags = 257): Signer {
  const pair =
    algorithm === 8
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : algorithm === 13
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return {
    zone,
    algorithm,
    privateKey: pair.privateKey,
    dnskey: { flags, algorithm, key: dnskeyPublicKey(pair.publicKey) },
  };
}

// The hierarchy: the root signs with RSA/SHA-256 (as the real one), de. with ECDSA P-256, example.de.
// with Ed25519. A stranger's key signs what no zone of the chain signed.
const ROOT = signer('.', 8);
const DE = signer('de', 13);
const EXAMPLE = signer('example.de', 15);
const STRANGER = signer('de', 13);
const ANCHOR = parseTrustAnchors(`. IN DS ${dsFor('.', ROOT.dnskey)}`);
const anchors = (): TrustAnchor[] => ('anchors' in ANCHOR ? ANCHOR.anchors : []);

/** The RRset and its RRSIG by `by`, valid from a day ago for 30 days unless told otherwise. */
function signed(records: DnsRecord[], by: Signer, times: { inception?: number; expiration?: number } = {}) {
  const rrsig = signRrset(records, {
    signer: by.zone,
    keyTag: keyTag(by.dnskey),
    algorithm: by.algorithm,
    privateKey: by.privateKey,
    inception: times.inception ?? SECONDS - DAY,
    expiration: times.expiration ?? SECONDS + 30 * DAY,
  });
  return [...records, rrsig];
}

const base = (name: string) => ({ name, ttl: 60, class: 'IN' as const });
const dnskey = (s: Signer): wire.DnskeyAnswer => ({ ...base(s.zone), type: 'DNSKEY', data: s.dnskey });
const ds = (s: Signer, digestType = 2): wire.DSAnswer => ({
  ...base(s.zone),
  type: 'DS',
  data: {
    keyTag: keyTag(s.dnskey),
    algorithm: s.algorithm,
    digestType,
    digest: dsDigest(s.zone, s.dnskey, digestType) ?? Buffer.alloc(0),
  },
});
const soa = (zone: string, serial = 1): wire.SoaAnswer => ({
  ...base(zone),
  type: 'SOA',
  data: {
    mname: `ns1.${zone}`,
    rname: `hostmaster.${zone}`,
    serial,
    refresh: 3600,
    retry: 600,
    expire: 86400,
    minimum: 60,
  },
});
const nsec = (owner: string, nextDomain: string, rrtypes: string[]): wire.NsecAnswer => ({
  ...base(owner),
  type: 'NSEC',
  data: { nextDomain, rrtypes },
});
const nsec3 = (hash: string, zone: string, data: Partial<wire.Nsec3Data>): wire.Nsec3Answer => ({
  ...base(`${hash}.${zone}`),
  type: 'NSEC3',
  data: {
    algorithm: 1,
    flags: 0,
    iterations: 0,
    salt: Buffer.alloc(0),
    nextDomain: Buffer.alloc(20, 0xee),
    rrtypes: [],
    ...data,
  },
});

/** Sections as a resolver hands them over: through dns-packet's encoder and decoder. */
function answer(answers: DnsRecord[], authorities: DnsRecord[] = [], rcode = 'NOERROR'): DnsAnswer {
  const decoded = wire.decode(wire.encode({ type: 'response', answers, authorities }));
  return {
    rcode,
    authoritative: false,
    authenticated: false,
    answers: decoded.answers ?? [],
    authorities: decoded.authorities ?? [],
    additionals: [],
  };
}

type World = Map<string, DnsAnswer>;

/** How de. answers `example.de DS`. */
type Delegation = 'signed' | 'nsec' | 'nsec3' | 'optOut';

const SALT = Buffer.from('5eed', 'hex');

function world(delegation: Delegation = 'signed'): World {
  const w: World = new Map();
  w.set('. DNSKEY', answer(signed([dnskey(ROOT)], ROOT)));
  w.set('de DS', answer(signed([ds(DE)], ROOT)));
  w.set('de DNSKEY', answer(signed([dnskey(DE)], DE)));
  const deSoa = signed([soa('de')], DE);
  if (delegation === 'signed') {
    w.set('example.de DS', answer(signed([ds(EXAMPLE)], DE)));
    w.set('example.de DNSKEY', answer(signed([dnskey(EXAMPLE)], EXAMPLE)));
    w.set('example.de SOA', answer(signed([soa('example.de')], EXAMPLE)));
    return w;
  }
  const proof =
    delegation === 'nsec'
      ? nsec('example.de', 'de', ['NS', 'RRSIG', 'NSEC'])
      : delegation === 'nsec3'
        ? nsec3(nsec3Hash('example.de', SALT, 3), 'de', { salt: SALT, iterations: 3, rrtypes: ['NS'] })
        : // Opt-out: one NSEC3 whose span covers every hash but its own, the apex's.
          nsec3('0'.repeat(32), 'de', {
            flags: 1,
            nextDomain: Buffer.alloc(20, 0xff),
            rrtypes: ['NS', 'SOA'],
          });
  w.set('example.de DS', answer([], [...deSoa, ...signed([proof], DE)]));
  w.set('example.de SOA', answer([soa('example.de')]));
  return w;
}

function resolver(w: World): Pick<DnsClient, 'resolve'> & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async resolve(name, type, options) {
      // Every question with DO and CD: the records themselves, never a resolver's verdict.
      expect(options).toEqual({ dnssec: true, checkingDisabled: true });
      const key = `${canonicalOwner(name)} ${type}`;
      asked.push(key);
      return w.get(key) ?? answer([]);
    },
  };
}

const check = (w: World, name = 'example.de', trust = anchors()) =>
  validateChain(resolver(w), name, trust, NOW);

describe('validateChain over a signed hierarchy (root → de → example.de)', () => {
  it('is secure when every link verifies, asking only what it needs', async () => {
    const dns = resolver(world());
    expect(await validateChain(dns, 'Example.DE.', anchors(), NOW)).toEqual({ state: 'secure' });
    expect(dns.asked).toEqual([
      '. DNSKEY',
      'de DS',
      'de DNSKEY',
      'example.de DS',
      'example.de DNSKEY',
      'example.de SOA',
    ]);
  });

  it.each([
    ['an NSEC at the delegation without DS', 'nsec'],
    ['an NSEC3 matching the name without DS', 'nsec3'],
    ['an opt-out NSEC3 covering the name', 'optOut'],
  ] as const)('is insecure at example.de when de. proves no DS by %s', async (_, delegation) => {
    expect(await check(world(delegation))).toEqual({ state: 'insecure', at: 'example.de' });
  });

  it('is insecure at a child whose DS names only algorithms or digests it does not validate (RFC 4035 §5.2)', async () => {
    const w = world();
    const unknown = ds(EXAMPLE);
    w.set('example.de DS', answer(signed([{ ...unknown, data: { ...unknown.data, algorithm: 5 } }], DE)));
    expect(await check(w)).toEqual({ state: 'insecure', at: 'example.de' });
    w.set('example.de DS', answer(signed([ds(EXAMPLE, 3)], DE)));
    expect(await check(w)).toEqual({ state: 'insecure', at: 'example.de' });
  });

  it('skips a label that is no zone cut, with or without a signed denial', async () => {
    const child = signer('example.com.de', 13);
    const w = world();
    w.set('example.com.de DS', answer(signed([ds(child)], DE)));
    w.set('example.com.de DNSKEY', answer(signed([dnskey(child)], child)));
    w.set('example.com.de SOA', answer(signed([soa('example.com.de')], child)));
    // com.de: nothing at all (no DS, no proof, no DNSKEY) …
    expect(await check(w, 'example.com.de')).toEqual({ state: 'secure' });
    // … or an empty non-terminal, covered by the NSEC from de. to example.com.de.
    const ent = nsec('de', 'example.com.de', ['NS', 'SOA', 'RRSIG', 'NSEC', 'DNSKEY']);
    w.set('com.de DS', answer([], signed([ent], DE)));
    expect(await check(w, 'example.com.de')).toEqual({ state: 'secure' });
  });

  it('reads an NSEC3 span over a label as no cut there, unless it is opt-out (then the label is insecure)', async () => {
    const child = signer('example.com.de', 13);
    const w = world();
    w.set('example.com.de DS', answer(signed([ds(child)], DE)));
    w.set('example.com.de DNSKEY', answer(signed([dnskey(child)], child)));
    w.set('example.com.de SOA', answer(signed([soa('example.com.de')], child)));
    const span = (flags: number) =>
      nsec3('0'.repeat(32), 'de', { flags, nextDomain: Buffer.alloc(20, 0xff), rrtypes: ['NS', 'SOA'] });
    w.set('com.de DS', answer([], signed([span(0)], DE)));
    expect(await check(w, 'example.com.de')).toEqual({ state: 'secure' });
    w.set('com.de DS', answer([], signed([span(1)], DE)));
    expect(await check(w, 'example.com.de')).toEqual({ state: 'insecure', at: 'com.de' });
  });

  it('is bogus (noMatchingKey) when the DS digest matches no key, or only a key without the Zone Key bit', async () => {
    const w = world();
    const wrong = ds(EXAMPLE);
    const flipped = Buffer.from(wrong.data.digest);
    flipped[0] = (flipped[0] ?? 0) ^ 0xff;
    w.set('example.de DS', answer(signed([{ ...wrong, data: { ...wrong.data, digest: flipped } }], DE)));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'noMatchingKey' });

    const notZoneKey = { ...EXAMPLE, dnskey: { ...EXAMPLE.dnskey, flags: 1 } };
    w.set('example.de DS', answer(signed([ds(notZoneKey)], DE)));
    w.set('example.de DNSKEY', answer(signed([dnskey(notZoneKey)], notZoneKey)));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'noMatchingKey' });
  });

  it('is bogus (expired, notYetValid) for a genuine signature outside its validity period', async () => {
    const w = world();
    w.set('example.de SOA', answer(signed([soa('example.de')], EXAMPLE, { expiration: SECONDS - 1 })));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'expired' });
    w.set('example.de SOA', answer(signed([soa('example.de')], EXAMPLE, { inception: SECONDS + 60 })));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'notYetValid' });
    w.set('de DNSKEY', answer(signed([dnskey(DE)], DE, { expiration: SECONDS - DAY })));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'de', reason: 'expired' });
  });

  it('is bogus (badSignature) for a SOA changed after signing', async () => {
    const w = world();
    const [, rrsig] = signed([soa('example.de', 1)], EXAMPLE);
    w.set('example.de SOA', answer([soa('example.de', 2), ...(rrsig === undefined ? [] : [rrsig])]));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'badSignature' });
  });

  it('is bogus (missingSignature) for an RRset without an RRSIG, or signed by a key outside the chain', async () => {
    const w = world();
    w.set('example.de SOA', answer([soa('example.de')]));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'missingSignature' });
    w.set('example.de DS', answer(signed([ds(EXAMPLE)], STRANGER)));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'missingSignature' });
  });

  it('is bogus (noDenial) when a signed zone has no DS and de. proves nothing, or a stranger signed the proof', async () => {
    const w = world();
    w.set('example.de DS', answer([], signed([soa('de')], DE)));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'noDenial' });
    const forged = nsec('example.de', 'de', ['NS', 'RRSIG', 'NSEC']);
    w.set('example.de DS', answer([], [...signed([soa('de')], DE), ...signed([forged], STRANGER)]));
    expect(await check(w)).toEqual({ state: 'bogus', at: 'example.de', reason: 'noDenial' });
    // An unsigned child (no DNSKEY) whose proof was stripped is no better.
    const unsigned = world('nsec');
    unsigned.set('example.de DS', answer([]));
    expect(await check(unsigned)).toEqual({ state: 'bogus', at: 'example.de', reason: 'noDenial' });
  });

  it('is bogus at the root for a trust anchor that matches none of its keys (IANA anchors, a lab root)', async () => {
    const iana = parseTrustAnchors(IANA_ROOT_ANCHORS);
    expect(await check(world(), 'example.de', 'anchors' in iana ? iana.anchors : [])).toEqual({
      state: 'bogus',
      at: '.',
      reason: 'noMatchingKey',
    });
  });

  it('is indeterminate when the root DNSKEY comes without RRSIGs, or a question finds no resolver', async () => {
    const w = world();
    w.set('. DNSKEY', answer([dnskey(ROOT)]));
    expect(await check(w)).toEqual({ state: 'indeterminate', reason: 'noSignatures' });

    const servfail = world();
    servfail.set('de DNSKEY', answer([], [], 'SERVFAIL'));
    expect(await check(servfail)).toEqual({ state: 'indeterminate', reason: 'unreachable' });

    const silent: Pick<DnsClient, 'resolve'> = {
      resolve: async () => {
        throw new DnsUnreachable('192.0.2.53', 'timeout');
      },
    };
    expect(await validateChain(silent, 'example.de', anchors(), NOW)).toEqual({
      state: 'indeterminate',
      reason: 'unreachable',
    });
    const broken: Pick<DnsClient, 'resolve'> = {
      resolve: async () => {
        throw new TypeError('a bug');
      },
    };
    await expect(validateChain(broken, 'example.de', anchors(), NOW)).rejects.toThrow('a bug');
  });
});

describe('denial of a DS (RFC 5155 Appendix A and B.3)', () => {
  const SALT_A = Buffer.from('aabbccdd', 'hex');
  const unbase32hex = (text: string) => {
    let bits = 0;
    let value = 0;
    const out: number[] = [];
    for (const char of text) {
      value = ((value << 5) | Number.parseInt(char, 32)) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        out.push((value >> (bits - 8)) & 0xff);
        bits -= 8;
      }
    }
    return Buffer.from(out);
  };

  it('hashes names as RFC 5155 Appendix A does (salt aabbccdd, 12 iterations)', () => {
    expect(nsec3Hash('example', SALT_A, 12)).toBe('0p9mhaveqvm6t7vbl5lop2u3t2rp3tom');
    expect(nsec3Hash('a.example.', SALT_A, 12)).toBe('35mthgpgcu1qg68fab165klnsnk3dpvl');
    expect(nsec3Hash('X.W.Example', SALT_A, 12)).toBe('b4um86eghhds6nea196smvmlo4ors995');
  });

  it('reads the opt-out example of B.3 (c.example) as an unsigned delegation', () => {
    const params = { flags: 1, iterations: 12, salt: SALT_A };
    const records = [
      nsec3('35mthgpgcu1qg68fab165klnsnk3dpvl', 'example', {
        ...params,
        nextDomain: unbase32hex('b4um86eghhds6nea196smvmlo4ors995'),
        rrtypes: ['NS', 'DS', 'RRSIG'],
      }),
      nsec3('0p9mhaveqvm6t7vbl5lop2u3t2rp3tom', 'example', {
        ...params,
        nextDomain: unbase32hex('2t7b4g4vsa5smi47k61mv5bv1a22bojr'),
        rrtypes: ['MX', 'DNSKEY', 'NS', 'SOA', 'NSEC3PARAM', 'RRSIG'],
      }),
    ];
    expect(dsDenial('c.example', 'example', records)).toBe('unsigned');
    // Without opt-out the same span proves the name does not exist.
    const strict = records.map((r) => ({ ...r, data: { ...r.data, flags: 0 } }));
    expect(dsDenial('c.example', 'example', strict)).toBe('noDelegation');
    // a.example has its own NSEC3, with a DS: nothing is denied.
    expect(dsDenial('a.example', 'example', records)).toBeUndefined();
  });

  it('does not let a parent NSEC at a delegation speak for names below it (RFC 6840 §4.1)', () => {
    const atCut = nsec('a.de', 'c.de', ['NS', 'DS', 'RRSIG', 'NSEC']);
    expect(dsDenial('x.a.de', 'de', [atCut])).toBeUndefined();
    expect(dsDenial('b.de', 'de', [atCut])).toBe('noDelegation');
    expect(dsDenial('a.de', 'de', [atCut])).toBeUndefined();
  });
});

describe('DNSSEC_TRUST_ANCHOR', () => {
  it('reads root DS records with optional TTL and class, spaces inside the digest, several per value', () => {
    const digest = 'E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D';
    const parsed = parseTrustAnchors(
      `. IN DS 20326 8 2 ${digest.slice(0, 30)} ${digest.slice(30)} ;. 172800 IN DS 38696 8 2 ${digest.toLowerCase()};` +
        `. DS 1 13 4 ${'ab'.repeat(48)}`,
    );
    expect(parsed).toEqual({
      anchors: [
        { keyTag: 20326, algorithm: 8, digestType: 2, digest: Buffer.from(digest, 'hex') },
        { keyTag: 38696, algorithm: 8, digestType: 2, digest: Buffer.from(digest, 'hex') },
        { keyTag: 1, algorithm: 13, digestType: 4, digest: Buffer.alloc(48, 0xab) },
      ],
    });
  });

  it.each([
    ['', 'names no trust anchor'],
    ['example. IN DS 20326 8 2 AB', 'owner'],
    ['. IN DNSKEY 257 3 8 AwEAAa', 'key-tag'],
    ['. IN DS 70000 8 2 AB', 'key-tag'],
    ['. CH DS 20326 8 2 AB', 'key-tag'],
    ['. IN DS 20326 8 2 XYZ', 'key-tag'],
    ['. IN DS 20326 5 2 AB', 'algorithm 5'],
    ['. IN DS 20326 8 3 AB', 'digest type 3'],
    ['. IN DS 20326 8 2 ABCD', 'digest of 2 octets'],
  ])('refuses %j with a sentence about it', (value, words) => {
    const parsed = parseTrustAnchors(value);
    expect(parsed).toHaveProperty('problem');
    expect('problem' in parsed ? parsed.problem : '').toContain(words);
  });

  it("IANA's published anchors parse to KSK-2017 and KSK-2024", () => {
    const parsed = parseTrustAnchors(IANA_ROOT_ANCHORS);
    expect(
      'anchors' in parsed ? parsed.anchors.map((a) => [a.keyTag, a.algorithm, a.digestType]) : [],
    ).toEqual([
      [20326, 8, 2],
      [38696, 8, 2],
    ]);
    expect(VALIDATED_ALGORITHMS).toEqual([8, 10, 13, 14, 15, 16]);
  });
});
