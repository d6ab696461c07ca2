import { DnsClient, type DnsClientOptions } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import { ProductsCa } from './caa.js';

export interface DiagnosticsServiceFactoryDeps {
  now: () => number;
  /** DNS_RESOLVERS, DNS_NAMESERVER_PORT and LIVE_CHECK_ALLOW as configured. */
  dns: DnsClientOptions;
  /** DNSSEC_TRUST_ANCHOR: the root DS records live checks validate DNSSEC from. */
  trustAnchors: readonly TrustAnchor[];
}

export interface DiagnosticsServices {
  /** Live DNS questions through the resolvers and to zones' own nameservers (also watches and tls). */
  dnsClient: DnsClient;
  /** The CA behind each workspace's registrar products, for CAA checks (read hourly). */
  productsCa: ProductsCa;
  trustAnchors: readonly TrustAnchor[];
}

export function buildDiagnosticsServices(deps: DiagnosticsServiceFactoryDeps): DiagnosticsServices {
  return {
    dnsClient: new DnsClient(deps.dns),
    productsCa: new ProductsCa(deps.now),
    trustAnchors: deps.trustAnchors,
  };
}
