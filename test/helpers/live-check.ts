import type { AllowedRange } from '../../src/dns/addresses.js';
import { DnsClient } from '../../src/dns/client.js';
import { parseDnsServers } from '../../src/dns/servers.js';
import { parseTrustAnchors, type TrustAnchor } from '../../src/dns/validator.js';

/**
 * The DNS lab's addresses (127.53.N.0/24 each, test/helpers/dns-lab/) and the playground's
 * (127.53.0.0/24) are loopback, which live checks never ask unless LIVE_CHECK_ALLOW says so (contract §2).
 */
export const LAB_RANGE = '127.53.0.0/16';
export const LAB_ALLOWED: AllowedRange[] = [{ network: '127.53.0.0', prefix: 16 }];

/** DNSSEC_TRUST_ANCHOR's value as anchors (a lab's root, IANA's): a test's own mistake throws. */
export function anchorsOf(value: string): TrustAnchor[] {
  const parsed = parseTrustAnchors(value);
  if (!('anchors' in parsed)) throw new Error(parsed.problem);
  return parsed.anchors;
}

/** A client asking through `resolver` (`host:port`), allowed to ask the lab's nameservers directly. */
export function clientFor(resolver: string): DnsClient {
  const parsed = parseDnsServers(resolver);
  if (!('servers' in parsed)) throw new Error(parsed.problem);
  return new DnsClient({ resolvers: parsed.servers, allowed: LAB_ALLOWED });
}
