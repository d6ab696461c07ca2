import { dnssecView } from './dnssec.js';
import { nameserversOf } from './domains.js';
import { type Route, SandboxError } from './http.js';
import {
  DELETED,
  DUPLICATE,
  invalid,
  mayWrite,
  type RecordRequest,
  recordRequest,
  recordView,
  timedView,
  UNKNOWN_ZONE,
} from './records.js';
import type { SandboxDomain, SandboxRecord, SandboxState } from './state.js';

/**
 * Spec 4.4, and beyond v1.6.2 (spec addendum §1 #1–#4, #6): the zone list and the record writes,
 * answering as the recordings do. The record list repeats the real service's quirk for unknown zones.
 */
export function dnsRoutes(state: SandboxState): Route[] {
  const find = (name: string | undefined): SandboxDomain | undefined =>
    name === undefined ? undefined : state.domains.get(decodeURIComponent(name).toLowerCase());

  /** The zone of a fully qualified name: the longest account domain it ends in. */
  const zoneOf = (name: string): SandboxDomain => {
    const labels = name.replace(/\.$/, '').split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const domain = state.domains.get(labels.slice(i).join('.'));
      if (domain !== undefined) return domain;
    }
    throw new SandboxError(404, 'DNS zone not found');
  };

  const recordById = (param: string | undefined): { domain: SandboxDomain; record: SandboxRecord } => {
    if (!/^\d+$/.test(param ?? '')) throw invalid('rrid must be an integer');
    const id = Number(param);
    for (const domain of state.domains.values()) {
      const record = domain.records.find((r) => r.id === id);
      if (record !== undefined) return { domain, record };
    }
    throw new SandboxError(404, 'DNS record not found');
  };

  /** `auto` records are the registrar's own (spec addendum §2): read-only, so a change is a conflict. */
  const writable = (record: SandboxRecord): void => {
    if (record.auto) throw new SandboxError(409, 'Record is managed automatically and cannot be changed');
  };

  /**
   * What the zone allows: an exact duplicate (name, type, data) is the recorded 417; a CNAME shares its
   * name with nothing else (RFC 1034 §3.6.2; the recordings do not show the registrar's answer, 409 is ours).
   */
  const conflict = (domain: SandboxDomain, request: RecordRequest, self?: SandboxRecord) => {
    const others = domain.records.filter((r) => r !== self && r.name === request.name);
    if (others.some((r) => r.type === request.type && r.data === request.data)) return DUPLICATE;
    if (others.length > 0 && (request.type === 'CNAME' || others.some((r) => r.type === 'CNAME')))
      throw new SandboxError(409, 'A CNAME cannot share its name with other records');
    return undefined;
  };

  return [
    {
      method: 'GET',
      pattern: /^\/dns\/zones$/,
      operation: 'dns.zones',
      handler: () => ({
        response: [...state.domains.values()].map((domain) => ({
          domain: domain.domain,
          active: true,
          delegation_nameservers: nameserversOf(domain).map((host) => ({ host: `${host}.` })),
        })),
      }),
    },
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
            records: records.map(recordView),
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/dns\/rr\/([^/]+)$/,
      operation: 'dns.recordGet',
      handler: ({ params, now }) => ({ response: timedView(recordById(params[0]).record, now) }),
    },
    {
      method: 'POST',
      pattern: /^\/dns\/rr$/,
      operation: 'dns.recordCreate',
      handler: ({ body, key, now }) => {
        mayWrite(key);
        const request = recordRequest(body);
        const domain = zoneOf(request.name);
        const refused = conflict(domain, request);
        if (refused !== undefined) return refused;
        const { priority, annotation, ...fields } = request;
        const record: SandboxRecord = {
          id: state.newRecordId(),
          ...fields,
          auto: false,
          active: true,
          ...(priority === undefined ? {} : { priority }),
          ...(annotation === undefined ? {} : { annotation }),
          createdAt: now,
          updatedAt: now,
        };
        domain.records.push(record);
        // The recorded create answer has no timestamps.
        return { response: recordView(record) };
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/dns\/rr\/([^/]+)$/,
      operation: 'dns.recordUpdate',
      handler: ({ params, body, key, now }) => {
        mayWrite(key);
        const { domain, record } = recordById(params[0]);
        writable(record);
        const request = recordRequest(body, record);
        // A record stays in its zone; moving it elsewhere is a delete and a create.
        if (zoneOf(request.name) !== domain) throw invalid('name is outside the record’s zone');
        const refused = conflict(domain, request, record);
        if (refused !== undefined) return refused;
        const { priority, annotation, ...fields } = request;
        Object.assign(record, fields, { updatedAt: now });
        if (priority === undefined) delete record.priority;
        else record.priority = priority;
        if (annotation === undefined) delete record.annotation;
        else record.annotation = annotation;
        return { response: timedView(record, now) };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/dns\/rr\/([^/]+)$/,
      operation: 'dns.recordDelete',
      handler: ({ params, key }) => {
        mayWrite(key);
        const { domain, record } = recordById(params[0]);
        writable(record);
        domain.records = domain.records.filter((r) => r !== record);
        return DELETED;
      },
    },
    {
      method: 'GET',
      pattern: /^\/dns\/([^/]+)\/rr$/,
      operation: 'dns.records',
      handler: ({ params, now }) => {
        const domain = find(params[0]);
        if (domain === undefined) return UNKNOWN_ZONE;
        return { response: domain.records.map((r) => timedView(r, now)) };
      },
    },
  ];
}
