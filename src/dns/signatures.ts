import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import * as wire from 'dns-packet';
import type { DnsRecord } from './client.js';
import { type DnskeyData, keyTag } from './dnssec.js';

/**
 * RRSIG verification (RFC 4034 §3.1.8.1 and §6) on node:crypto. No npm dependency: node:crypto has
 * every algorithm below, and the JavaScript DNSSEC libraries on npm are unmaintained.
 */

/**
 * The DNSKEY algorithms Regdesk validates: 8 RSASHA256, 10 RSASHA512 (RFC 5702), 13 ECDSAP256SHA256,
 * 14 ECDSAP384SHA384 (RFC 6605), 15 ED25519, 16 ED448 (RFC 8080). The SHA-1 ones (5, 7) and older are
 * not: a zone signed only with them counts as unsigned (RFC 4035 §5.2), never as secure.
 */
export const VALIDATED_ALGORITHMS: readonly number[] = [8, 10, 13, 14, 15, 16];

export type RrsigRecord = wire.RrsigAnswer;

/** The digest each algorithm signs with; EdDSA hashes internally (null). */
const HASHES: Record<number, string | null> = {
  8: 'sha256',
  10: 'sha512',
  13: 'sha256',
  14: 'sha384',
  15: null,
  16: null,
};
/** Curve and coordinate size of the ECDSA and EdDSA algorithms (RFC 6605 §4, RFC 8080 §3). */
const CURVES: Record<number, { kty: 'EC' | 'OKP'; crv: string; size: number }> = {
  13: { kty: 'EC', crv: 'P-256', size: 32 },
  14: { kty: 'EC', crv: 'P-384', size: 48 },
  15: { kty: 'OKP', crv: 'Ed25519', size: 32 },
  16: { kty: 'OKP', crv: 'Ed448', size: 57 },
};

/** dns-packet's per-type codecs, which it exports but @types/dns-packet does not declare. */
const codecs = wire as unknown as {
  name: { encode(name: string): Buffer };
  rrsig: { encode(data: wire.RrsigData): Buffer };
  answer: { encode(record: wire.Answer): Buffer };
};

/** Lower case for ASCII only: DNS names compare without case for A–Z and nothing else (RFC 4343). */
const lower = (name: string) => name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** The labels of a name, the root's empty label left out: `www.Example.net.` → [www, Example, net]. */
export function labelsOf(name: string): string[] {
  const trimmed = name.replace(/\.$/, '');
  return trimmed === '' ? [] : trimmed.split('.');
}

/** The RRSIG labels field of an owner: its labels without the root and without a leading `*`. */
export function labelCount(owner: string): number {
  const labels = labelsOf(owner);
  return labels[0] === '*' ? labels.length - 1 : labels.length;
}

/** A name as compared and signed: lower case (ASCII only), no trailing dot, the root as `.`. */
export function canonicalOwner(name: string): string {
  return lower(labelsOf(name).join('.')) || '.';
}

/** The name in canonical wire form (RFC 4034 §6.2): uncompressed, lower case. */
export function canonicalWireName(name: string): Buffer {
  return codecs.name.encode(canonicalOwner(name));
}

/**
 * RDATA with the names RFC 4034 §6.2 lowers (as amended by RFC 6840 §5.1: NSEC's next name keeps its
 * case) for the types dns-packet decodes into fields. Types it hands over as raw bytes stay as sent.
 */
function canonicalRecord(record: DnsRecord, owner: string, ttl: number): wire.Answer {
  const base = { name: owner, class: 'IN' as const, ttl, flush: false };
  switch (record.type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return { ...base, type: record.type, data: lower(record.data) };
    case 'MX':
      return { ...base, type: 'MX', data: { ...record.data, exchange: lower(record.data.exchange) } };
    case 'SOA':
      return {
        ...base,
        type: 'SOA',
        data: { ...record.data, mname: lower(record.data.mname), rname: lower(record.data.rname) },
      };
    case 'SRV':
      return { ...base, type: 'SRV', data: { ...record.data, target: lower(record.data.target) } };
    case 'RP':
      return {
        ...base,
        type: 'RP',
        data: { mbox: lower(record.data.mbox), txt: lower(record.data.txt) },
      };
    case 'NAPTR':
      return {
        ...base,
        type: 'NAPTR',
        data: { ...record.data, replacement: lower(record.data.replacement) },
      };
    case 'RRSIG':
      return {
        ...base,
        type: 'RRSIG',
        data: { ...record.data, signersName: lower(record.data.signersName) },
      };
    default:
      return { ...record, ...base } as wire.Answer;
  }
}

