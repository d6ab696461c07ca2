/**
 * A small, real DNS hierarchy on loopback for tests: a signed root, a signed `de.`, child zones with
 * one fault each, served by Debian's Knot DNS (authoritative, automatic DNSSEC signing), an Unbound
 * validating resolver whose only trust anchor is the lab's root, and a second Unbound that does not
 * validate at all. Nothing leaves the machine.
 *
 * Each lab owns 127.53.N.0/24 (Linux routes all of 127/8 to lo). Every server listens on port 53 of
 * its own address, because NS records and glue cannot carry ports.
 */
export interface DnsLab {
  /** The validating resolver, `host:port` (for Regdesk's DNS_RESOLVERS). */
  resolver: string;
  /** A resolver that does not validate (no trust anchor, no validator module), `host:port`. */
  plainResolver: string;
  /** The lab root's DS, as DNSSEC_TRUST_ANCHOR takes it: `. IN DS <tag> <algorithm> 2 <hex>`. */
  trustAnchor: string;
  /** Addresses: root, tld, primary (two), alt. */
  addresses: { root: string; tld: string; primary: [string, string]; alt: string };
  /** Child zone names without trailing dot, e.g. zones.healthy === 'healthy.de'. */
  zones: {
    healthy: string;
    lame: string;
    serial: string;
    badDs: string;
    expiring: string;
    caa: string;
    spf: string;
    noDmarc: string;
    /**
     * Signed with NSEC3 and opt-out, unlike the others (NSEC), and it delegates `unsigned.<zone>`
     * (unsigned, no DS) to the primary: a denial of DS by an opt-out NSEC3 span, from Knot itself.
     */
    nsec3: string;
    /** Signed with RSA/SHA-256 (algorithm 8) instead of ECDSA P-256 (13) like the others. */
    rsa: string;
    /** Its DS in `de.` has digest type 1 (SHA-1) only. */
    sha1Ds: string;
  };
  /**
   * A zone signed with RSA/SHA-1 (algorithm 5, deprecated by RFC 9905), or why the installed Knot
   * cannot sign one (its tests then skip, saying so).
   */
  rsaSha1: { zone: string } | { missing: string };
  /** The NS host names (no trailing dot) the parent lists for a child zone. */
  nameservers(zone: string): string[];
  /**
   * Replaces the RRset `owner`/`type` of `zone` on the primary with this one record and returns once
   * the primary serves the new zone version. `owner` is relative to the zone (`@`, `_acme-challenge`) or
   * absolute (`www.healthy.de`, with or without the trailing dot); `rdata` is presentation format (a TXT
   * value without surrounding quotes is quoted here).
   */
  setRecord(zone: string, owner: string, type: string, rdata: string, ttl?: number): Promise<void>;
  /** Removes the RRset `owner`/`type` (if any) and returns once the primary serves the change. */
  removeRecord(zone: string, owner: string, type: string): Promise<void>;
  stop(): Promise<void>;
}
