import type { DnsClient, DnsRecord } from '../../dns/client.js';
import { sameName } from '../../dns/client.js';
import { type DnskeyData, type DsData, dsFor, dsMatches } from '../../dns/dnssec.js';
import { slackDate } from '../../slack/blocks.js';
import type { Delegation } from './delegation.js';
import { type CheckResult, type Finding, finding, type NotChecked, reasonOf } from './findings.js';

/** Signatures expiring sooner than this are a finding (issue #30). */
export const SIGNATURE_WARNING_MS = 7 * 86_400_000;
/** DNSKEY flags of a key signing key (Zone Key + Secure Entry Point): the one a DS should name. */
const SEP_FLAGS = 257;

export type ResolverView = 'secure' | 'insecure' | 'bogus' | 'failing' | 'unknown';

export interface RegistrarDnssec {
  desired: string;
  live: string;
}

export interface DnssecView extends CheckResult {
  resolver: ResolverView;
  /** DS records at the parent, as `tag alg digest-type digest`. */
  ds: string[];
}

const dsText = (ds: DsData) =>
  `${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toString('hex').toUpperCase()}`;

function ofType<T extends DnsRecord['type']>(records: readonly DnsRecord[], type: T, owner: string) {
  return records.filter(
    (record): record is Extract<DnsRecord, { type: T }> =>
      record.type === type && sameName(record.name, owner),
  );
}

/** What validating resolvers make of the zone: AD set, or SERVFAIL that goes away with CD (bogus). */
async function resolverView(dns: DnsClient, domain: string): Promise<ResolverView> {
  const plain = await dns.resolve(domain, 'SOA', { dnssec: true });
  if (plain.rcode === 'NOERROR') return plain.authenticated ? 'secure' : 'insecure';
  if (plain.rcode !== 'SERVFAIL') return 'unknown';
  const unchecked = await dns.resolve(domain, 'SOA', { dnssec: true, checkingDisabled: true });
  return unchecked.rcode === 'NOERROR' ? 'bogus' : 'failing';
}

/**
 * The DNSSEC chain, computed rather than trusted: the DS at the parent (asked of the parent's own
 * servers) against the DNSKEYs the zone serves (digest computed here), signature expiry from the
 * SOA answers the delegation check collected, and the resolvers' verdict beside the registrar's
 * desired and live state, with the mismatch explained.
 */
export async function checkDnssec(
  dns: DnsClient,
  domain: string,
  delegation: Delegation,
  registrar: RegistrarDnssec | undefined,
  now: number,
): Promise<DnssecView> {
  const findings: Finding[] = [];
  const notChecked: NotChecked[] = [];
  const view: DnssecView = { findings, notChecked, resolver: 'unknown', ds: [] };

  let ds: DsData[] | undefined;
  let dsError: unknown;
  for (const server of delegation.parentServers) {
    try {
      const answer = await dns.ask(server, domain, 'DS', { dnssec: true });
      ds = ofType(answer.answers, 'DS', domain).map((record) => record.data);
      break;
    } catch (error) {
      dsError = error;
    }
  }
  if (ds === undefined && dsError !== undefined)
    notChecked.push({ what: { code: 'parent', parent: delegation.parent ?? '?' }, why: reasonOf(dsError) });
  let keys: DnskeyData[] | undefined;
  const first = delegation.servers[0];
  if (first !== undefined) {
    try {
      const answer = await dns.ask(dns.nameserver(first.address), domain, 'DNSKEY', { dnssec: true });
      keys = ofType(answer.answers, 'DNSKEY', domain).map((record) => record.data);
    } catch (error) {
      notChecked.push({ what: { code: 'server', ...first }, why: reasonOf(error) });
    }
  }
  try {
    view.resolver = await resolverView(dns, domain);
  } catch (error) {
    notChecked.push({ what: { code: 'resolver' }, why: reasonOf(error) });
  }
  view.ds = (ds ?? []).map(dsText);
  if (ds === undefined || keys === undefined) return view;

  const sep = keys.filter((key) => key.flags === SEP_FLAGS);
  const expected = (sep.length > 0 ? sep : keys).map((key) => dsFor(domain, key));
  const toSet = expected.map((value) => ({ name: domain, type: 'DS', value, where: 'registrar' as const }));
  if (ds.length > 0 && keys.length === 0) {
    findings.push(
      finding(
        'broken',
        'dnssec',
        'dsWithoutKeys',
        { name: domain },
        domain,
        ds.map((record) => ({
          action: 'remove' as const,
          name: domain,
          type: 'DS',
          value: dsText(record),
          where: 'registrar' as const,
        })),
      ),
    );
  } else if (ds.length > 0 && !ds.some((record) => keys.some((key) => dsMatches(domain, record, key)))) {
    findings.push(finding('broken', 'dnssec', 'dsMatchesNoKey', { name: domain }, domain, toSet));
  } else if (ds.length === 0 && keys.length > 0 && registrar?.live !== 'enabled') {
    findings.push(finding('risky', 'dnssec', 'signedWithoutDs', { name: domain }, domain, toSet));
  }

  // The earliest expiry of the signatures the zone's servers gave with its SOA.
  const expirations = delegation.soaAnswers.flatMap((answer) =>
    ofType(answer.answers, 'RRSIG', domain).map((record) => record.data.expiration * 1000),
  );
  if (keys.length > 0 && expirations.length > 0) {
    const soonest = Math.min(...expirations);
    const date = slackDate(soonest);
    if (soonest <= now)
      findings.push(finding('broken', 'dnssec', 'signaturesExpired', { name: domain, date }, domain));
    else if (soonest - now < SIGNATURE_WARNING_MS)
      findings.push(finding('risky', 'dnssec', 'signaturesExpiring', { name: domain, date }, domain));
  }
  const chainFound = findings.some((item) => item.severity === 'broken');
  if (view.resolver === 'bogus' && !chainFound)
    findings.push(finding('broken', 'dnssec', 'bogus', { name: domain }, domain));

  // The registrar's state beside the parent's: "registry active, no DS at the parent" and the reverse.
  if (registrar !== undefined) {
    const on = registrar.live === 'enabled';
    if (on && ds.length === 0)
      findings.push(
        finding('risky', 'dnssec', 'registryActiveNoDs', { state: registrar.live }, domain, toSet),
      );
    else if (!on && registrar.desired !== 'enabled' && ds.length > 0 && keys.length > 0)
      findings.push(finding('risky', 'dnssec', 'registrarOffDsPresent', { state: registrar.live }, domain));
    else if (!on && registrar.desired !== 'enabled' && ds.length === 0 && keys.length === 0)
      findings.push(finding('advice', 'dnssec', 'dnssecOff', { name: domain }, domain));
  } else if (ds.length === 0 && keys.length === 0) {
    findings.push(finding('advice', 'dnssec', 'dnssecOff', { name: domain }, domain));
  }
  return view;
}
