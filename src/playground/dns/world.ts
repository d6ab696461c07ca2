// The sandbox's zones as DNS data: who serves what, at which address, with which records and keys.
import { generateKeyPairSync } from 'node:crypto';
import type * as wire from 'dns-packet';
import { canonicalName } from '../../dns/client.js';
import { dsDigest, keyTag } from '../../dns/dnssec.js';
import {
  nameserversOf,
  type Sandbox,
  type SandboxDomain,
  type SandboxRecord,
  STANDARD_NAMESERVERS,
  VANITY_SETS,
} from '../../sandbox/index.js';

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

const DNSSEC_ALGORITHM = 13; // ECDSA P-256 with SHA-256

export type Answer = wire.Answer;

export const within = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/** The world as the sandbox's state makes it, read anew for every question. */
export class World {
  readonly #keys = new Map<string, wire.DnskeyData>();

  constructor(private readonly sandbox: Pick<Sandbox, 'state'>) {}

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
    if (/^a\.nic\.[a-z0-9-]+$/.test(name)) return ADDRESS.tld;
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

  /** The zone's key signing key: made once per zone and process, as the registrar's signer would. */
  key(domain: SandboxDomain): wire.DnskeyData {
    const known = this.#keys.get(domain.domain);
    if (known !== undefined) return known;
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([
      Buffer.from(jwk.x ?? '', 'base64url'),
      Buffer.from(jwk.y ?? '', 'base64url'),
    ]);
    const key = { flags: 257, algorithm: DNSSEC_ALGORITHM, key: point } as wire.DnskeyData;
    this.#keys.set(domain.domain, key);
    return key;
  }

  ds(domain: SandboxDomain): Answer[] {
    if (!this.signed(domain)) return [];
    const key = this.key(domain);
    const digest = dsDigest(domain.domain, key, 2);
    if (digest === undefined) return [];
    return [
      {
        type: 'DS',
        name: domain.domain,
        ttl: 3600,
        data: { keyTag: keyTag(key), algorithm: DNSSEC_ALGORITHM, digestType: 2, digest },
      } as Answer,
    ];
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
    } as Answer;
  }

  /** Every record of the zone, as its nameservers serve it. */
  records(domain: SandboxDomain): Answer[] {
    const apex = domain.domain;
    const served: Answer[] = [
      this.soa(domain),
      ...this.delegation(domain).map(
        (host) => ({ type: 'NS', name: apex, ttl: 86_400, data: host }) as Answer,
      ),
    ];
    if (this.signed(domain))
      served.push({ type: 'DNSKEY', name: apex, ttl: 3600, data: this.key(domain) } as Answer);
    for (const record of domain.records) {
      if (!record.active) continue;
      // The apex NS set is the delegation's (the registrar keeps them in step).
      if (record.type === 'NS' && canonicalName(record.name) === apex) continue;
      const answer = toWire(record);
      if (answer !== undefined) served.push(answer);
    }
    return served;
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
