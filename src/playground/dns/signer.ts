// The playground's DNSSEC: zone keys, RRSIGs and NSEC chains, made as each answer is.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type * as wire from 'dns-packet';
import { compareNames, isWithin } from '../../dns/denial.js';
import { dsDigest, dsFor, keyTag } from '../../dns/dnssec.js';
import { canonicalOwner, dnskeyPublicKey, labelsOf, signRrset } from '../../dns/signatures.js';

/**
 * The playground signs online, at answer time, as RFC 4470 servers do: its zones are the sandbox's
 * state at the moment of each question (a record written, DNSSEC switched, a domain added), so there
 * is no zone file to sign beforehand. ECDSA P-256 signs fast enough for every answer.
 */

type Answer = wire.Answer;

const ALGORITHM = 13; // ECDSA P-256 with SHA-256 (RFC 6605), as the registrar signs
/** An hour back for clocks behind ours; 30 days ahead, so no check finds them about to expire. */
const INCEPTION_S = 3600;
const VALIDITY_S = 30 * 86_400;

export interface ZoneKey {
  readonly dnskey: wire.DnskeyData;
  readonly privateKey: KeyObject;
  readonly tag: number;
}

/** A zone as its authoritative servers hold it: its data, and at each delegation the NS, DS and glue. */
export interface Zone {
  /** As `canonicalOwner` writes it: the root is `.`. */
  apex: string;
  records: Answer[];
  /** Undefined for an unsigned zone. */
  key: ZoneKey | undefined;
}

/**
 * A key made for this process. One key per zone, a KSK (flags 257) that also signs the zone's data
 * (a combined signing key), so the DS at the parent names the key every RRSIG is made with.
 */
export function newZoneKey(): ZoneKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dnskey = { flags: 257, algorithm: ALGORITHM, key: dnskeyPublicKey(publicKey) };
  return { dnskey, privateKey, tag: keyTag(dnskey) };
}

export const dnskeyRecord = (apex: string, key: ZoneKey): Answer => ({
  type: 'DNSKEY',
  name: apex,
  ttl: 3600,
  data: key.dnskey,
});

/** The DS of `apex`'s key, SHA-256, as its parent serves it. */
export function dsRecord(apex: string, key: ZoneKey): Answer {
  const digest = dsDigest(apex, key.dnskey, 2) ?? Buffer.alloc(0);
  return {
    type: 'DS',
    name: apex,
    ttl: 3600,
    data: { keyTag: key.tag, algorithm: ALGORITHM, digestType: 2, digest },
  };
}

/** The root key's DS in the DNSSEC_TRUST_ANCHOR format. */
export const trustAnchorOf = (rootKey: ZoneKey) => `. IN DS ${dsFor('.', rootKey.dnskey)}`;

/** `records`, each of their RRsets followed by its RRSIG by `zone`'s key; as they are in an unsigned zone. */
export function signed(zone: Zone, records: readonly Answer[]): Answer[] {
  const key = zone.key;
  if (key === undefined) return [...records];
  const sets = new Map<string, Answer[]>();
  for (const record of records) {
    const id = `${canonicalOwner(record.name)} ${record.type}`;
    sets.set(id, [...(sets.get(id) ?? []), record]);
  }
  const now = Math.floor(Date.now() / 1000);
  return [...sets.values()].flatMap((set) => [
    ...set,
    signRrset(set, {
      signer: zone.apex,
      keyTag: key.tag,
      algorithm: ALGORITHM,
      privateKey: key.privateKey,
      inception: now - INCEPTION_S,
      expiration: now + VALIDITY_S,
    }),
  ]);
}

/** The names at which `zone` delegates: owners of an NS set other than the apex. */
export function cutsOf(zone: Zone): string[] {
  const owners = zone.records.flatMap((record) =>
    record.type === 'NS' ? [canonicalOwner(record.name)] : [],
  );
  return [...new Set(owners)].filter((owner) => owner !== zone.apex);
}

/** The zone's NSEC chain (RFC 4035 §2.3) over every name with data, glue below a delegation left out. */
function nsecChain(zone: Zone): Answer[] {
  const cuts = cutsOf(zone);
  const types = new Map<string, Set<string>>();
  for (const record of zone.records) {
    const owner = canonicalOwner(record.name);
    if (cuts.some((cut) => owner !== cut && isWithin(owner, cut))) continue;
    types.set(owner, (types.get(owner) ?? new Set()).add(record.type));
  }
  const soa = zone.records.find((record) => record.type === 'SOA');
  // RFC 9077: a negative answer's records live as long as the SOA's TTL and minimum allow.
  const ttl = soa?.type === 'SOA' ? Math.min(soa.ttl ?? 0, soa.data.minimum ?? 0) : 0;
  const owners = [...types.keys()].sort(compareNames);
  return owners.map((owner, i) => ({
    type: 'NSEC',
    name: owner,
    ttl,
    data: { nextDomain: owners[i + 1] ?? zone.apex, rrtypes: [...(types.get(owner) ?? []), 'RRSIG', 'NSEC'] },
  }));
}

/**
 * The signed NSEC records proving what `name` lacks: the NSEC at it (or covering it, for an empty
 * non-terminal) for no data of the type asked, including the DS of an unsigned delegation; for
 * NXDOMAIN also the one covering the wildcard of its closest encloser. Nothing for an unsigned zone.
 */
export function denialOf(zone: Zone, name: string, nxdomain: boolean): Answer[] {
  if (zone.key === undefined) return [];
  const chain = nsecChain(zone);
  // The chain is in canonical order from the apex: the last owner not after a name matches or covers it.
  const at = (target: string) => chain.findLast((nsec) => compareNames(nsec.name, target) <= 0);
  const proof = [at(name)];
  if (nxdomain) {
    const labels = labelsOf(canonicalOwner(name));
    const ancestors = labels.map((_, i) => labels.slice(i + 1).join('.') || '.');
    const encloser =
      ancestors.find(
        (ancestor) => isWithin(ancestor, zone.apex) && chain.some((nsec) => isWithin(nsec.name, ancestor)),
      ) ?? zone.apex;
    proof.push(at(encloser === '.' ? '*' : `*.${encloser}`));
  }
  const unique = [...new Set(proof)].flatMap((nsec) => (nsec === undefined ? [] : [nsec]));
  return signed(zone, unique);
}
