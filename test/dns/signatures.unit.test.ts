import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as wire from 'dns-packet';
import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../src/dns/client.js';
import { type DnskeyData, dsMatches, keyTag } from '../../src/dns/dnssec.js';
import {
  dnskeyPublicKey,
  publicKey,
  type RrsigRecord,
  signedData,
  signRrset,
  VALIDATED_ALGORITHMS,
  verifyRrsig,
} from '../../src/dns/signatures.js';

const b64 = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'base64');
/** RRSIG presentation time (YYYYMMDDHHmmSS, UTC) in seconds. */
const stamp = (text: string) =>
  Date.UTC(
    Number(text.slice(0, 4)),
    Number(text.slice(4, 6)) - 1,
    Number(text.slice(6, 8)),
    Number(text.slice(8, 10)),
    Number(text.slice(10, 12)),
    Number(text.slice(12, 14)),
  ) / 1000;

/** Records as they arrive: through dns-packet's encoder and decoder, like an answer off the wire. */
function received(...records: DnsRecord[]): DnsRecord[] {
  return wire.decode(wire.encode({ type: 'response', answers: records })).answers ?? [];
}

const a = (name: string, address: string, ttl = 3600): DnsRecord => ({
  name,
  type: 'A',
  class: 'IN',
  ttl,
  data: address,
});

function rrsig(owner: string, data: Omit<wire.RrsigData, 'signature'>, signature: string): RrsigRecord {
  return {
    name: owner,
    type: 'RRSIG',
    class: 'IN',
    ttl: data.originalTTL,
    data: { ...data, signature: b64(signature) },
  };
}