/**
 * The owner the signature was made over: the RRset's own name, or for a wildcard expansion (RRSIG
 * labels fewer than the owner's) `*.` and the owner's last `labels` labels (RFC 4035 §5.3.2).
 * Undefined when the labels field claims more labels than the owner has.
 */
function signedOwner(owner: string, labels: number): string | undefined {
  const all = labelsOf(owner);
  const count = labelCount(owner);
  if (labels > count) return undefined;
  if (labels === count) return canonicalOwner(owner);
  return lower(['*', ...all.slice(all.length - labels)].join('.'));
}

/**
 * The data an RRSIG signs (RFC 4034 §3.1.8.1): its RDATA without the signature, then each record in
 * canonical form with the original TTL, sorted by RDATA, duplicates left out (§6.3). Undefined when the
 * RRSIG cannot cover these records (another owner or type, or a labels field longer than the owner).
 */
export function signedData(records: readonly DnsRecord[], rrsig: wire.RrsigData): Buffer | undefined {
  const first = records[0];
  if (first === undefined || records.some((r) => r.type !== rrsig.typeCovered || !sameOwner(r, first)))
    return undefined;
  const owner = signedOwner(first.name, rrsig.labels);
  if (owner === undefined) return undefined;
  const header = codecs.rrsig
    .encode({ ...rrsig, signersName: lower(rrsig.signersName), signature: Buffer.alloc(0) })
    .subarray(2);
  const ownerLength = canonicalWireName(owner).length;
  const encoded = records.map((record) =>
    codecs.answer.encode(canonicalRecord(record, owner, rrsig.originalTTL)),
  );
  // RDATA starts after the owner, type, class, TTL and RDLENGTH.
  const rdata = (rr: Buffer) => rr.subarray(ownerLength + 10);
  encoded.sort((a, b) => Buffer.compare(rdata(a), rdata(b)));
  const unique = encoded.filter((rr, i) => i === 0 || !rdata(rr).equals(rdata(encoded[i - 1] ?? rr)));
  return Buffer.concat([header, ...unique]);
}

const sameOwner = (a: DnsRecord, b: DnsRecord) => canonicalOwner(a.name) === canonicalOwner(b.name);

/** The public key of a DNSKEY for node:crypto, or undefined (unknown algorithm, malformed key). */
export function publicKey(dnskey: DnskeyData): KeyObject | undefined {
  const key = dnskey.key;
  try {
    if (dnskey.algorithm === 8 || dnskey.algorithm === 10) {
      // RFC 3110 §2: exponent length (one octet, or zero and two more), exponent, modulus.
      const long = key[0] === 0;
      const start = long ? 3 : 1;
      const length = long ? key.readUInt16BE(1) : (key[0] ?? 0);
      const exponent = key.subarray(start, start + length);
      const modulus = key.subarray(start + length);
      if (exponent.length !== length || modulus.length === 0) return undefined;
      return createPublicKey({
        key: { kty: 'RSA', e: exponent.toString('base64url'), n: modulus.toString('base64url') },
        format: 'jwk',
      });
    }
    const curve = CURVES[dnskey.algorithm];
    if (curve === undefined) return undefined;
    if (curve.kty === 'OKP') {
      if (key.length !== curve.size) return undefined;
      return createPublicKey({
        key: { kty: 'OKP', crv: curve.crv, x: key.toString('base64url') },
        format: 'jwk',
      });
    }
    // RFC 6605 §4: the point's x and y, each of the curve's size, no point-format prefix.
    if (key.length !== 2 * curve.size) return undefined;
    const x = key.subarray(0, curve.size).toString('base64url');
    const y = key.subarray(curve.size).toString('base64url');
    return createPublicKey({ key: { kty: 'EC', crv: curve.crv, x, y }, format: 'jwk' });
  } catch {
    // Key material from the wire that node:crypto refuses (a point off the curve): a key nobody can
    // have signed with, so no signature verifies under it.
    return undefined;
  }
}

