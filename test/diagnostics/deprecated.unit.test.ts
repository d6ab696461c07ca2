import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DnsAnswer, DnsClient, DnsRecord } from '../../src/dns/client.js';
import { type DnskeyData, type DsData, dsDigest, dsFor, keyTag } from '../../src/dns/dnssec.js';
import { DnsUnreachable } from '../../src/dns/transport.js';
import type { Delegation } from '../../src/features/diagnostics/delegation.js';
import { deprecationFindings } from '../../src/features/diagnostics/deprecated.js';
import { checkDnssec } from '../../src/features/diagnostics/dnssec.js';
import { texts } from '../../src/text/index.js';

/** The SHA-1 deprecations of issue #45: RSA/SHA-1 keys (algorithms 5, 7) and DS digest type 1. */

const ZONE = 'example.de';
/** A stand-in key of `algorithm`: its bytes only need to be stable (tags and digests are computed). */
const keyOf = (algorithm: number, flags = 257, seed = 'k'): DnskeyData =>
  ({ flags, algorithm, key: createHash('sha256').update(`${seed}${algorithm}`).digest() }) as DnskeyData;
const dsOf = (key: DnskeyData, digestType: number): DsData => ({
  keyTag: keyTag(key),
  algorithm: key.algorithm,
  digestType,
  digest: dsDigest(ZONE, key, digestType) ?? Buffer.alloc(0),
});
const codes = (findings: readonly { code: string }[]) => findings.map((item) => item.code);

describe('DNSSEC deprecations (RFC 9905, registries refusing SHA-1 DS)', () => {
  it('algorithms 8 and 13 with a SHA-256 DS: nothing deprecated', () => {
    for (const algorithm of [8, 13, 15]) {
      const key = keyOf(algorithm);
      expect(deprecationFindings(ZONE, [dsOf(key, 2)], [key])).toEqual([]);
    }
  });

  it('algorithms 5 and 7: one warning per zone naming the key tags and algorithms, with the rollover', () => {
    const ksk = keyOf(5);
    const zsk = keyOf(7, 256);
    const found = deprecationFindings(ZONE, [dsOf(ksk, 2)], [ksk, zsk, keyOf(13, 257, 'new')]);
    expect(found).toEqual([
      {
        severity: 'risky',
        area: 'dnssec',
        code: 'sha1Algorithm',
        params: {
          name: ZONE,
          tags: `${keyTag(ksk)}, ${keyTag(zsk)}`,
          algorithms: '5 (RSASHA1), 7 (RSASHA1-NSEC3-SHA1)',
        },
        key: `sha1Algorithm:${ZONE}`,
      },
    ]);
    for (const locale of ['en', 'de'] as const) {
      const sentence = texts(locale).diagnosticFindings.sha1Algorithm(
        found[0]?.params as { name: string; tags: string; algorithms: string },
      );
      expect(sentence).toContain(String(keyTag(ksk)));
      expect(sentence).toMatch(/13 \(ECDSAP256SHA256\).*15 \(ED25519\)/);
    }
    // Only algorithm 7 in use: still one finding, naming 7 alone.
    expect(deprecationFindings(ZONE, [], [zsk])[0]?.params).toMatchObject({
      algorithms: '7 (RSASHA1-NSEC3-SHA1)',
    });
  });

  it('DS digest type 1: a warning naming the DS, setting its SHA-256 DS and removing the SHA-1 one', () => {
    const key = keyOf(13);
    const sha1 = dsOf(key, 1);
    const [found, ...rest] = deprecationFindings(ZONE, [sha1], [key]);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({
      severity: 'risky',
      code: 'sha1Ds',
      params: { name: ZONE, tags: String(keyTag(key)) },
      key: `sha1Ds:${ZONE}`,
    });
    expect(found?.fix).toEqual([
      { name: ZONE, type: 'DS', value: dsFor(ZONE, key), where: 'registrar' },
      {
        action: 'remove',
        name: ZONE,
        type: 'DS',
        value: `${keyTag(key)} 13 1 ${sha1.digest.toString('hex').toUpperCase()}`,
        where: 'registrar',
      },
    ]);
    expect(dsFor(ZONE, key).split(' ')[2]).toBe('2');
    for (const locale of ['en', 'de'] as const)
      expect(texts(locale).diagnosticFindings.sha1Ds({ name: ZONE, tags: '1' })).toMatch(/SHA-1.*SHA-256/);
  });

  it('a SHA-1 DS beside its SHA-256 one: only the removal; digest type 2 alone: nothing', () => {
    const key = keyOf(13);
    const [found] = deprecationFindings(ZONE, [dsOf(key, 2), dsOf(key, 1)], [key]);
    expect(found?.fix?.map((fix) => fix.action)).toEqual(['remove']);
    expect(deprecationFindings(ZONE, [dsOf(key, 2), dsOf(key, 4)], [key])).toEqual([]);
  });

  it('both at once (an old RSA/SHA-1 zone): two findings, one of each, however many records', () => {
    const keys = Array.from({ length: 8 }, (_, i) => keyOf(5, 257, `k${i}`));
    const found = deprecationFindings(
      ZONE,
      keys.map((key) => dsOf(key, 1)),
      keys,
    );
    expect(codes(found)).toEqual(['sha1Algorithm', 'sha1Ds']);
    // At most five key tags in the sentence; the fix lines carry every record.
    expect(found[0]?.params).toMatchObject({ tags: expect.stringMatching(/^(\d+, ){5}…$/) });
    expect(found[1]?.fix?.filter((fix) => fix.action === 'remove')).toHaveLength(8);
  });
});

