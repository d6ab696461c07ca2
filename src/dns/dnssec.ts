import { createHash } from 'node:crypto';
import * as wire from 'dns-packet';
import { canonicalName } from './client.js';

export type DnskeyData = wire.DnskeyData;
export type DsData = wire.DsData;

/** dns-packet's per-type codecs, which it exports but @types/dns-packet does not declare. */
const codecs = wire as unknown as {
  dnskey: { encode(key: DnskeyData): Buffer };
  name: { encode(name: string): Buffer };
};

/** DNSKEY RDATA as signed and hashed: flags, protocol, algorithm, key (dns-packet prefixes a length). */
function dnskeyRdata(key: DnskeyData): Buffer {
  return codecs.dnskey.encode(key).subarray(2);
}

/** RFC 4034 Appendix B: the key tag a DS and an RRSIG name a key by. */
export function keyTag(key: DnskeyData): number {
  const rdata = dnskeyRdata(key);
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i % 2 === 0 ? (rdata[i] ?? 0) << 8 : (rdata[i] ?? 0);
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** Digest types a DS may carry (RFC 4509, RFC 6605): 1 SHA-1, 2 SHA-256, 4 SHA-384. */
const DIGESTS: Record<number, string> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };

/** The length in octets of a DS digest type's digest, or undefined for a type Regdesk does not know. */
export function dsDigestLength(digestType: number): number | undefined {
  const algorithm = DIGESTS[digestType];
  return algorithm === undefined ? undefined : createHash(algorithm).digest().length;
}

/**
 * The DS digest of `key` at `owner` (RFC 4034 §5.1.4: the owner's canonical wire name, then the
 * DNSKEY RDATA), or undefined for a digest type Regdesk does not know.
 */
export function dsDigest(owner: string, key: DnskeyData, digestType: number): Buffer | undefined {
  const algorithm = DIGESTS[digestType];
  if (algorithm === undefined) return undefined;
  const name = codecs.name.encode(`${canonicalName(owner)}.`);
  return createHash(algorithm).update(name).update(dnskeyRdata(key)).digest();
}

/** Whether a DS names this key (tag and algorithm) and carries its digest. */
export function dsMatches(owner: string, ds: DsData, key: DnskeyData): boolean {
  if (ds.keyTag !== keyTag(key) || ds.algorithm !== key.algorithm) return false;
  const digest = dsDigest(owner, key, ds.digestType);
  return digest?.equals(ds.digest) === true;
}

/** The DS records a key should have at the parent, SHA-256 (the digest every validator supports). */
export function dsFor(owner: string, key: DnskeyData): string {
  const digest = dsDigest(owner, key, 2) ?? Buffer.alloc(0);
  return `${keyTag(key)} ${key.algorithm} 2 ${digest.toString('hex').toUpperCase()}`;
}
