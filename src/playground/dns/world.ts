// The sandbox's zones as DNS data: who serves what, at which address, with which records and keys.
import type * as wire from 'dns-packet';
import { canonicalName } from '../../dns/client.js';
import { canonicalOwner, labelsOf } from '../../dns/signatures.js';
import {
  nameserversOf,
  type Sandbox,
  type SandboxDomain,
  type SandboxRecord,
  STANDARD_NAMESERVERS,
  VANITY_SETS,
} from '../../sandbox/index.js';
import { dnskeyRecord, dsRecord, newZoneKey, trustAnchorOf, type Zone, type ZoneKey } from './signer.js';

/** Every part the playground's DNS plays, each on its own loopback address (one port for all). */
export const ADDRESS = {
  tld: '127.53.0.1',
  ns1: '127.53.0.2',
  ns2: '127.53.0.3',
  resolver: '127.53.0.53',
} as const;
export type Role = keyof typeof ADDRESS;
/** Every address above: what the playground adds to LIVE_CHECK_ALLOW. */
export const PLAYGROUND_RANGE = { network: '127.53.0.0', prefix: 24 } as const;
/** The root's server: the TLDs' server (ADDRESS.tld) plays it too. */
const ROOT_SERVER = 'a.root-servers.net';

export type Answer = wire.Answer;

const within = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/** The world as the sandbox's state makes it, read anew for every question. */
export class World {
  /** By zone apex: the root's, the TLDs' and the signed sandbox zones', made once per process. */
  readonly #keys = new Map<string, ZoneKey>();

  constructor(private readonly sandbox: Pick<Sandbox, 'state'>) {}

