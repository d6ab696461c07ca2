import { type DnsAnswer, type DnsClient, type DnsRecord, DnsUnreachable, type RecordType } from './client.js';
import { dsDenial, isWithin } from './denial.js';
import { type DnskeyData, type DsData, dsDigestLength, dsMatches, keyTag } from './dnssec.js';
import {
  canonicalOwner,
  labelsOf,
  type RrsigRecord,
  VALIDATED_ALGORITHMS,
  verifyRrsig,
} from './signatures.js';

export { VALIDATED_ALGORITHMS } from './signatures.js';

/**
 * DNSSEC verdicts never rest on a resolver that does not validate: Regdesk validates the chain from
 * the root's trust anchor itself, from the records the resolvers hand over with DO and CD set (so a
 * validating resolver passes bogus data on instead of SERVFAIL, and a non-validating one the RRSIGs).
 */
export type ChainVerdict =
  | { state: 'secure' }
  /** `at`: the first zone (or name) proven unsigned. */
  | { state: 'insecure'; at: string }
  | { state: 'bogus'; at: string; reason: BogusReason }
  /** noSignatures: the root's DNSKEY came without RRSIGs (a stripping resolver, a stand-in DNS). */
  | { state: 'indeterminate'; reason: 'noSignatures' | 'unreachable' };

export type BogusReason =
  | 'noMatchingKey'
  | 'badSignature'
  | 'expired'
  | 'notYetValid'
  | 'missingSignature'
  | 'noDenial';

/** A root DS the chain starts from (DNSSEC_TRUST_ANCHOR). */
export interface TrustAnchor {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}

/**
 * IANA's root trust anchors, KSK-2017 and KSK-2024, as published in
 * https://data.iana.org/root-anchors/root-anchors.xml (RFC 9718).
 */
export const IANA_ROOT_ANCHORS =
  '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D; ' +
  '. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16';

/**
 * DNSSEC_TRUST_ANCHOR: root DS records in presentation format, `;`-separated
 * (`. [TTL] [IN] DS key-tag algorithm digest-type digest`, spaces allowed inside the digest). Returns
 * the anchors, or the problem as a sentence for the configuration error.
 */
export function parseTrustAnchors(value: string): { anchors: TrustAnchor[] } | { problem: string } {
  const anchors: TrustAnchor[] = [];
  for (const entry of value.split(';').map((part) => part.trim())) {
    if (entry === '') continue;
    const [owner, ...tokens] = entry.split(/\s+/);
    if (owner !== '.') return { problem: `"${entry}" is not a DS record of the root (owner ".")` };
    const type = tokens.findIndex((token) => token.toUpperCase() === 'DS');
    const prefix = tokens.slice(0, Math.max(type, 0));
    const prefixOk =
      prefix.filter((token) => /^\d+$/.test(token)).length <= 1 &&
      prefix.filter((token) => token.toUpperCase() === 'IN').length <= 1 &&
      prefix.every((token) => /^\d+$/.test(token) || token.toUpperCase() === 'IN');
    const [tag, algorithm, digestType, ...digest] = tokens.slice(type + 1);
    const hex = digest.join('');
    const numbers = [tag, algorithm, digestType].map((field) =>
      /^\d{1,5}$/.test(field ?? '') ? Number(field) : -1,
    );
    const [keyTagValue = -1, algorithmValue = -1, digestTypeValue = -1] = numbers;
    if (type < 0 || !prefixOk || keyTagValue < 0 || keyTagValue > 65_535 || !/^([0-9a-f]{2})+$/i.test(hex))
      return { problem: `"${entry}" is not ". [TTL] [IN] DS key-tag algorithm digest-type digest"` };
    if (!VALIDATED_ALGORITHMS.includes(algorithmValue))
      return {
        problem: `"${entry}" has algorithm ${algorithm}; Regdesk validates ${VALIDATED_ALGORITHMS.join(', ')}`,
      };
    const length = dsDigestLength(digestTypeValue);
    if (length === undefined)
      return { problem: `"${entry}" has digest type ${digestType}; Regdesk knows 1, 2 and 4` };
    if (hex.length !== 2 * length)
      return {
        problem: `"${entry}" has a digest of ${hex.length / 2} octets; digest type ${digestType} has ${length}`,
      };
    anchors.push({
      keyTag: keyTagValue,
      algorithm: algorithmValue,
      digestType: digestTypeValue,
      digest: Buffer.from(hex, 'hex'),
    });
  }
  return anchors.length === 0 ? { problem: 'names no trust anchor' } : { anchors };
}