/** A copy of `buffer` with one bit flipped. */
function flipped(buffer: Buffer, at = buffer.length >> 1): Buffer {
  const copy = Buffer.from(buffer);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

/** Verifies, then fails once the data or the signature differs by one bit. */
function expectGenuine(records: DnsRecord[], sig: RrsigRecord, key: DnskeyData): void {
  expect(verifyRrsig(records, sig, key)).toBe(true);
  const signature = sig.data.signature;
  expect(verifyRrsig(records, { ...sig, data: { ...sig.data, signature: flipped(signature) } }, key)).toBe(
    false,
  );
  expect(
    verifyRrsig(records, { ...sig, data: { ...sig.data, originalTTL: sig.data.originalTTL ^ 1 } }, key),
  ).toBe(false);
  const [first, ...rest] = records;
  if (first?.type === 'A') {
    const address = first.data.split('.').map(Number);
    address[3] = (address[3] ?? 0) ^ 1;
    expect(verifyRrsig([{ ...first, data: address.join('.') }, ...rest], sig, key)).toBe(false);
  }
}

// RFC 5702 §6.1 (RSA/SHA-256, a 512-bit example key) and §6.2 (RSA/SHA-512), with the private keys
// as the RFC prints them, over `www.example.net. 3600 IN A 192.0.2.91` from 2000 to 2030.
const RFC5702 = [
  {
    algorithm: 8,
    keyTag: 9033,
    key: 'AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk=',
    private: {
      n: 'wVwaxrHF2CK64aYKRUibLiH30KpPuPBjel7E8ZydQW1HYWHfoGmidzC2RnhwCC293hCzw+TFR2nqn8OVSY5t2Q==',
      e: 'AQAB',
      d: 'UR44xX6zB3eaeyvTRzmskHADrPCmPWnr8dxsNwiDGHzrMKLN+i/HAam+97HxIKVWNDH2ba9Mf1SA8xu9dcHZAQ==',
      p: '4c8IvFu1AVXGWeFLLFh5vs7fbdzdC6U82fduE6KkSWk=',
      q: '2zZpBE8ZXVnL74QjG4zINlDfH+EOEtjJJ3RtaYDugvE=',
      dp: 'G2xAPFfK0KGxGANDVNxd1K1c9wOmmJ51mGbzKFFNMFk=',
      dq: 'GYxP1Pa7CAwtHm8SAGX594qZVofOMhgd6YFCNyeVpKE=',
      qi: 'icQdNRjlZGPmuJm2TIadubcO8X7V4y07aVhX464tx8Q=',
    },
    signature: 'kRCOH6u7l0QGy9qpC9l1sLncJcOKFLJ7GhiUOibu4teYp5VE9RncriShZNz85mwlMgNEacFYK/lPtPiVYP4bwg==',
  },
  {
    algorithm: 10,
    keyTag: 3740,
    key: `AwEAAdHoNTOW+et86KuJOWRDp1pndvwb6Y83nSVXXyLA3DLroROUkN6X0O6pnWnjJQujX/AyhqFDxj13tOnD9u/1kTg7cV6rklMrZDtJ
      CQ5PCl/D7QNPsgVsMu1J2Q8gpMpztNFLpPBz1bWXjDtaR7ZQBlZ3PFY12ZTSncorffcGmhOL`,
    private: {
      n: `0eg1M5b563zoq4k5ZEOnWmd2/BvpjzedJVdfIsDcMuuhE5SQ3pfQ7qmdaeMlC6Nf8DKGoUPGPXe06cP27/WRODtxXquSUytkO0kJDk
        8KX8PtA0+yBWwy7UnZDyCkynO00Uuk8HPVtZeMO1pHtlAGVnc8VjXZlNKdyit99waaE4s=`,
      e: 'AQAB',
      d: `rFS1IPbJllFFgFc33B5DDlC1egO8e81P4fFadODbp56V7sphKa6AZQCx8NYAew6VXFFPAKTw41QdHnK5kIYOwxvfFDjDcUGza88qbj
        yrDPSJenkeZbISMUSSqy7AMFzEolkk6WSn6k3thUVRgSlqDoOV3SEIAsrB043XzGrKIVE=`,
      p: '8mbtsu9Tl9v7tKSHdCIeprLIQXQLzxlSZun5T1n/OjvXSUtvD7xnZJ+LHqaBj1dIgMbCq2U8O04QVcK3TS9GiQ==',
      q: '3a6gkfs74d0Jb7yL4j4adAif4fcp7ZrGt7G5NRVDDY/Mv4TERAKMa0TKN3okKE0A7X+Rv2K84mhT4QLDlllEcw==',
      dp: 'v3D5A9uuCn5rgVR7wgV8ba0/KSpsdSiLgsoA42GxiB1gvvs7gJMMmVTDu/ZG1p1ZnpLbhh/S/Qd/MSwyNlxC+Q==',
      dq: 'm+ezf9dsDvYQK+gzjOLWYeKq5xWYBEYFGa3BLocMiF4oxkzOZ3JPZSWU/h1Fjp5RV7aPP0Vmx+hNjYMPIQ8Y5w==',
      qi: 'Je5YhYpUron/WdOXjxNAxDubAp3i5X7UOUfhJcyIggqwY86IE0Q/Bk0Dw4SC9zxnsimmdBXW2Izd8Lwuk8FQcQ==',
    },
    signature: `tsb4wnjRUDnB1BUi+t6TMTXThjVnG+eCkWqjvvjhzQL1d0YRoOe0CbxrVDYd0xDtsuJRaeUw1ep94PzEWzr0iGYgZBWm/zpq+9fOuag
      YJRfDqfReKBzMweOLDiNa8iP5g9vMhpuv6OPlvpXwm9Sa9ZXIbNl1MBGk0fthPgxdDLw=`,
  },
];

// RFC 6605 §6.1 (P-256) and §6.2 (P-384): keys, their DS, and the published signatures.
const RFC6605 = [
  {
    algorithm: 13,
    key: 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    private: 'GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=',
    ds: {
      keyTag: 55648,
      digestType: 2,
      digest: 'b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17',
    },
    times: ['20100909100439', '20100812100439'],
    signature: 'qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw==',
  },
  {
    algorithm: 14,
    key: 'xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40',
    private: 'WURgWHCcYIYUPWgeLmiPY2DJJk02vgrmTfitxgqcL4vwW7BOrbawVmVe0d9V94SR',
    ds: {
      keyTag: 10771,
      digestType: 4,
      digest:
        '72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e305c6a9b0563a9b5f4d288405c3008a946df983d6',
    },
    times: ['20100909102025', '20100812102025'],
    signature:
      '/L5hDKIvGDyI1fcARX3z65qrmPsVz73QD1Mr5CEqOiLP95hxQouuroGCeZOvzFaxsT8Glr74hbavRKayJNuydCuzWTSSPdz7wnqXL5bdcJzusdnI0RSMROxxwGipWcJm',
  },
] as const;

// RFC 8080 §6.1 (Ed25519) and §6.2 (Ed448): the example keys over `example.com. 3600 IN MX 10
// mail.example.com.`, signed from 1438207200 to 1440021600. The RFC prints signatures (`printed`) made
// with a labels field of 3, which the two-label `example.com` does not have (RFC 4034 §3.1.3), so no
// validator accepts them; `signature` is the same RRset signed with labels 2, as dnspython's test suite
// carries it. EdDSA is deterministic: signRrset with the RFC's private keys must give it exactly.
const RFC8080 = [
  {
    algorithm: 15,
    private: 'ODIyNjAzODQ2MjgwODAxMjI2NDUxOTAyMDQxNDIyNjI=',
    key: 'l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
    keyTag: 3613,
    printed: 'Edk+IB9KNNWg0HAjm7FazXyrd5m3Rk8zNZbvNpAcM+eysqcUOMIjWoevFkjH5GaMWeG96GUVZu6ECKOQmemHDg==',
    signature: 'oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdszaPD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg==',
  },
  {
    algorithm: 15,
    private: 'DSSF3o0s0f+ElWzj9E/Osxw8hLpk55chkmx0LYN5WiY=',
    key: 'zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/rYnE9xHIEijs=',
    keyTag: 35217,
    printed: '5LL2obmzdqjWI+Xto5eP5adXt/T5tMhasWvwcyW4L3SzfcRawOle9bodhC+oip9ayUGjY9T/rL4rN3bOuESGDA==',
    signature: 'zXQ0bkYgQTEFyfLyi9QoiY6D8ZdYo4wyUhVioYZXFdT410QPRITQSqJSnzQoSm5poJ7gD7AQR0O7KuI5k2pcBg==',
  },
  {
    algorithm: 16,
    private: 'xZ+5Cgm463xugtkY5B0Jx6erFTXp13rYegst0qRtNsOYnaVpMx0Z/c5EiA9x8wWbDDct/U3FhYWA',
    key: '3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBVHHSfPodx1FYYUcJKm1MDpJtIA',
    keyTag: 9713,
    printed:
      'Nmc0rgGKpr3GKYXcB1JmqqS4NYwhmechvJTqVzt3jR+Qy/lSLFoIk1L+9e39GPL+5tVzDPN3f9kAwiu8KCuPPjtl227ayaCZtRKZuJax7n9NuYlZJIusX0SOIOKBGzG+yWYtz1/jjbzl5GGkWvREUCUA',
    signature:
      '3cPAHkmlnxcDHMyg7vFC34l0blBhuG1qpwLmjInI8w1CMB29FkEAIJUA0amxWndkmnBZ6SKiwZSAxGILn/NBtOXft0+Gj7FSvOKxE/07+4RQvE581N3Aj/JtIyaiYVdnYtyMWbSNyGEY2213WKsJlwEA',
  },
  {
    algorithm: 16,
    private: 'WEykD3ht3MHkU8iH4uVOLz8JLwtRBSqiBoM6fF72+Mrp/u5gjxuB1DV6NnPO2BlZdz4hdSTkOdOA',
    key: 'kkreGWoccSDmUBGAe7+zsbG6ZAFQp+syPmYUurBRQc3tDjeMCJcVMRDmgcNLp5HlHAMy12VoISsA',
    keyTag: 38353,
    printed:
      '+JjANio/LIzp7osmMYE5XD3H/YES8kXs5Vb9H8MjPS8OAGZMD37+LsCIcjg5ivt0d4Om/UaqETEAsJjaYe56CEQP5lhRWuD2ivBqE0zfwJTyp4WqvpULbpvaukswvv/WNEFxzEYQEIm9+xDlXj4pMAMA',
    signature:
      'E1/oLjSGIbmLny/4fcgM1z4oL6aqo+izT3urCyHyvEp4Sp8Syg1eI+lJ57CSnZqjJP41O/9l4m0AsQ4f7qI1gVnML8vWWiyW2KXhT9kuAICUSxv5OWbf81Rq7Yu60npabODB0QFPb/rkW3kUZmQ0YQUA',
  },
] as const;

describe('RRSIG verification: the RFC examples', () => {
  it.each(RFC5702)(
    'RFC 5702 RSA algorithm $algorithm verifies; its private key gives its signature',
    (vector) => {
      const key = { flags: 256, algorithm: vector.algorithm, key: b64(vector.key) };
      expect(keyTag(key)).toBe(vector.keyTag);
      const records = received(a('www.example.net', '192.0.2.91'));
      const times = { expiration: stamp('20300101000000'), inception: stamp('20000101000000') };
      const fields = {
        typeCovered: 'A',
        algorithm: vector.algorithm,
        labels: 3,
        originalTTL: 3600,
        ...times,
      };
      const sig = rrsig(
        'www.example.net',
        { ...fields, keyTag: vector.keyTag, signersName: 'example.net' },
        vector.signature,
      );
      expectGenuine(records, sig, key);
      // PKCS #1 v1.5 is deterministic: the same bytes signed give the RFC's signature exactly.
      const jwk = Object.fromEntries(
        Object.entries(vector.private).map(([field, value]) => [field, b64(value).toString('base64url')]),
      );
      const privateKey = createPrivateKey({ key: { kty: 'RSA', ...jwk }, format: 'jwk' });
      const options = {
        signer: 'example.net',
        keyTag: vector.keyTag,
        algorithm: vector.algorithm,
        privateKey,
      };
      const ours = signRrset(records, { ...options, ...times });
      expect(ours.data.signature.toString('base64')).toBe(b64(vector.signature).toString('base64'));
    },
  );

  it.each(RFC6605)(
    'RFC 6605 ECDSA algorithm $algorithm verifies; its DS matches; its private key signs',
    (vector) => {
      const key = { flags: 257, algorithm: vector.algorithm, key: b64(vector.key) };
      const ds = { ...vector.ds, algorithm: vector.algorithm, digest: Buffer.from(vector.ds.digest, 'hex') };
      expect(dsMatches('example.net', ds, key)).toBe(true);
      const records = received(a('www.example.net', '192.0.2.1'));
      const [expiration, inception] = vector.times.map(stamp) as [number, number];
      const data = { typeCovered: 'A', algorithm: vector.algorithm, labels: 3, originalTTL: 3600 };
      const sig = rrsig(
        'www.example.net',
        { ...data, expiration, inception, keyTag: vector.ds.keyTag, signersName: 'example.net' },
        vector.signature,
      );
      expectGenuine(records, sig, key);
      // ECDSA signatures are randomised: ours differs from the RFC's and verifies all the same.
      const size = key.key.length / 2;
      const privateKey = createPrivateKey({
        key: {
          kty: 'EC',
          crv: vector.algorithm === 13 ? 'P-256' : 'P-384',
          x: key.key.subarray(0, size).toString('base64url'),
          y: key.key.subarray(size).toString('base64url'),
          d: b64(vector.private).toString('base64url'),
        },
        format: 'jwk',
      });
      const options = {
        signer: 'example.net',
        keyTag: vector.ds.keyTag,
        algorithm: vector.algorithm,
        privateKey,
      };
      const ours = signRrset(records, { ...options, expiration, inception });
      expect(ours.data).toMatchObject({ ...data, expiration, inception, signersName: 'example.net' });
      expect(verifyRrsig(records, ours, key)).toBe(true);
    },
  );

  it.each(RFC8080)(
    'RFC 8080 EdDSA algorithm $algorithm, key $keyTag: verifies and signs deterministically',
    (vector) => {
      const key = { flags: 257, algorithm: vector.algorithm, key: b64(vector.key) };
      expect(keyTag(key)).toBe(vector.keyTag);
      const mx: DnsRecord = {
        name: 'example.com',
        type: 'MX',
        class: 'IN',
        ttl: 3600,
        data: { preference: 10, exchange: 'mail.example.com' },
      };
      const records = received(mx);
      const times = { expiration: 1440021600, inception: 1438207200 };
      const fields = {
        typeCovered: 'MX',
        algorithm: vector.algorithm,
        labels: 2,
        originalTTL: 3600,
        ...times,
      };
      const sig = rrsig(
        'example.com',
        { ...fields, keyTag: vector.keyTag, signersName: 'example.com' },
        vector.signature,
      );
      expectGenuine(records, sig, key);
      expect(verifyRrsig(received({ ...mx, data: { ...mx.data, preference: 11 } }), sig, key)).toBe(false);
      const privateKey = createPrivateKey({
        key: {
          kty: 'OKP',
          crv: vector.algorithm === 15 ? 'Ed25519' : 'Ed448',
          x: key.key.toString('base64url'),
          d: b64(vector.private).toString('base64url'),
        },
        format: 'jwk',
      });
      const options = {
        signer: 'example.com',
        keyTag: vector.keyTag,
        algorithm: vector.algorithm,
        privateKey,
      };
      const ours = signRrset(records, { ...options, ...times });
      expect(ours.data.signature.toString('base64')).toBe(vector.signature);
      const printed = rrsig(
        'example.com',
        { ...fields, labels: 3, keyTag: vector.keyTag, signersName: 'example.com' },
        vector.printed,
      );
      expect(verifyRrsig(records, printed, key)).toBe(false);
    },
  );
});

describe('canonical form (RFC 4034 §6)', () => {
  const header = {
    typeCovered: 'A',
    algorithm: 13,
    labels: 3,
    originalTTL: 300,
    expiration: 2_000_000_000,
    inception: 1_000_000_000,
    keyTag: 1,
    signersName: 'example.net',
    signature: Buffer.alloc(0),
  };

  it('lowers the owner, the signer and the names inside the RDATA of NS, MX, SOA …', () => {
    const mixed = { ...header, signersName: 'Example.NET' };
    expect(signedData([a('WWW.Example.net', '192.0.2.1')], mixed)).toEqual(
      signedData([a('www.example.net', '192.0.2.1')], header),
    );
    const mx = (exchange: string): DnsRecord => ({
      name: 'example.net',
      type: 'MX',
      ttl: 300,
      data: { preference: 10, exchange },
    });
    const mxHeader = { ...header, typeCovered: 'MX', labels: 2 };
    expect(signedData([mx('MAIL.Example.net')], mxHeader)).toEqual(
      signedData([mx('mail.example.net')], mxHeader),
    );
    const soa = (mname: string, rname: string): DnsRecord => ({
      name: 'example.net',
      type: 'SOA',
      ttl: 300,
      data: { mname, rname, serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 5 },
    });
    const soaHeader = { ...header, typeCovered: 'SOA', labels: 2 };
    expect(signedData([soa('NS1.Example.net', 'HostMaster.example.NET')], soaHeader)).toEqual(
      signedData([soa('ns1.example.net', 'hostmaster.example.net')], soaHeader),
    );
  });

  it("keeps the case of NSEC's next name (RFC 6840 §5.1) and of TXT data", () => {
    const nsec = (nextDomain: string): DnsRecord => ({
      name: 'a.example.net',
      type: 'NSEC',
      ttl: 300,
      data: { nextDomain, rrtypes: ['A', 'RRSIG', 'NSEC'] },
    });
    const nsecHeader = { ...header, typeCovered: 'NSEC' };
    expect(signedData([nsec('B.example.net')], nsecHeader)).not.toEqual(
      signedData([nsec('b.example.net')], nsecHeader),
    );
    const txt = (value: string): DnsRecord => ({
      name: 'www.example.net',
      type: 'TXT',
      ttl: 300,
      data: [value],
    });
    const txtHeader = { ...header, typeCovered: 'TXT' };
    expect(signedData([txt('Hello')], txtHeader)).not.toEqual(signedData([txt('hello')], txtHeader));
  });

  it('uses the original TTL, sorts by RDATA octets and drops duplicates', () => {
    const expected = Buffer.concat([
      (wire as unknown as { rrsig: { encode(data: wire.RrsigData): Buffer } }).rrsig
        .encode(header)
        .subarray(2),
      ...['192.0.2.9', '192.0.2.10'].map((address) =>
        (wire as unknown as { answer: { encode(record: DnsRecord): Buffer } }).answer.encode(
          a('www.example.net', address, 300),
        ),
      ),
    ]);
    // Octet order (…09 before …0a), not text order ("10" before "9"); TTLs as received do not count.
    const records = [a('www.example.net', '192.0.2.10', 17), a('www.example.net', '192.0.2.9', 5)];
    expect(signedData(records, header)).toEqual(expected);
    expect(signedData([...records, a('www.example.net', '192.0.2.9', 99)], header)).toEqual(expected);
  });

  it('refuses records that are not one RRset, or a labels field longer than the owner', () => {
    expect(
      signedData([a('www.example.net', '192.0.2.1'), a('ftp.example.net', '192.0.2.1')], header),
    ).toBeUndefined();
    expect(
      signedData([a('www.example.net', '192.0.2.1')], { ...header, typeCovered: 'AAAA' }),
    ).toBeUndefined();
    expect(signedData([a('www.example.net', '192.0.2.1')], { ...header, labels: 4 })).toBeUndefined();
  });
});

/** A fresh key pair for `algorithm`, its DNSKEY and tag. */
function generated(algorithm: number): { privateKey: KeyObject; dnskey: DnskeyData; keyTag: number } {
  const pair =
    algorithm === 8 || algorithm === 10
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : algorithm === 13 || algorithm === 14
        ? generateKeyPairSync('ec', { namedCurve: algorithm === 13 ? 'P-256' : 'P-384' })
        : algorithm === 15
          ? generateKeyPairSync('ed25519')
          : generateKeyPairSync('ed448');
  const dnskey = { flags: 257, algorithm, key: dnskeyPublicKey(pair.publicKey) };
  return { privateKey: pair.privateKey, dnskey, keyTag: keyTag(dnskey) };
}

describe('signing and verifying with generated keys', () => {
  const times = { inception: 1_700_000_000, expiration: 1_800_000_000 };

  it.each(VALIDATED_ALGORITHMS)('algorithm %i: a signed RRset verifies, under no other key', (algorithm) => {
    const { privateKey, dnskey, keyTag: tag } = generated(algorithm);
    expect(publicKey(dnskey)).toBeDefined();
    const records = received(a('www.example.org', '192.0.2.7'), a('www.example.org', '192.0.2.8'));
    const sig = signRrset(records, { signer: 'example.org', keyTag: tag, algorithm, privateKey, ...times });
    expect(sig).toMatchObject({ name: 'www.example.org', type: 'RRSIG', ttl: 3600 });
    expect(sig.data).toMatchObject({
      typeCovered: 'A',
      algorithm,
      labels: 3,
      keyTag: tag,
      signersName: 'example.org',
    });
    expectGenuine(records, received(sig)[0] as RrsigRecord, dnskey);
    // Order as received does not matter.
    expect(verifyRrsig([...records].reverse(), sig, dnskey)).toBe(true);
    const other = generated(algorithm);
    expect(verifyRrsig(records, sig, { ...other.dnskey })).toBe(false);
  });

  it('verifies a wildcard expansion against the signature over `*.`', () => {
    const { privateKey, dnskey, keyTag: tag } = generated(13);
    const wildcard = [a('*.example.org', '192.0.2.5', 60)];
    const sig = signRrset(wildcard, {
      signer: 'example.org',
      keyTag: tag,
      algorithm: 13,
      privateKey,
      ...times,
    });
    expect(sig.data.labels).toBe(2);
    for (const owner of ['a.example.org', 'a.b.c.example.org']) {
      const expanded = received(a(owner, '192.0.2.5', 60));
      expect(verifyRrsig(expanded, { ...sig, name: owner }, dnskey)).toBe(true);
    }
    // The same signature does not stand for a name it was not expanded from, nor with a larger labels field.
    expect(
      verifyRrsig([a('a.example.com', '192.0.2.5', 60)], { ...sig, name: 'a.example.com' }, dnskey),
    ).toBe(false);
    const tooMany = { ...sig, name: 'a.example.org', data: { ...sig.data, labels: 4 } };
    expect(verifyRrsig([a('a.example.org', '192.0.2.5', 60)], tooMany, dnskey)).toBe(false);
  });

  it('refuses a malformed key, an unknown algorithm and a signature of the wrong length', () => {
    expect(publicKey({ flags: 257, algorithm: 13, key: Buffer.alloc(63, 1) })).toBeUndefined();
    expect(publicKey({ flags: 257, algorithm: 13, key: Buffer.alloc(64, 1) })).toBeUndefined();
    expect(publicKey({ flags: 257, algorithm: 5, key: b64(RFC5702[0]?.key ?? '') })).toBeUndefined();
    const { privateKey, dnskey, keyTag: tag } = generated(15);
    const records = [a('www.example.org', '192.0.2.7')];
    const sig = signRrset(records, {
      signer: 'example.org',
      keyTag: tag,
      algorithm: 15,
      privateKey,
      ...times,
    });
    const short = { ...sig, data: { ...sig.data, signature: sig.data.signature.subarray(1) } };
    expect(verifyRrsig(records, short, dnskey)).toBe(false);
    expect(verifyRrsig(records, { ...sig, data: { ...sig.data, keyTag: tag ^ 1 } }, dnskey)).toBe(false);
    expect(verifyRrsig(records, { ...sig, name: 'ftp.example.org' }, dnskey)).toBe(false);
  });
});
