import { isIP } from 'node:net';
import type { CheckLimits } from '../../dns/bounds.js';
import { canonicalName, type DnsAnswer, type DnsClient, type DnsRecord, sameName } from '../../dns/client.js';
import type { DnsServer } from '../../dns/servers.js';
import { type CheckResult, type Finding, finding, type NotChecked, reasonOf } from './findings.js';

/** One address of one of the zone's nameservers that answered for the zone with authority. */
export interface ZoneServer {
  host: string;
  address: string;
}

export interface Delegation extends CheckResult {
  /** The zone above the domain's (where its NS and DS live), when it could be found. */
  parent?: string;
  /** The parent's servers: DS is read there, authoritatively. */
  parentServers: DnsServer[];
  /** The nameservers the parent delegates to, and the ones the zone itself lists. */
  parentNs: string[];
  zoneNs: string[];
  /** Every address of the zone's nameservers that answered with authority, and what it said. */
  servers: ZoneServer[];
  /** The SOA answers with their RRSIGs (asked with DO), for the DNSSEC check. */
  soaAnswers: DnsAnswer[];
}

/** Servers asked per role: enough to see disagreement, few enough to answer within seconds. */
const MAX_PARENT_SERVERS = 3;

const hostsOf = (records: readonly DnsRecord[], owner: string) =>
  [
    ...new Set(
      records.flatMap((record) =>
        record.type === 'NS' && sameName(record.name, owner) ? [canonicalName(record.data)] : [],
      ),
    ),
  ].sort();
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * Addresses to ask a server at: its IPv4 ones when it has any, else IPv6. A machine without IPv6 would
 * otherwise report every IPv6 address as "could not check"; a server reachable over one family is the
 * same server.
 */
function preferred(addresses: readonly string[]): string[] {
  const v4 = addresses.filter((address) => isIP(address) === 4);
  return v4.length > 0 ? v4 : [...addresses];
}

/**
 * The addresses of `host` that may be asked (public, or inside LIVE_CHECK_ALLOW); each other one is a
 * finding naming it, and no packet goes there (contract §3): glue is the zone owner's to write.
 */
function askable(dns: DnsClient, host: string, addresses: readonly string[], findings: Finding[]): string[] {
  return addresses.filter((address) => {
    const verdict = dns.policy.judge(address);
    if (verdict === 'public' || verdict === 'allowed') return true;
    findings.push(
      finding('risky', 'delegation', 'notPublic', { host, address, kind: verdict }, `${host}/${address}`),
    );
    return false;
  });
}

/**
 * The addresses one check asks: at most `perHost` of each nameserver, taken a round at a time (every
 * host's first address, then every host's second …) so that a host with many addresses cannot crowd
 * out the others, and `direct` in all, counting the parent's servers already chosen.
 */
function withinBounds(
  perHost: ReadonlyMap<string, readonly string[]>,
  limits: CheckLimits,
  alreadyChosen: number,
): { targets: ZoneServer[]; unasked: number } {
  const budget = Math.max(0, limits.direct - alreadyChosen);
  const targets: ZoneServer[] = [];
  for (let round = 0; round < limits.perHost; round++) {
    for (const [host, addresses] of perHost) {
      const address = addresses[round];
      if (address !== undefined && targets.length < budget) targets.push({ host, address });
    }
  }
  const total = [...perHost.values()].reduce((sum, addresses) => sum + addresses.length, 0);
  return { targets, unasked: total - targets.length };
}

/** The closest enclosing zone cut above `domain` (its parent zone), with that zone's NS hosts. */
async function parentZone(
  dns: DnsClient,
  domain: string,
): Promise<{ zone: string; hosts: string[] } | undefined> {
  const labels = canonicalName(domain).split('.');
  for (let i = 1; i <= labels.length; i++) {
    const zone = labels.slice(i).join('.') || '.';
    const hosts = hostsOf(await dns.records(zone, 'NS'), zone);
    if (hosts.length > 0) return { zone, hosts };
  }
  return undefined;
}

/**
 * Delegation as the rest of the internet sees it: the parent's NS set and glue (asked of the parent's
 * own servers), every listed nameserver asked directly for the zone's SOA (lame ones named, serials
 * compared), the zone's own NS set, and the registrar's view beside them.
 */
