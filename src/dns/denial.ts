import { createHash } from 'node:crypto';
import type { DnsRecord } from './client.js';
import { canonicalOwner, canonicalWireName, labelsOf } from './signatures.js';

/**
 * What a parent zone's signed NSEC or NSEC3 records say about a DS it does not serve (RFC 4035 §5.2,
 * RFC 5155 §8.5–8.6). The records given must already be validated: signed by the parent's keys.
 */
export type DsDenial =
  /** A delegation without DS, or an opt-out span that may hold one: the child is unsigned. */
  | 'unsigned'
  /** No delegation at that name: it is inside the parent zone, or does not exist. */
  | 'noDelegation';

/** Whether `name` is `zone` or below it. */
export function isWithin(name: string, zone: string): boolean {
  const inner = labelsOf(canonicalOwner(name));
  const outer = labelsOf(canonicalOwner(zone));
  return outer.every((label, i) => inner[inner.length - outer.length + i] === label);
}

const parentOf = (name: string) => labelsOf(name).slice(1).join('.') || '.';

/** RFC 4034 §6.1: labels compared from the right as lower-case octets, a missing label first. */
export function compareNames(a: string, b: string): number {
  const left = labelsOf(canonicalOwner(a)).reverse();
  const right = labelsOf(canonicalOwner(b)).reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = Buffer.compare(Buffer.from(left[i] ?? ''), Buffer.from(right[i] ?? ''));
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** Whether `value` lies strictly between `owner` and `next` of a chain that wraps at its end. */
function between<T>(owner: T, next: T, value: T, compare: (a: T, b: T) => number): boolean {
  if (compare(owner, value) >= 0) return false;
  // The last link points back to the first: it covers everything after its owner.
  return compare(next, owner) <= 0 || compare(value, next) < 0;
}

/** What a type bitmap at the name itself says; undefined when it proves nothing about a missing DS. */
function fromBitmap(types: readonly string[]): DsDenial | undefined {
  if (types.includes('DS')) return undefined;
  // NS with SOA is the child's own apex record (the other side of the cut), no word from the parent.
  if (types.includes('NS')) return types.includes('SOA') ? undefined : 'unsigned';
  return 'noDelegation';
}

/** A parent's NSEC at a delegation cannot speak for names below it (RFC 6840 §4.1). */
const delegates = (types: readonly string[]) =>
  (types.includes('NS') && !types.includes('SOA')) || types.includes('DNAME');

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** RFC 4648 §7 without padding, lower case: the form of an NSEC3 owner's first label. */
function base32hex(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32HEX[(value << (5 - bits)) & 31] : out;
}

/** RFC 5155 §5: iterated SHA-1 over the canonical wire name and the salt, base32hex. */
export function nsec3Hash(name: string, salt: Buffer, iterations: number): string {
  let digest = createHash('sha1').update(canonicalWireName(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest();
  return base32hex(digest);
}

type Nsec3 = Extract<DnsRecord, { type: 'NSEC3' }>;

/**
 * Whether the parent `zone`'s validated denial records prove that `name` (below `zone`) has no DS,
 * and what kind of absence: see DsDenial. Undefined when they prove neither.
 */
export function dsDenial(name: string, zone: string, records: readonly DnsRecord[]): DsDenial | undefined {
  const nsecs = records.flatMap((record) => (record.type === 'NSEC' ? [record] : []));
  for (const nsec of nsecs) {
    if (compareNames(nsec.name, name) !== 0) continue;
    const found = fromBitmap(nsec.data.rrtypes);
    if (found !== undefined) return found;
  }
  const covered = nsecs.some(
    (nsec) =>
      isWithin(nsec.name, zone) &&
      !(isWithin(name, nsec.name) && delegates(nsec.data.rrtypes)) &&
      between(nsec.name, nsec.data.nextDomain, name, compareNames),
  );
  if (covered) return 'noDelegation';
  return nsec3Denial(name, zone, records);
}

/** RFC 5155 §8.5–8.6: a matching NSEC3, or a closest-encloser proof for the name. */
function nsec3Denial(name: string, zone: string, records: readonly DnsRecord[]): DsDenial | undefined {
  // Only SHA-1 (algorithm 1) is defined; records of another hash algorithm prove nothing here.
  const chain = records.flatMap((record) =>
    record.type === 'NSEC3' && record.data.algorithm === 1 && compareNames(parentOf(record.name), zone) === 0
      ? [record]
      : [],
  );
  if (chain.length === 0) return undefined;
  const ownerHash = (record: Nsec3) => labelsOf(record.name)[0]?.toLowerCase() ?? '';
  const hashOf = (target: string, record: Nsec3) =>
    nsec3Hash(target, record.data.salt, record.data.iterations);
  const matching = (target: string) => chain.find((record) => ownerHash(record) === hashOf(target, record));
  const covering = (target: string) =>
    chain.find((record) =>
      between(ownerHash(record), base32hex(record.data.nextDomain), hashOf(target, record), (a, b) =>
        a < b ? -1 : a > b ? 1 : 0,
      ),
    );

  const exact = matching(name);
  if (exact !== undefined) return fromBitmap(exact.data.rrtypes);
  // The closest encloser: the nearest ancestor with a matching NSEC3, or the zone's apex, which exists
  // by definition. Its next closer name (one label longer, towards `name`) must be covered.
  const labels = labelsOf(name);
  for (let depth = labels.length - 1; depth >= labelsOf(zone).length; depth--) {
    const encloser = labels.slice(labels.length - depth).join('.') || '.';
    const apex = compareNames(encloser, zone) === 0;
    const match = apex ? undefined : matching(encloser);
    if (!apex && match === undefined) continue;
    if (match !== undefined && delegates(match.data.rrtypes)) return undefined;
    const cover = covering(labels.slice(labels.length - depth - 1).join('.'));
    if (cover === undefined) return undefined;
    // Opt-out (flag bit 0): unsigned delegations in the span have no NSEC3, so one may be there.
    return (cover.data.flags & 1) === 1 ? 'unsigned' : 'noDelegation';
  }
  return undefined;
}
