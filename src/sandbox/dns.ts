import { dnssecView } from './dnssec.js';
import { nameserversOf } from './domains.js';
import { type Route, SandboxError } from './http.js';
import type { SandboxDomain, SandboxState } from './state.js';

/** Spec 4.4; the record list repeats the real service's quirk for unknown zones (docs-notes). */
export function dnsRoutes(state: SandboxState): Route[] {
  const find = (name: string | undefined): SandboxDomain | undefined =>
    name === undefined ? undefined : state.domains.get(decodeURIComponent(name).toLowerCase());
  return [
    {
      method: 'GET',
      pattern: /^\/dns\/zones\/([^/]+)$/,
      operation: 'dns.zone',
      handler: ({ params, now }) => {
        const domain = find(params[0]);
        if (domain === undefined) throw new SandboxError(404, 'Zone not found');
        const records = domain.records;
        const byType: Record<string, number> = {};
        for (const record of records) byType[record.type] = (byType[record.type] ?? 0) + 1;
        const dnssec = dnssecView(domain, now);
        return {
          response: {
            domain: domain.domain,
            origin: `${domain.domain}.`,
            active: true,
            signed: domain.dnssec.mode === 'regfish' && domain.dnssec.live === 'enabled',
            using_regfish_nameservers: domain.usingServiceNameservers,
            delegation_nameservers: nameserversOf(domain).map((host) => ({ host: `${host}.` })),
            soa: {
              primary_nameserver: 'ns1.regfish.de.',
              mailbox: `hostmaster.${domain.domain}.`,
              serial: 2026112201,
              refresh: 10_800,
              retry: 3600,
              expire: 604_800,
              minimum: 300,
              ttl: 86_400,
            },
            record_count: records.length,
            dnssec_state: dnssec.dnssec_state,
            dnssec,
            counts: {
              records_total: records.length,
              records_active: records.filter((r) => r.active).length,
              records_auto: records.filter((r) => r.auto).length,
              records_manual: records.filter((r) => !r.auto).length,
              by_type: byType,
            },
            records: records.map(({ id, name, type, data, ttl, auto, active }) => ({
              id,
              name,
              type,
              data,
              ttl,
              auto,
              active,
            })),
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/dns\/([^/]+)\/rr$/,
      operation: 'dns.records',
      handler: ({ params, now }) => {
        const domain = find(params[0]);
        // The real service answers an unknown zone with HTTP 200, success:false, code 15001.
        if (domain === undefined) return { envelopeError: 'Record not found', status: 200, code: 15_001 };
        const created = Math.floor(now / 1000) - 86_400;
        return {
          response: domain.records.map((r) => ({ ...r, ts_created: created, ts_updated: created })),
        };
      },
    },
  ];
}
