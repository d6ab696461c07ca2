import { BlockList, isIP } from 'node:net';

/**
 * Where live checks may send a packet (contract §3 "Live DNS against the open internet", docs/requirements.md
 * R49): a zone names its nameservers' addresses, and a zone is anyone's to write, so an address is asked
 * only when it is public or inside LIVE_CHECK_ALLOW. "Public" is what IANA's special-purpose address
 * registries do not set aside. Written here on node:net's BlockList (which also matches IPv4-mapped
 * IPv6 forms against IPv4 ranges) because the registries are short and a library's own notion of
 * "unicast" (ipaddr.js, say) counts unallocated IPv6 space outside 2000::/3 as ordinary.
 */

/** Why an address is not public: the registry entry it falls in, as the findings name it. */
export type AddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'translation'
  | 'unique-local'
  | 'invalid';

type Range = readonly [network: string, prefix: number, kind: AddressKind];

/**
 * IANA IPv4 Special-Purpose Address Registry (iana.org/assignments/iana-ipv4-special-registry) and the
 * multicast block (RFC 5771). The few globally reachable entries inside 192.0.0.0/24 (anycast PCP and
 * TURN) are refused with their block: no zone's nameserver lives there.
 */
const IPV4: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  // Before 240/4, which holds it: the first entry that matches names the kind.
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

/**
 * IANA IPv6 Special-Purpose Address Registry (iana.org/assignments/iana-ipv6-special-registry), the
 * multicast block, and every address outside 2000::/3 (the only space allocated as global unicast).
 * Addresses that embed an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are refused whole: what they
 * reach depends on a translator's network, not on the address.
 */
const IPV6: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::ffff:0:0', 96, 'translation'],
  ['64:ff9b::', 96, 'translation'],
  ['64:ff9b:1::', 48, 'translation'],
  ['100::', 64, 'reserved'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, 'translation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

const blockOf = (ranges: readonly Range[], type: 'ipv4' | 'ipv6') =>
  ranges.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { list, kind };
  });
const SPECIAL_V4 = blockOf(IPV4, 'ipv4');
const SPECIAL_V6 = blockOf(IPV6, 'ipv6');
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

/** An address without its IPv6 zone index (`fe80::1%eth0`): the index names an interface, never the internet. */
const withoutZone = (address: string) => address.replace(/%.*$/, '');

/** The registry entry `address` falls in, or 'public'. Mapped IPv6 forms are judged as their IPv4 address too. */
export function addressKind(address: string): AddressKind | 'public' {
  const bare = withoutZone(address);
  const family = isIP(bare);
  if (family === 0) return 'invalid';
  if (bare !== address) return 'link-local';
  if (family === 4) return SPECIAL_V4.find(({ list }) => list.check(bare, 'ipv4'))?.kind ?? 'public';
  // BlockList matches ::ffff:a.b.c.d against IPv4 ranges: name the IPv4 kind (loopback, private …) first.
  const mapped = SPECIAL_V4.find(({ list }) => list.check(bare, 'ipv6'))?.kind;
  if (mapped !== undefined) return mapped;
  const special = SPECIAL_V6.find(({ list }) => list.check(bare, 'ipv6'))?.kind;
  if (special !== undefined) return special;
  return GLOBAL_UNICAST_V6.check(bare, 'ipv6') ? 'public' : 'reserved';
}

/** One CIDR range of LIVE_CHECK_ALLOW. */
export interface AllowedRange {
  network: string;
  prefix: number;
}

/**
 * LIVE_CHECK_ALLOW (contract §2): `cidr,…`, IPv4 or IPv6, a bare address meaning just that address.
 * Returns the problem as a sentence for the configuration error, or the ranges.
 */
export function parseAllowedRanges(value: string): { ranges: AllowedRange[] } | { problem: string } {
  const ranges: AllowedRange[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const [network = '', prefixText, extra] = entry.split('/');
    const family = isIP(network);
    const max = family === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (family === 0 || extra !== undefined) return { problem: `"${entry}" is not an address or CIDR range` };
    if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max)
      return { problem: `"${entry}" has no valid prefix length (0–${max})` };
    ranges.push({ network, prefix });
  }
  return { ranges };
}

/**
 * Which addresses live checks may ask directly: public ones, and those inside the allowed ranges (a
 * lab, the playground). The configured resolvers are not judged here: the operator chose them.
 */
export class AddressPolicy {
  readonly #allowed = new BlockList();

  constructor(allowed: readonly AllowedRange[] = []) {
    for (const range of allowed)
      this.#allowed.addSubnet(range.network, range.prefix, isIP(range.network) === 6 ? 'ipv6' : 'ipv4');
  }

  /** 'public', 'allowed' (inside LIVE_CHECK_ALLOW), or why the address may not be asked. */
  judge(address: string): AddressKind | 'public' | 'allowed' {
    const kind = addressKind(address);
    if (kind === 'public' || kind === 'invalid') return kind;
    const bare = withoutZone(address);
    return bare === address && this.#allowed.check(bare, isIP(bare) === 6 ? 'ipv6' : 'ipv4')
      ? 'allowed'
      : kind;
  }

  mayAsk(address: string): boolean {
    const verdict = this.judge(address);
    return verdict === 'public' || verdict === 'allowed';
  }
}