export async function checkDelegation(
  dns: DnsClient,
  domain: string,
  registrarNs: readonly string[] | undefined,
): Promise<Delegation> {
  const findings: Finding[] = [];
  const notChecked: NotChecked[] = [];
  const result: Delegation = {
    findings,
    notChecked,
    parentServers: [],
    parentNs: [],
    zoneNs: [],
    servers: [],
    soaAnswers: [],
  };

  let parent: { zone: string; hosts: string[] } | undefined;
  try {
    parent = await parentZone(dns, domain);
  } catch (error) {
    notChecked.push({ what: { code: 'resolver' }, why: reasonOf(error) });
    return result;
  }
  if (parent === undefined) {
    notChecked.push({ what: { code: 'parent', parent: '?' }, why: { code: 'noAnswer' } });
    return result;
  }
  result.parent = parent.zone;
  const parentAddresses = (
    await Promise.all(
      parent.hosts.slice(0, MAX_PARENT_SERVERS).map(async (host) => {
        const addresses = await dns.addresses(host).catch(() => []);
        return askable(dns, host, preferred(addresses), findings).slice(0, 1);
      }),
    )
  ).flat();
  result.parentServers = parentAddresses.map((address) => dns.nameserver(address));

  // The referral: NS and glue as the parent serves them (RD off, so no resolver's cache in between).
  let referral: DnsAnswer | undefined;
  let lastError: unknown;
  for (const server of result.parentServers) {
    try {
      referral = await dns.ask(server, domain, 'NS');
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (referral === undefined) {
    notChecked.push({
      what: { code: 'parent', parent: parent.zone },
      why: lastError === undefined ? { code: 'noAnswer' } : reasonOf(lastError),
    });
    return result;
  }
  result.parentNs = hostsOf([...referral.authorities, ...referral.answers], domain);
  if (result.parentNs.length === 0) {
    findings.push(
      finding('broken', 'delegation', 'notDelegated', { name: domain, parent: parent.zone }, domain),
    );
    return result;
  }
  if (registrarNs !== undefined && registrarNs.length > 0) {
    const registrar = [...new Set(registrarNs.map(canonicalName))].sort();
    if (!sameSet(registrar, result.parentNs)) {
      findings.push(
        finding(
          'risky',
          'delegation',
          'registrarMismatch',
          { registrar: registrar.join(', '), parent: result.parentNs.join(', ') },
          domain,
        ),
      );
    }
  }

  // Each nameserver's addresses: glue for the ones inside the zone, the resolvers for the others.
  const glue = (host: string) =>
    referral.additionals.flatMap((record) =>
      (record.type === 'A' || record.type === 'AAAA') && sameName(record.name, host) ? [record.data] : [],
    );
  const perHost = new Map<string, string[]>();
  for (const host of result.parentNs) {
    const inZone = host.endsWith(`.${canonicalName(domain)}`);
    let addresses = glue(host);
    if (inZone && addresses.length === 0) {
      // No fix line: the address is exactly what nobody can look up without the glue.
      findings.push(finding('broken', 'delegation', 'missingGlue', { host, parent: parent.zone }, host));
    }
    if (addresses.length === 0) {
      try {
        addresses = await dns.addresses(host);
      } catch (error) {
        notChecked.push({ what: { code: 'serverAddress', host }, why: reasonOf(error) });
        continue;
      }
      if (addresses.length === 0 && !inZone) {
        findings.push(finding('broken', 'delegation', 'noAddress', { host }, host));
        continue;
      }
    }
    perHost.set(host, askable(dns, host, preferred(addresses), findings));
  }
  const { targets, unasked } = withinBounds(perHost, dns.limits, result.parentServers.length);
  if (unasked > 0) notChecked.push({ what: { code: 'unasked', count: unasked }, why: { code: 'limit' } });

  // Every address asked for the SOA, with DO: authority, serial and signatures in one question.
  const serials = new Map<string, number>();
  let lame = 0;
  await Promise.all(
    targets.map(async (target) => {
      let answer: DnsAnswer;
      try {
        answer = await dns.ask(dns.nameserver(target.address), domain, 'SOA', { dnssec: true });
      } catch (error) {
        notChecked.push({ what: { code: 'server', ...target }, why: reasonOf(error) });
        return;
      }
      const soa = answer.answers.find((record) => record.type === 'SOA' && sameName(record.name, domain));
      if (!answer.authoritative || answer.rcode !== 'NOERROR' || soa?.type !== 'SOA') {
        lame++;
        findings.push(
          finding(
            'risky',
            'delegation',
            'lame',
            {
              host: target.host,
              address: target.address,
              name: domain,
              // NOERROR without the AA flag: the catalog says "without authority".
              answer: answer.rcode,
            },
            `${target.host}/${target.address}`,
          ),
        );
        return;
      }
      result.servers.push(target);
      result.soaAnswers.push(answer);
      serials.set(`${target.host} (${target.address})`, soa.data.serial ?? 0);
    }),
  );
  if (targets.length > 0 && lame === targets.length) {
    findings.push(finding('broken', 'delegation', 'allLame', { name: domain }, domain));
  }
  if (new Set(serials.values()).size > 1) {
    const list = [...serials]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([server, serial]) => `${server}: ${serial}`);
    findings.push(finding('risky', 'delegation', 'serialMismatch', { serials: list.join(', ') }, domain));
  }

  // The zone's own NS set, from the first server that answered with authority.
  const first = result.servers[0];
  if (first !== undefined) {
    try {
      const own = await dns.ask(dns.nameserver(first.address), domain, 'NS');
      result.zoneNs = hostsOf(own.answers, domain);
      if (result.zoneNs.length > 0 && !sameSet(result.zoneNs, result.parentNs)) {
        findings.push(
          finding(
            'risky',
            'delegation',
            'nsMismatch',
            { parent: result.parentNs.join(', '), zone: result.zoneNs.join(', ') },
            domain,
          ),
        );
      }
    } catch (error) {
      notChecked.push({ what: { code: 'server', ...first }, why: reasonOf(error) });
    }
  }
  return result;
}
