// The record writes' parts (spec addendum §1–§2): what a request may hold, and how records are answered.
import { isIPv4, isIPv6 } from 'node:net';
import { field, type HandlerResult, type KeyInfo, SandboxError } from './http.js';
import type { SandboxRecord } from './state.js';

const DAY_MS = 86_400_000;
const RECORD_TYPES = new Set(['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'SRV', 'CAA', 'ALIAS']);
/** TTL bounds (spec addendum §2); the default when none is given is the recordings' 3600. */
const TTL_MIN = 60;
const TTL_MAX = 604_800;
const TTL_DEFAULT = 3600;
/** Labels of letters, digits, hyphens and underscores (`_acme-challenge`), each 1–63 long. */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The recorded answers, byte for byte (test/fixtures/regfish-cassettes). */
export const DUPLICATE: HandlerResult = {
  status: 417,
  body: {
    success: false,
    error: 'Record already exists (please use the UI to manage RR load balancers)',
    code: 15_003,
  },
};
export const DELETED: HandlerResult = {
  status: 200,
  body: { success: true, error: 'Record successfully deleted', code: 0 },
};
/** The record list of a zone not in the account: HTTP 200, success:false, code 15001. */
export const UNKNOWN_ZONE: HandlerResult = {
  status: 200,
  body: { success: false, error: 'Record not found', code: 15_001 },
};

export const invalid = (detail: string) => new SandboxError(400, `Invalid request: ${detail}`);

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

export interface RecordRequest {
  name: string;
  type: string;
  data: string;
  ttl: number;
  priority: number | undefined;
  annotation: string | undefined;
}

/** The record request of `POST /dns/rr` and `PATCH /dns/rr/{id}`, checked as a whole before anything is written. */
export function recordRequest(body: Record<string, unknown>, current?: SandboxRecord): RecordRequest {
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
export function recordView(record: SandboxRecord): Record<string, unknown> {
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
export function timedView(record: SandboxRecord, now: number): Record<string, unknown> {
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
export function mayWrite(key: KeyInfo): void {
  if (!key.permissions.has('dns:write'))
    throw new SandboxError(403, 'Permission denied: this API key may not change DNS records');
}
