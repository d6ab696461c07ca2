/**
 * The DNS lab (see `DnsLab` in types.ts): real Knot and Unbound servers on a loopback /24 of their own,
 * and a DNS client that shows what node:dns hides. Tests import from here only.
 */
export { ensureDnsServers } from './install.js';
export { startDnsLab } from './lab.js';
export { type DnsRecord, type DnsResponse, type QueryOptions, queryDns } from './query.js';
export type { DnsLab } from './types.js';