  /** The root key's DS: the trust anchor a validator of the playground's DNS starts from. */
  get trustAnchor(): string {
    return trustAnchorOf(this.#key('.'));
  }

  /** The sandbox domain `name` is in or at. */
  zoneOf(name: string): SandboxDomain | undefined {
    const labels = canonicalName(name).split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const found = this.sandbox.state.domains.get(labels.slice(i).join('.'));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Hosted by the registrar's nameservers (standard or a vanity set), so served here. */
  hosted(domain: SandboxDomain): boolean {
    return domain.usingServiceNameservers;
  }

  delegation(domain: SandboxDomain): string[] {
    return nameserversOf(domain).map(canonicalName);
  }

  /** The address of a nameserver host the playground runs, else undefined (nobody answers for it). */
  addressOf(host: string): string | undefined {
    const name = canonicalName(host);
    if (/^a\.nic\.[a-z0-9-]+$/.test(name) || name === ROOT_SERVER) return ADDRESS.tld;
    const pairs = [STANDARD_NAMESERVERS, ...VANITY_SETS.map((set) => set.nameservers)];
    for (const pair of pairs) {
      const index = pair.map(canonicalName).indexOf(name);
      if (index >= 0) return index === 0 ? ADDRESS.ns1 : ADDRESS.ns2;
    }
    return undefined;
  }

  signed(domain: SandboxDomain): boolean {
    return domain.dnssec.mode === 'regfish' && domain.dnssec.live === 'enabled' && this.hosted(domain);
  }

  /** A zone's key, kept for the process as the registrar's signer would keep it (DNSSEC off and on). */
  #key(apex: string): ZoneKey {
    const known = this.#keys.get(apex);
    if (known !== undefined) return known;
    const made = newZoneKey();
    this.#keys.set(apex, made);
    return made;
  }

  ds(domain: SandboxDomain): Answer[] {
    return this.signed(domain) ? [dsRecord(domain.domain, this.#key(domain.domain))] : [];
  }

  soa(domain: SandboxDomain): Answer {
    const changed = Math.max(
      domain.registeredAt,
      ...domain.records.map((record) => record.updatedAt ?? record.createdAt ?? 0),
    );
    return {
      type: 'SOA',
      name: domain.domain,
      ttl: 3600,
      data: {
        mname: this.delegation(domain)[0] ?? 'ns1.regfish.de',
        rname: `hostmaster.${domain.domain}`,
        // Seconds of the zone's last change: both nameservers read one state, so they agree.
        serial: Math.floor(changed / 1000) % 4_294_967_296,
        refresh: 3600,
        retry: 900,
        expire: 604_800,
        minimum: 300,
      },
    };
  }

  /** Every record of the zone, as its nameservers serve it. */
  records(domain: SandboxDomain): Answer[] {
    const apex = domain.domain;
    const served: Answer[] = [
      this.soa(domain),
      ...this.delegation(domain).map((host): Answer => ({ type: 'NS', name: apex, ttl: 86_400, data: host })),
    ];
    if (this.signed(domain)) served.push(dnskeyRecord(apex, this.#key(apex)));
    for (const record of domain.records) {
      if (!record.active) continue;
      // The apex NS set is the delegation's (the registrar keeps them in step).
      if (record.type === 'NS' && canonicalName(record.name) === apex) continue;
      const answer = toWire(record);
      if (answer !== undefined) served.push(answer);
    }
    return served;
  }

  /** The zone a hosted sandbox domain's nameservers serve, signed when the sandbox signs it. */
  zone(domain: SandboxDomain): Zone {
    const key = this.signed(domain) ? this.#key(domain.domain) : undefined;
    return { apex: domain.domain, records: this.records(domain), key };
  }

  /** The TLDs the sandbox's domains are in: the root delegates these and no others. */
  tlds(): string[] {
    return [...new Set([...this.sandbox.state.domains.keys()].map((name) => labelsOf(name).at(-1) ?? ''))];
  }

  /**
   * The zone of the TLDs' server (ADDRESS.tld) that answers for `name`: its TLD's, or the root's for
   * the root itself, for a TLD's DS (the parent's side of the cut) and under TLDs no domain is in.
   */
  registryZone(name: string, type: string): Zone {
    const labels = labelsOf(canonicalOwner(name));
    const tld = labels.at(-1);
    const tlds = this.tlds();
    if (tld === undefined || (labels.length === 1 && type === 'DS') || !tlds.includes(tld))
      return this.#registry(
        '.',
        tlds.map((child) => ({
          name: child,
          hosts: [`a.nic.${child}`],
          ds: [dsRecord(child, this.#key(child))],
        })),
      );
    const domains = [...this.sandbox.state.domains.values()].filter((domain) => within(domain.domain, tld));
    return this.#registry(
      tld,
      domains.map((domain) => ({ name: domain.domain, hosts: this.delegation(domain), ds: this.ds(domain) })),
    );
  }

  /** The root or a TLD: always signed, delegating `children` with their DS and in-bailiwick glue. */
  #registry(apex: string, children: Array<{ name: string; hosts: string[]; ds: Answer[] }>): Zone {
    const server = apex === '.' ? ROOT_SERVER : `a.nic.${apex}`;
    const key = this.#key(apex);
    const records: Answer[] = [
      {
        type: 'SOA',
        name: apex,
        ttl: 900,
        data: {
          mname: server,
          rname: apex === '.' ? `hostmaster.${ROOT_SERVER}` : `hostmaster.nic.${apex}`,
          serial: 1,
          refresh: 3600,
          retry: 900,
          expire: 604_800,
          minimum: 900,
        },
      },
      { type: 'NS', name: apex, ttl: 86_400, data: server },
      dnskeyRecord(apex, key),
    ];
    if (apex !== '.') records.push({ type: 'A', name: server, ttl: 86_400, data: ADDRESS.tld });
    for (const child of children) {
      records.push(...child.ds);
      for (const host of child.hosts) {
        records.push({ type: 'NS', name: child.name, ttl: 86_400, data: host });
        // Glue for nameservers inside the delegated zone (a vanity set's names, a.nic.<tld>).
        const address = this.addressOf(host);
        if (within(host, child.name) && address !== undefined)
          records.push({ type: 'A', name: host, ttl: 86_400, data: address });
      }
    }
    return { apex, records, key };
  }
}

/** A sandbox record in the wire form, or undefined for data it cannot put on the wire. */
function toWire(record: SandboxRecord): Answer | undefined {
  const name = canonicalName(record.name);
  const base = { name, ttl: record.ttl };
  const data = record.data.trim();
  const host = (value: string) => canonicalName(value);
  const leading = (value: string) => {
    const match = /^(\d+)\s+(.*)$/.exec(value);
    return match === null ? undefined : { number: Number(match[1]), rest: match[2] ?? '' };
  };
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return { ...base, type: record.type, data } as Answer;
    case 'CNAME':
    case 'NS':
      return { ...base, type: record.type, data: host(data) } as Answer;
    case 'MX': {
      const split = record.priority === undefined ? leading(data) : { number: record.priority, rest: data };
      if (split === undefined) return undefined;
      return {
        ...base,
        type: 'MX',
        data: { preference: split.number, exchange: host(split.rest) },
      } as Answer;
    }
    case 'TXT': {
      const text = /^".*"$/s.test(data) ? data.slice(1, -1) : data;
      const bytes = Buffer.from(text, 'utf8');
      const strings: Buffer[] = [];
      for (let at = 0; at < bytes.length || strings.length === 0; at += 255)
        strings.push(bytes.subarray(at, at + 255));
      return { ...base, type: 'TXT', data: strings } as Answer;
    }
    case 'CAA': {
      const match = /^(\d+)\s+([a-zA-Z0-9]+)\s+"?(.*?)"?$/.exec(data);
      if (match === null) return undefined;
      const flags = Number(match[1]);
      return {
        ...base,
        type: 'CAA',
        data: {
          flags,
          tag: (match[2] ?? '').toLowerCase(),
          value: match[3] ?? '',
          issuerCritical: flags >= 128,
        },
      } as Answer;
    }
    case 'SRV': {
      const parts = data.split(/\s+/);
      const [weight, port, target] = record.priority === undefined ? parts.slice(1) : parts;
      const priority = record.priority ?? Number(parts[0]);
      if (target === undefined) return undefined;
      return {
        ...base,
        type: 'SRV',
        data: { priority, weight: Number(weight), port: Number(port), target: host(target) },
      } as Answer;
    }
    default:
      // ALIAS and the like: the registrar works them out when asked; nothing to serve as such here.
      return undefined;
  }
}

/**
 * The zones the playground shows healthy. The sandbox's seed gives every zone an MX host without an
 * address and no DMARC policy (its tests count those records), which `/dns check` rightly calls
 * broken; here two zones get both, so a clean report stands beside zones with something to fix.
 */
const HEALTHY_DEMO_ZONES = ['example.com', 'regdesk-demo.de'];

export function completeDemoZones(state: Sandbox['state']): void {
  for (const zone of HEALTHY_DEMO_ZONES) {
    const domain = state.domains.get(zone);
    if (domain === undefined) continue;
    const has = (name: string, type: string) =>
      domain.records.some((record) => canonicalName(record.name) === name && record.type === type);
    const add = (name: string, type: string, data: string) =>
      domain.records.push({
        id: state.newRecordId(),
        name: `${name}.`,
        type,
        data,
        ttl: 3600,
        auto: false,
        active: true,
      });
    if (!has(`mail.${zone}`, 'A')) add(`mail.${zone}`, 'A', '192.0.2.25');
    if (!has(`_dmarc.${zone}`, 'TXT'))
      add(`_dmarc.${zone}`, 'TXT', `"v=DMARC1; p=quarantine; rua=mailto:postmaster@${zone}"`);
  }
}