/** The DNSSEC check with the zone's DS and DNSKEY answers given, every resolver question unanswered. */
function fakeDns(ds: DsData[], keys: DnskeyData[]): DnsClient {
  const answer = (records: DnsRecord[]): DnsAnswer => ({
    rcode: 'NOERROR',
    authoritative: true,
    authenticated: false,
    answers: records,
    authorities: [],
    additionals: [],
  });
  return {
    nameserver: (address: string) => ({ host: address, port: 53 }),
    ask: async (_server: unknown, name: string, type: string) =>
      answer(
        type === 'DS'
          ? ds.map((data) => ({ type: 'DS', name, data }) as DnsRecord)
          : keys.map((data) => ({ type: 'DNSKEY', name, data }) as DnsRecord),
      ),
    resolve: async () => {
      throw new DnsUnreachable('resolver', 'timeout');
    },
  } as unknown as DnsClient;
}

const delegation: Delegation = {
  findings: [],
  notChecked: [],
  parent: 'de',
  parentServers: [{ host: '192.0.2.53', port: 53 }],
  parentNs: [`ns1.${ZONE}`],
  zoneNs: [`ns1.${ZONE}`],
  servers: [{ host: `ns1.${ZONE}`, address: '192.0.2.1' }] as Delegation['servers'],
  soaAnswers: [],
};

describe('/dns check reports the deprecations through its DNSSEC check (and so do watches)', () => {
  const check = (ds: DsData[], keys: DnskeyData[]) =>
    checkDnssec(
      fakeDns(ds, keys),
      ZONE,
      delegation,
      { desired: 'enabled', live: 'enabled' },
      {
        now: Date.parse('2026-11-28T00:00:00Z'),
        anchors: [],
      },
    );

  it('RSASHA1 with a SHA-1 DS: both warnings, nothing broken; ECDSA with SHA-256: neither', async () => {
    const old = keyOf(5);
    const report = await check([dsOf(old, 1)], [old]);
    expect(report.findings.map((item) => [item.severity, item.code])).toEqual([
      ['risky', 'sha1Algorithm'],
      ['risky', 'sha1Ds'],
    ]);
    const modern = keyOf(13);
    expect(codes((await check([dsOf(modern, 2)], [modern])).findings)).toEqual([]);
  });
});
