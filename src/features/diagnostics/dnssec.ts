import type { DnsClient, DnsRecord } from '../../dns/client.js';
import { sameName } from '../../dns/client.js';
import { type DnskeyData, type DsData, dsFor, dsMatches } from '../../dns/dnssec.js';
import { type ChainVerdict, type TrustAnchor, validateChain } from '../../dns/validator.js';
import { settled } from '../../shared/settled.js';
import { slackDate } from '../../slack/blocks.js';
import type { Delegation } from './delegation.js';
import { deprecationFindings } from './deprecated.js';
import { type CheckResult, type Finding, finding, type NotChecked, reasonOf } from './findings.js';

/** Signatures expiring sooner than this are a finding (issue #30). */
export const SIGNATURE_WARNING_MS = 7 * 86_400_000;
/** DNSKEY flags of a key signing key (Zone Key + Secure Entry Point): the one a DS should name. */
const SEP_FLAGS = 257;

/** What the resolvers make of the zone: their AD bit, or SERVFAIL that goes away with CD (bogus). */
type ResolverView = 'secure' | 'insecure' | 'bogus' | 'failing' | 'unknown';

/**
 * The zone's DNSSEC state. `unvalidated`: Regdesk could not validate the chain itself, and the
 * resolvers set no AD bit for a zone whose DS and keys it can see: they do not validate, so
 * "insecure" would be a guess (contract §3).
 */
export type DnssecVerdict = ResolverView | 'unvalidated';

/**
 * Whose word the verdict is: Regdesk's own validation from the root trust anchor (`chain`), or the
 * resolvers' AD bit, where the chain could not be read (a resolver that strips signatures).
 */
export type VerdictBasis = 'chain' | 'resolvers';

/** Whether the configured resolvers validate DNSSEC, as far as this check could tell. */
export type ResolversValidate = 'yes' | 'no' | 'unknown';

export interface RegistrarDnssec {
  desired: string;
  live: string;
}

export interface DnssecView extends CheckResult {
  verdict: DnssecVerdict;
  basis: VerdictBasis;
  resolversValidate: ResolversValidate;
  /** Where the chain breaks, and why, when Regdesk's own validation found it bogus. */
  bogus?: Extract<ChainVerdict, { state: 'bogus' }>;
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

async function resolverView(dns: DnsClient, domain: string): Promise<ResolverView> {
  const plain = await dns.resolve(domain, 'SOA', { dnssec: true });
  if (plain.rcode === 'NOERROR') return plain.authenticated ? 'secure' : 'insecure';
  if (plain.rcode !== 'SERVFAIL') return 'unknown';
  const unchecked = await dns.resolve(domain, 'SOA', { dnssec: true, checkingDisabled: true });
  return unchecked.rcode === 'NOERROR' ? 'bogus' : 'failing';
}

/**
 * The verdict from the best evidence there is: Regdesk's own validation when it could read the chain,
 * else the resolvers' word, which is "unvalidated" rather than "insecure" when the zone visibly has
 * a DS and keys. Whether the resolvers validate shows where both were asked: a zone Regdesk found
 * secure or bogus that the resolvers answer without AD and without SERVFAIL.
 */
function judged(
  chain: ChainVerdict,
  resolvers: ResolverView,
  signedAtParent: boolean,
): Pick<DnssecView, 'verdict' | 'basis' | 'resolversValidate' | 'bogus'> {
  const validating = resolvers === 'secure' || resolvers === 'bogus';
  const silent = (chain.state === 'secure' || chain.state === 'bogus') && resolvers === 'insecure';
  const resolversValidate: ResolversValidate = validating ? 'yes' : silent ? 'no' : 'unknown';
  if (chain.state !== 'indeterminate')
    return {
      verdict: chain.state,
      basis: 'chain',
      resolversValidate,
      ...(chain.state === 'bogus' ? { bogus: chain } : {}),
    };
  if (resolvers === 'insecure' && signedAtParent)
    return { verdict: 'unvalidated', basis: 'resolvers', resolversValidate: 'no' };
  return { verdict: resolvers, basis: 'resolvers', resolversValidate };
}

/**
 * The verdict `/dns check` gives `name`, without the rest of its report (the certificate preflight,
 * preflight.ts): Regdesk's own chain from the root, else the resolvers' word, judged the same way.
 */
export async function dnssecVerdictOf(
  dns: DnsClient,
  name: string,
  { now, anchors }: { now: number; anchors: readonly TrustAnchor[] },
): Promise<Pick<DnssecView, 'verdict' | 'basis' | 'bogus'>> {
  const chain = await validateChain(dns, name, anchors, now);
  let resolvers: ResolverView = 'unknown';
  if (chain.state === 'indeterminate')
    resolvers = await resolverView(dns, name).catch((): ResolverView => 'unknown');
  return judged(chain, resolvers, false);
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
  { now, anchors }: { now: number; anchors: readonly TrustAnchor[] },
): Promise<DnssecView> {
  const findings: Finding[] = [];
  const notChecked: NotChecked[] = [];
  const view: DnssecView = {
    findings,
    notChecked,
    verdict: 'unknown',
    basis: 'resolvers',
    resolversValidate: 'unknown',
    ds: [],
  };
  // Regdesk's own validation runs beside the direct questions: it reads through the resolvers only.
  const chain = settled(validateChain(dns, domain, anchors, now));

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
  let resolvers: ResolverView = 'unknown';
  try {
    resolvers = await resolverView(dns, domain);
  } catch (error) {
    notChecked.push({ what: { code: 'resolver' }, why: reasonOf(error) });
  }
  Object.assign(view, judged(await chain, resolvers, (ds?.length ?? 0) > 0 && (keys?.length ?? 0) > 0));
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
    const date = slackDate(soonest).mrkdwn;
    if (soonest <= now)
      findings.push(finding('broken', 'dnssec', 'signaturesExpired', { name: domain, date }, domain));
    else if (soonest - now < SIGNATURE_WARNING_MS)
      findings.push(finding('risky', 'dnssec', 'signaturesExpiring', { name: domain, date }, domain));
  }
  // RSA/SHA-1 keys and SHA-1 DS records (issue #45): the zone may still validate, hence warnings.
  findings.push(...deprecationFindings(domain, ds, keys));
  const explained = findings.some((item) => item.severity === 'broken');
  if (view.verdict === 'bogus' && !explained)
    findings.push(
      finding(
        'broken',
        'dnssec',
        'bogus',
        { name: domain, at: view.bogus?.at ?? domain, reason: view.bogus?.reason ?? 'resolvers' },
        domain,
      ),
    );

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
