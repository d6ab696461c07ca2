import { domainPath, type RegistrarTransport } from '../client.js';
import { DnsRecordList, DnsZone } from '../schemas/dns.js';

/** Spec 4.4: DNS zones and records (read-only in this API version). */
export function dnsResource(t: RegistrarTransport) {
  return {
    zone: async (domain: string) =>
      t.json({
        operation: 'dns.zone',
        method: 'GET',
        path: `/dns/zones/${domainPath(domain, 'dns.zone')}`,
        schema: DnsZone,
        retry: true,
      }),
    records: async (domain: string) =>
      t.json({
        operation: 'dns.records',
        method: 'GET',
        path: `/dns/${domainPath(domain, 'dns.records')}/rr`,
        schema: DnsRecordList,
        retry: true,
      }),
  };
}