/**
 * The chain of trust from the root's `anchors` down to the zone `name` (a zone apex), at `now` (ms
 * since the epoch). Only `resolve` through the configured resolvers; `DnsUnreachable` there makes the
 * verdict indeterminate, and anything else thrown is a bug and propagates.
 */
export async function validateChain(
  dns: Pick<DnsClient, 'resolve'>,
  name: string,
  anchors: readonly TrustAnchor[],
  now: number,
): Promise<ChainVerdict> {
  try {
    return await walk(dns, canonicalOwner(name), anchors, Math.floor(now / 1000));
  } catch (error) {
    if (error instanceof DnsUnreachable) return { state: 'indeterminate', reason: 'unreachable' };
    throw error;
  }
}

async function walk(
  dns: Pick<DnsClient, 'resolve'>,
  target: string,
  anchors: readonly TrustAnchor[],
  now: number,
): Promise<ChainVerdict> {
  const ask = async (name: string, type: RecordType): Promise<DnsAnswer> => {
    const answer = await dns.resolve(name, type, { dnssec: true, checkingDisabled: true });
    // SERVFAIL, REFUSED …: the resolver could not say, which is not an answer (as DnsClient.records).
    if (answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN')
      throw new DnsUnreachable(`${name} ${type}`, 'answered', answer.rcode);
    return answer;
  };
  const bogus = (at: string, reason: BogusReason): ChainVerdict => ({ state: 'bogus', at, reason });

  const rootKeys = await ask('.', 'DNSKEY');
  if (!rootKeys.answers.some((record) => record.type === 'RRSIG'))
    return { state: 'indeterminate', reason: 'noSignatures' };
  const trusted = usableDs(anchors);
  if (trusted.length === 0) return { state: 'insecure', at: '.' };
  const root = validateKeys('.', rootKeys, trusted, now);
  if ('reason' in root) return bogus('.', root.reason);

  let zone = '.';
  let keys = root.keys;
  const labels = labelsOf(target);
  for (let depth = 1; depth <= labels.length; depth++) {
    const child = labels.slice(labels.length - depth).join('.');
    const dsAnswer = await ask(child, 'DS');
    const dsSet = rrset(dsAnswer.answers, child, 'DS');
    if (dsSet.length > 0) {
      const problem = verifySet(dsSet, dsAnswer.answers, zone, keys, now);
      if (problem !== undefined) return bogus(child, problem);
      const ds = usableDs(dsSet.flatMap((record) => (record.type === 'DS' ? [record.data] : [])));
      // RFC 4035 §5.2: a DS RRset with no algorithm or digest we support leaves no authentication
      // path; the child is then treated as unsigned, not as bogus.
      if (ds.length === 0) return { state: 'insecure', at: child };
      const childKeys = validateKeys(child, await ask(child, 'DNSKEY'), ds, now);
      if ('reason' in childKeys) return bogus(child, childKeys.reason);
      zone = child;
      keys = childKeys.keys;
      continue;
    }
    const proven = dsAnswer.authorities.filter(
      (record) =>
        (record.type === 'NSEC' || record.type === 'NSEC3') &&
        verifySet([record], dsAnswer.authorities, zone, keys, now) === undefined,
    );
    const denial = dsDenial(child, zone, proven);
    if (denial === 'unsigned' || (denial === 'noDelegation' && child === target))
      return { state: 'insecure', at: child };
    if (denial === 'noDelegation') continue;
    // No DS and no proof. A name with no DNSKEY is no zone cut (a label inside the parent zone): what
    // comes next must still carry the parent's signatures. A zone with keys needed that proof.
    if (child === target || rrset((await ask(child, 'DNSKEY')).answers, child, 'DNSKEY').length > 0)
      return bogus(child, 'noDenial');
  }
  const soa = await ask(target, 'SOA');
  const problem = verifySet(rrset(soa.answers, target, 'SOA'), soa.answers, zone, keys, now);
  return problem === undefined ? { state: 'secure' } : bogus(target, problem);
}

/** The records of one RRset in a section. */
function rrset(section: readonly DnsRecord[], owner: string, type: RecordType): DnsRecord[] {
  return section.filter(
    (record) => record.type === type && canonicalOwner(record.name) === canonicalOwner(owner),
  );
}

/**
 * DS records (or anchors) a key can be checked against: known algorithm and digest type, and SHA-1
 * ones only where nothing stronger is offered (RFC 4509 §3), so SHA-1 is no downgrade path.
 */
function usableDs(records: readonly DsData[]): DsData[] {
  const known = records.filter(
    (ds) => VALIDATED_ALGORITHMS.includes(ds.algorithm) && dsDigestLength(ds.digestType) !== undefined,
  );
  return known.some((ds) => ds.digestType !== 1) ? known.filter((ds) => ds.digestType !== 1) : known;
}

/**
 * Zone keys (flags bit 7, the Zone Key bit 0x0100) of an algorithm we validate. Protocol 3 needs no
 * check: dns-packet refuses a DNSKEY with another protocol value. Keys of unknown algorithms are
 * ignored, so a key set with only those leaves no key and the DS match fails.
 */
const zoneKeys = (records: readonly DnsRecord[]): DnskeyData[] =>
  records.flatMap((record) =>
    record.type === 'DNSKEY' &&
    (record.data.flags & 0x0100) !== 0 &&
    VALIDATED_ALGORITHMS.includes(record.data.algorithm)
      ? [record.data]
      : [],
  );

/** The zone's keys, once a key a trusted DS names has signed the DNSKEY RRset. */
function validateKeys(
  zone: string,
  answer: DnsAnswer,
  ds: readonly DsData[],
  now: number,
): { keys: DnskeyData[] } | { reason: BogusReason } {
  const keySet = rrset(answer.answers, zone, 'DNSKEY');
  const entry = zoneKeys(keySet).filter((key) => ds.some((record) => dsMatches(zone, record, key)));
  if (entry.length === 0) return { reason: 'noMatchingKey' };
  const problem = verifySet(keySet, answer.answers, zone, entry, now);
  return problem === undefined ? { keys: zoneKeys(keySet) } : { reason: problem };
}

/**
 * Whether one of `zone`'s `keys` signed `records` (one RRset) in a signature valid at `now`, found
 * among the RRSIGs of `section`; else the most telling failure: a genuine signature out of its
 * validity period before a signature that does not verify, before none at all.
 */
function verifySet(
  records: readonly DnsRecord[],
  section: readonly DnsRecord[],
  zone: string,
  keys: readonly DnskeyData[],
  now: number,
): BogusReason | undefined {
  const first = records[0];
  if (first === undefined || !isWithin(first.name, zone)) return 'missingSignature';
  const signatures = section.filter(
    (record): record is RrsigRecord =>
      record.type === 'RRSIG' &&
      record.data.typeCovered === first.type &&
      canonicalOwner(record.name) === canonicalOwner(first.name) &&
      canonicalOwner(record.data.signersName) === zone,
  );
  let reason: BogusReason = 'missingSignature';
  for (const signature of signatures) {
    const { algorithm, keyTag: tag, inception, expiration } = signature.data;
    for (const key of keys) {
      if (key.algorithm !== algorithm || keyTag(key) !== tag) continue;
      // Plain comparison rather than RFC 4034 §3.1.5's serial arithmetic: the same until 2106.
      if (!verifyRrsig(records, signature, key)) {
        if (reason === 'missingSignature') reason = 'badSignature';
      } else if (now < inception) reason = 'notYetValid';
      else if (now > expiration) reason = 'expired';
      else return undefined;
    }
  }
  return reason;
}
