import { isIPv4, isIPv6 } from 'node:net';
import { dnssecView } from './dnssec.js';
import { nameserversOf } from './domains.js';
import { field, type HandlerResult, type KeyInfo, type Route, SandboxError } from './http.js';
import type { SandboxDomain, SandboxRecord, SandboxState } from './state.js';

const DAY_MS = 86_400_000;
const RECORD_TYPES = new Set(['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'SRV', 'CAA', 'ALIAS']);
/** TTL bounds (spec addendum §2); the default when none is given is the recordings' 3600. */
const TTL_MIN = 60;
const TTL_MAX = 604_800;
const TTL_DEFAULT = 3600;
/** Labels of letters, digits, hyphens and underscores (`_acme-challenge`), each 1–63 long. */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The recorded answers, byte for byte (test/fixtures/regfish-cassettes). */
const DUPLICATE: HandlerResult = {
  status: 417,
  body: {
    success: false,
    error: 'Record already exists (please use the UI to manage RR load balancers)',
    code: 15_003,
  },
};
const DELETED: HandlerResult = {
  status: 200,
  body: { success: true, error: 'Record successfully deleted', code: 0 },
};
/** The record list of a zone not in the account: HTTP 200, success:false, code 15001. */
const UNKNOWN_ZONE: HandlerResult = {
  status: 200,
  body: { success: false, error: 'Record not found', code: 15_001 },
};

const invalid = (detail: string) => new SandboxError(400, `Invalid request: ${detail}`);

/** A host name as record data: trailing dot optional on the way in, always there when stored. */
function hostname(value: string, what: string): string {
  const bare = value.trim().toLowerCase().replace(/\.$/, '');
  if (bare === '' || bare.length > 253 || !bare.split('.').every((label) => LABEL.test(label)))
    throw invalid(`${what} must be a host name`);
  return `${bare}.`;
}

/** Owner names are fully qualified (spec addendum §2); a leading `*` label is a wildcard. */
function ownerName(value: string): string {
  const bare = value.trim().toLowerCase().replace(/\.$/, '');
  const labels = bare.split('.');
  const [first, ...rest] = labels;
  if (
    bare.length > 253 ||
    labels.length < 2 ||
    !(first === '*' || LABEL.test(first ?? '')) ||
    !rest.every((label) => LABEL.test(label))
  )
    throw invalid('name must be a fully qualified domain name');
  return `${bare}.`;
}

/** The data as stored, checked per type; the priority only for MX and SRV, where it is required. */
function recordData(type: string, data: string, priority: number | undefined): string {
  if ((type === 'MX' || type === 'SRV') !== (priority !== undefined))
    throw invalid(
      priority === undefined ? `priority is required for ${type}` : 'priority is for MX and SRV only',
    );
  if (priority !== undefined && (priority < 0 || priority > 65_535)) throw invalid('priority out of range');
  switch (type) {
    case 'A':
      if (!isIPv4(data)) throw invalid('data must be an IPv4 address');
      return data;
    case 'AAAA':
      if (!isIPv6(data)) throw invalid('data must be an IPv6 address');
      return data.toLowerCase();
    case 'CNAME':
    case 'NS':
    case 'MX':
    case 'ALIAS':
      return hostname(data, 'data');
    case 'SRV': {
      const srv = /^(\d{1,5}) (\d{1,5}) (\S+)$/.exec(data.trim());
      if (srv === null || Number(srv[1]) > 65_535 || Number(srv[2]) > 65_535)
        throw invalid('data must be "weight port target"');
      return `${Number(srv[1])} ${Number(srv[2])} ${hostname(srv[3] ?? '', 'the SRV target')}`;
    }
    case 'CAA': {
      const caa = /^(\d{1,3}) ([a-z0-9]+) "([^"]*)"$/i.exec(data.trim());
      if (caa === null || Number(caa[1]) > 255) throw invalid('data must be flags tag "value"');
      return `${Number(caa[1])} ${caa[2]?.toLowerCase()} "${caa[3]}"`;
    }
    default:
      // TXT: any text (`field.string` has refused empty data already).
      return data;
  }
}

interface RecordRequest {
  name: string;
  type: string;
  data: string;
  ttl: number;
  priority: number | undefined;
  annotation: string | undefined;
}

/** The record request of `POST /dns/rr` and `PATCH /dns/rr/{id}`, checked as a whole before anything is written. */
function recordRequest(body: Record<string, unknown>, current?: SandboxRecord): RecordRequest {
  const type = (field.string(body, 'type') ?? '').toUpperCase();
  if (!RECORD_TYPES.has(type)) throw invalid(`type ${type} is not supported`);
  const name = ownerName(field.string(body, 'name') ?? '');
  const priority = field.integer(body, 'priority');
  const data = recordData(type, field.string(body, 'data') ?? '', priority);
  // A PATCH without a TTL or an annotation keeps the record's own.
  const ttl = field.integer(body, 'ttl') ?? current?.ttl ?? TTL_DEFAULT;
  if (ttl < TTL_MIN || ttl > TTL_MAX) throw invalid(`ttl must be between ${TTL_MIN} and ${TTL_MAX}`);
  const annotation = field.string(body, 'annotation', false) ?? current?.annotation;
  return { name, type, data, ttl, priority, annotation };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A record as the registrar answers it: the recorded fields, then priority and annotation when set. */
function recordView(record: SandboxRecord): Record<string, unknown> {
  const { id, name, type, data, ttl, auto, active, priority, annotation } = record;
  return {
    id,
    name,
    type,
    data,
    ttl,
    auto,
    active,
    ...(priority === undefined ? {} : { priority }),
    ...(annotation === undefined ? {} : { annotation }),
  };
}

/** With timestamps, as the record list and single-record answers have them (seconds). */
function timedView(record: SandboxRecord, now: number): Record<string, unknown> {
  const created = record.createdAt ?? now - DAY_MS;
  return {
    ...recordView(record),
    ts_created: seconds(created),
    ts_updated: seconds(record.updatedAt ?? created),
  };
}

/**
 * Record writes need the DNS administrator role (spec addendum §3); the sandbox's right for it is
 * `dns:write`. A valid key without it is refused with 403 (401 stays "no valid key").
 */
function mayWrite(key: KeyInfo): void {
  if (!key.permissions.has('dns:write'))
    throw new SandboxError(403, 'Permission denied: this API key may not change DNS records');
}

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
