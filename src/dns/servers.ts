import { isIP } from 'node:net';

export interface DnsServer {
  host: string;
  port: number;
}

/**
 * DNS_RESOLVERS (contract §2): `host[:port],…`, IPv6 in brackets when a port follows. Hosts must be
 * IP addresses: a resolver is what turns names into addresses, so naming it would need another
 * resolver first (resolv.conf allows only addresses for the same reason). Returns the problem as a
 * sentence for the configuration error, or the servers.
 */
export function parseDnsServers(value: string): { servers: DnsServer[] } | { problem: string } {
  const servers: DnsServer[] = [];
  for (const entry of value.split(',').map((part) => part.trim())) {
    const match =
      /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(entry) ?? /^([^:\s]+)(?::(\d{1,5}))?$/.exec(entry);
    const bare = match === null && isIP(entry) === 6 ? entry : undefined;
    const host = bare ?? match?.[1];
    const port = bare === undefined && match?.[2] !== undefined ? Number(match[2]) : 53;
    if (host === undefined || isIP(host) === 0)
      return { problem: `"${entry}" is not an IP address with an optional :port` };
    if (port < 1 || port > 65_535) return { problem: `"${entry}" has no valid port (1–65535)` };
    servers.push({ host, port });
  }
  return servers.length === 0 ? { problem: 'names no resolver' } : { servers };
}