/** The DNSKEY public key field of a node:crypto key (the inverse of `publicKey`). */
export function dnskeyPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  const field = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');
  if (jwk.kty === 'RSA') {
    const exponent = field(jwk.e);
    const length =
      exponent.length < 256
        ? Buffer.from([exponent.length])
        : Buffer.from([0, exponent.length >> 8, exponent.length & 0xff]);
    return Buffer.concat([length, exponent, field(jwk.n)]);
  }
  return jwk.kty === 'EC' ? Buffer.concat([field(jwk.x), field(jwk.y)]) : field(jwk.x);
}

/**
 * Whether `rrsig` is a valid signature by `key` over `records` (one RRset, as received): the key's
 * tag and algorithm, the owner, and the signature itself. Validity dates and the signer's zone are
 * for the caller, who knows the time and which zone's keys these are.
 */
export function verifyRrsig(records: readonly DnsRecord[], rrsig: RrsigRecord, key: DnskeyData): boolean {
  const sig = rrsig.data;
  const first = records[0];
  if (first === undefined || !sameOwner(first, rrsig)) return false;
  if (sig.algorithm !== key.algorithm || sig.keyTag !== keyTag(key)) return false;
  const hash = HASHES[sig.algorithm];
  const curve = CURVES[sig.algorithm];
  const object = publicKey(key);
  const data = signedData(records, sig);
  if (hash === undefined || object === undefined || data === undefined) return false;
  // Fixed-size signatures (RFC 6605 §4: r||s; RFC 8080 §4): another length is no signature.
  if (curve !== undefined && sig.signature.length !== 2 * curve.size) return false;
  return verify(hash, data, { key: object, dsaEncoding: 'ieee-p1363' }, sig.signature);
}

export interface SigningOptions {
  /** The zone whose key signs (the RRSIG's signer name). */
  signer: string;
  keyTag: number;
  algorithm: number;
  privateKey: KeyObject;
  /** Seconds since the epoch. */
  inception: number;
  expiration: number;
  /** The labels field; the owner's label count by default (fewer signs a wildcard's expansion). */
  labels?: number;
  /** The original TTL; the first record's TTL by default. */
  originalTtl?: number;
}

/** Signs one RRset as a zone's signer would: the RRSIG record for it (tests, the playground's DNS). */
export function signRrset(records: readonly DnsRecord[], options: SigningOptions): RrsigRecord {
  const first = records[0];
  if (first === undefined) throw new Error('signRrset: no records to sign');
  const hash = HASHES[options.algorithm];
  if (hash === undefined) throw new Error(`signRrset: algorithm ${options.algorithm} is not supported`);
  const ttl = options.originalTtl ?? ('ttl' in first ? (first.ttl ?? 0) : 0);
  const unsigned: wire.RrsigData = {
    typeCovered: first.type,
    algorithm: options.algorithm,
    labels: options.labels ?? labelCount(first.name),
    originalTTL: ttl,
    expiration: options.expiration,
    inception: options.inception,
    keyTag: options.keyTag,
    signersName: options.signer,
    signature: Buffer.alloc(0),
  };
  const data = signedData(records, unsigned);
  if (data === undefined) throw new Error('signRrset: the records are not one RRset');
  const signature = sign(hash, data, { key: options.privateKey, dsaEncoding: 'ieee-p1363' });
  return { name: first.name, type: 'RRSIG', class: 'IN', ttl, data: { ...unsigned, signature } };
}
