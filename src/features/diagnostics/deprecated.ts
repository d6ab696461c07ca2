import { type DnskeyData, type DsData, dsFor, dsMatches, keyTag } from '../../dns/dnssec.js';
import { type Finding, type Fix, finding } from './findings.js';

/**
 * The SHA-1 parts of a zone's DNSSEC (issue #45): DNSKEY algorithms 5 (RSASHA1) and 7
 * (RSASHA1-NSEC3-SHA1), deprecated for signing by RFC 9905, and DS digest type 1 (SHA-1), which
 * registries have started to refuse. The zone still validates where SHA-1 is still accepted, so each
 * is a warning ("risky"), once per zone: a watch raises it once, and again only after it was gone.
 */

/** The deprecated signing algorithms and their mnemonics (IANA DNS Security Algorithm Numbers). */
export const SHA1_ALGORITHMS: Readonly<Record<number, string>> = { 5: 'RSASHA1', 7: 'RSASHA1-NSEC3-SHA1' };
/** DS digest type 1, SHA-1 (RFC 3658, RFC 4034 §5.1.3). */
export const SHA1_DIGEST = 1;
/** At most this many key tags are named in a sentence; the fix lines carry every record. */
const MAX_TAGS = 5;

const listed = (values: readonly (string | number)[]) =>
  [...new Set(values.map(String))].slice(0, MAX_TAGS).join(', ') +
  (new Set(values).size > MAX_TAGS ? ', …' : '');

const dsValue = (ds: DsData) =>
  `${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toString('hex').toUpperCase()}`;

/** The zone's keys with algorithm 5 or 7, as one finding naming their key tags and algorithms. */
function sha1Keys(domain: string, keys: readonly DnskeyData[]): Finding[] {
  const old = keys.filter((key) => SHA1_ALGORITHMS[key.algorithm] !== undefined);
  if (old.length === 0) return [];
  const algorithms = [...new Set(old.map((key) => key.algorithm))]
    .sort((a, b) => a - b)
    .map((algorithm) => `${algorithm} (${SHA1_ALGORITHMS[algorithm]})`);
  return [
    finding(
      'risky',
      'dnssec',
      'sha1Algorithm',
      { name: domain, tags: listed(old.map(keyTag)), algorithms: algorithms.join(', ') },
      domain,
    ),
  ];
}

/**
 * The parent's DS records with digest type 1, as one finding: the fix sets the SHA-256 DS of each key
 * a SHA-1 DS names (unless the parent has it already) and then removes the SHA-1 ones.
 */
function sha1Ds(domain: string, ds: readonly DsData[], keys: readonly DnskeyData[]): Finding[] {
  const old = ds.filter((record) => record.digestType === SHA1_DIGEST);
  if (old.length === 0) return [];
  const present = new Set(ds.map(dsValue));
  const toSet = keys
    .filter((key) => old.some((record) => dsMatches(domain, record, key)))
    .map((key) => dsFor(domain, key))
    .filter((value) => !present.has(value));
  const fix: Fix[] = [
    ...[...new Set(toSet)].map((value) => ({ name: domain, type: 'DS', value, where: 'registrar' as const })),
    ...old.map((record) => ({
      action: 'remove' as const,
      name: domain,
      type: 'DS',
      value: dsValue(record),
      where: 'registrar' as const,
    })),
  ];
  return [
    finding(
      'risky',
      'dnssec',
      'sha1Ds',
      { name: domain, tags: listed(old.map((r) => r.keyTag)) },
      domain,
      fix,
    ),
  ];
}

/** The deprecation findings of a zone whose DS at the parent and DNSKEYs were both read. */
export function deprecationFindings(
  domain: string,
  ds: readonly DsData[],
  keys: readonly DnskeyData[],
): Finding[] {
  return [...sha1Keys(domain, keys), ...sha1Ds(domain, ds, keys)];
}
