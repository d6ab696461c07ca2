import { DNS_RECORD_TYPES, type DnsRecord } from '../../registrar/index.js';
import { parseDomainName } from '../../shared/domain-names.js';
import { text } from '../../text/index.js';
import {
  asciiLabels,
  canonicalData,
  hasPriority,
  isRecordType,
  parseData,
  presentation,
  type RecordType,
  validLabel,
} from './record-data.js';

/** A record as typed in a modal: every field a string, as Slack hands them over. */
export interface RecordDraft {
  type: string;
  name: string;
  data: string;
  ttl?: string | undefined;
  priority?: string | undefined;
}

/**
 * A record as Regdesk writes it: `name` fully qualified, lower case, with its trailing dot; `data`
 * canonical; `priority` for MX and SRV only (`| undefined` so a zod-inferred value fits as it is).
 */
export interface RecordValue {
  type: RecordType;
  name: string;
  data: string;
  ttl: number;
  priority?: number | undefined;
}

export type DraftField = 'type' | 'name' | 'data' | 'ttl' | 'priority';
/** Errors by field, plus `record` for what concerns the record as a whole. Empty object = fine. */
export type RuleErrors = Partial<Record<DraftField | 'record', string>>;

/** The registrar's default TTL (every recorded exchange shows 3600) and its bounds (spec addendum §2). */
export const DEFAULT_TTL = 3600;
export const MIN_TTL = 60;
export const MAX_TTL = 604_800;
/** Our choice: an MX typed without a priority gets the customary 10; a null MX gets 0 (RFC 7505 §3). */
export const DEFAULT_MX_PRIORITY = 10;

/** The record rules' sentences, in the language of the moment. */
const say = () => text.recordRules;
const TYPES = DNS_RECORD_TYPES.join(', ');
/** How names appear in sentences: without the root's dot. */
const shown = (name: string) => name.replace(/\.$/, '');
const fqdn = (name: string) => `${name.trim().toLowerCase().replace(/\.$/, '')}.`;
const zoneOf = (zone: string) => zone.trim().toLowerCase().replace(/\.$/, '');
const inZone = (name: string, zone: string) => name === `${zone}.` || name.endsWith(`.${zone}.`);

/**
 * The top-level domain a name typed without its trailing dot ends in, when it may be meant fully
 * qualified in another zone (`www.example.com`, `api.dev`): after its leading wildcard and service
 * labels (`*`, `_dmarc`), which no registered domain has, two labels or more remain, the last a TLD of
 * the Public Suffix List's ICANN section. A record silently written at `www.example.com.example.de`
 * would be the worse mistake, so such a name is refused with a sentence that names the relative
 * reading in full (`api.dev.example.de`, which is then taken as it is). `_dmarc.shop` and `*.dev` are
 * relative.
 */
function topLevelOf(labels: readonly string[]): string | undefined {
  const first = labels.findIndex((label) => label !== '*' && !label.startsWith('_'));
  const host = first === -1 ? [] : labels.slice(first);
  const top = host.at(-1);
  return host.length >= 2 && top !== undefined && parseDomainName(`example.${top}`).ok ? top : undefined;
}

/** A full name holds at most 253 characters without its trailing dot (RFC 1035 §3.1, RFC 2181 §11). */
const long = (name: string, raw: string) =>
  name.length > 254 ? { error: say().nameTooLong({ name: raw }) } : { name };

/**
 * The owner name as typed → fully qualified in `zone`. `@` or nothing is the apex; a name ending in
 * the zone (with or without its dot) is taken as it is; any other name is relative to the zone unless
 * it ends with a dot or in a top-level domain. A wildcard `*` may be the first label only (RFC 4592).
 */
function readName(zone: string, typed: string): { name: string } | { error: string } {
  const raw = typed.trim().toLowerCase();
  if (raw === '' || raw === '@') return { name: `${zone}.` };
  const labels = asciiLabels(raw.replace(/\.$/, ''));
  const [first = '', ...rest] = labels;
  if (!((first === '*' || validLabel(first)) && rest.every(validLabel)))
    return { error: say().nameInvalid({ name: raw }) };
  const ascii = labels.join('.');
  if (ascii === zone || ascii.endsWith(`.${zone}`)) return long(`${ascii}.`, raw);
  if (raw.endsWith('.')) return { error: say().nameOutside({ name: shown(raw), zone }) };
  const tld = topLevelOf(labels);
  if (tld !== undefined) return { error: say().nameElsewhere({ name: raw, zone, tld }) };
  return long(`${ascii}.${zone}.`, raw);
}

/**
 * A whole number typed in a field, or undefined when it is none (`abc`, `3.5`, `-1`). Digits grouped
 * by threes are taken as the error messages write them (`604,800` in English, `604.800` in German):
 * a group of exactly three digits is never a fraction of whole seconds.
 */
function wholeNumber(typed: string): number | undefined {
  if (/^\d{1,15}$/.test(typed)) return Number(typed);
  return /^\d{1,3}(?:[,.'_ \u00a0\u202f]\d{3}){1,4}$/.test(typed)
    ? Number(typed.replace(/\D/g, ''))
    : undefined;
}

function readTtl(typed: string | undefined): { ttl: number } | { error: string } {
  const value = (typed ?? '').trim();
  if (value === '') return { ttl: DEFAULT_TTL };
  const ttl = wholeNumber(value);
  if (ttl === undefined)
    return { error: say().ttlInvalid({ value, min: MIN_TTL, max: MAX_TTL, fallback: DEFAULT_TTL }) };
  if (ttl < MIN_TTL || ttl > MAX_TTL) return { error: say().ttlRange({ value, min: MIN_TTL, max: MAX_TTL }) };
  return { ttl };
}

function readPriority(
  type: RecordType,
  typed: string,
  data: string,
): { priority?: number } | { error: string } {
  if (!hasPriority(type)) return typed === '' ? {} : { error: say().priorityNotUsed({ type }) };
  if (typed === '') {
    if (type === 'SRV') return { error: say().priorityRequired({ type }) };
    return { priority: data === '.' ? 0 : DEFAULT_MX_PRIORITY };
  }
  const priority = wholeNumber(typed);
  return priority === undefined || priority > 65_535
    ? { error: say().priorityInvalid({ value: typed }) }
    : { priority };
}

/**
 * A drafted record → the record to write, or every field's error at once (the modal shows them all).
 * `zone` is the zone's ASCII domain without trailing dot (e.g. "example.de").
 */
export function readDraft(zone: string, draft: RecordDraft): { value: RecordValue } | { errors: RuleErrors } {
  const errors: RuleErrors = {};
  const origin = zoneOf(zone);
  const typed = draft.type.trim().toUpperCase();
  const type = isRecordType(typed) ? typed : undefined;
  if (type === undefined)
    errors.type =
      typed === '' ? say().typeMissing({ types: TYPES }) : say().typeUnknown({ type: typed, types: TYPES });
  const name = readName(origin, draft.name);
  if ('error' in name) errors.name = name.error;
  const ttl = readTtl(draft.ttl);
  if ('error' in ttl) errors.ttl = ttl.error;
  if (type === undefined) return { errors };

  let dataTyped = draft.data;
  let priorityTyped = (draft.priority ?? '').trim();
  // Tolerance: an MX pasted as "10 mail.example.de" with the priority field left empty.
  const mx = type === 'MX' && priorityTyped === '' ? /^\s*(\d{1,5})\s+(\S+)\s*$/.exec(dataTyped) : null;
  if (mx?.[1] !== undefined && mx[2] !== undefined) {
    priorityTyped = mx[1];
    dataTyped = mx[2];
  }
  const data = parseData(type, dataTyped);
  if ('error' in data) errors.data = data.error;
  const priority = readPriority(type, priorityTyped, 'data' in data ? data.data : '');
  if ('error' in priority) errors.priority = priority.error;

  if ('error' in name || 'error' in ttl || 'error' in data || 'error' in priority) return { errors };
  return { value: { type, name: name.name, data: data.data, ttl: ttl.ttl, ...priority } };
}

export type RecordChange =
  | { kind: 'add'; after: RecordValue }
  | { kind: 'edit'; id: number; after: RecordValue }
  | { kind: 'delete'; id: number };

/**
 * A registrar record as a RecordValue (the "before" of an edit or delete, and what Revert writes back),
 * or undefined for a type Regdesk does not write (SOA) or a record without data. Data our parser
 * refuses is kept as the registrar holds it (`canonicalData`): the record is what it is. A missing TTL
 * is the registrar's default.
 */
export function recordValueOf(record: DnsRecord): RecordValue | undefined {
  const type = record.type.toUpperCase();
  if (!isRecordType(type) || record.data === undefined || record.data.trim() === '') return undefined;
  return {
    type,
    name: fqdn(record.name),
    data: canonicalData(type, record.data),
    ttl: record.ttl ?? DEFAULT_TTL,
    ...(hasPriority(type) && record.priority !== undefined ? { priority: record.priority } : {}),
  };
}

const presented = (record: DnsRecord | RecordValue) =>
  presentation(record.type, record.data ?? '', record.priority);
const line = (record: DnsRecord | RecordValue) =>
  say().record({ name: shown(fqdn(record.name)), type: record.type.toUpperCase(), data: presented(record) });
const isApexNs = (zone: string, record: DnsRecord | RecordValue) =>
  record.type.toUpperCase() === 'NS' && fqdn(record.name) === `${zone}.`;
// SPF: RFC 7208 §4.5 ("v=spf1" then a space or the end); DMARC: RFC 7489 §6.4 ("v=DMARC1" then ";" or
// the end). The optional quote finds them in a TXT someone wrote quoted at the registrar's dashboard.
const isSpf = (record: DnsRecord | RecordValue) =>
  record.type.toUpperCase() === 'TXT' && /^"?v=spf1(?:[\s"]|$)/i.test(presented(record));
const isDmarc = (record: DnsRecord | RecordValue) =>
  record.type.toUpperCase() === 'TXT' && /^"?v=dmarc1\s*(?:[;"]|$)/i.test(presented(record));

/**
 * The change against the zone's records as the registrar listed them: every rule, each error on the
 * field it concerns (the first one per field). Edit and delete find their record by id in `records`;
 * an id of another zone is simply not there.
 */
export function checkChange(zone: string, records: readonly DnsRecord[], change: RecordChange): RuleErrors {
  const origin = zoneOf(zone);
  const errors: RuleErrors = {};
  const set = (field: keyof RuleErrors, message: string) => {
    errors[field] ??= message;
  };
  const current = change.kind === 'add' ? undefined : records.find((record) => record.id === change.id);
  if (change.kind !== 'add') {
    if (current === undefined) return { record: say().noRecord({ id: change.id, zone: origin }) };
    // The registrar manages these (and refuses with 409); Regdesk never tries.
    if (current.auto === true) return { record: say().autoRecord({ record: line(current) }) };
    if (isApexNs(origin, current)) return { record: say().apexNs({ zone: origin }) };
    if (change.kind === 'delete') return {};
  }
  const { after } = change;
  const before = current === undefined ? undefined : recordValueOf(current);
  if (before !== undefined && sameValue(before, after)) return { record: say().unchanged };
  if (current !== undefined && current.type.toUpperCase() !== after.type)
    set('type', say().typeChanged({ from: current.type.toUpperCase(), to: after.type }));
  if (!inZone(after.name, origin)) set('name', say().nameOutside({ name: shown(after.name), zone: origin }));
  if (isApexNs(origin, after)) set('type', say().apexNs({ zone: origin }));

  // The record being edited is replaced, so it is no neighbour of its new version.
  const here = records.filter(
    (record) => fqdn(record.name) === after.name && (current === undefined || record.id !== current.id),
  );
  const name = shown(after.name);
  const cname = here.find((record) => record.type.toUpperCase() === 'CNAME');
  // A CNAME is alone at its name (RFC 1034 §3.6.2, RFC 2181 §10.1); the apex holds SOA and NS.
  if (after.type === 'CNAME' && after.name === `${origin}.`) set('type', say().apexCname({ zone: origin }));
  else if (after.type === 'CNAME' && cname !== undefined)
    set('name', say().twoCnames({ name, record: line(cname) }));
  else if (after.type === 'CNAME' && here.length > 0)
    set('name', say().cnameBeside({ name, records: here.map(line).join('; ') }));
  else if (cname !== undefined)
    set('name', say().besideCname({ name, record: line(cname), type: after.type }));

  if (isDmarc(after) && !after.name.startsWith('_dmarc.')) set('name', say().dmarcName({ name }));
  const spf = isSpf(after) ? here.find(isSpf) : undefined;
  if (spf !== undefined) set('data', say().spfTwice({ name, record: line(spf) }));
  const dmarc = isDmarc(after) ? here.find(isDmarc) : undefined;
  if (dmarc !== undefined) set('data', say().dmarcTwice({ name, record: line(dmarc) }));
  // The registrar answers an exact duplicate with 417 (code 15003); say so before sending.
  const twin = here.find(
    (record) => record.type.toUpperCase() === after.type && presented(record) === presented(after),
  );
  if (twin !== undefined) set('data', say().duplicate({ record: line(twin) }));
  return errors;
}

function sameValue(a: RecordValue, b: RecordValue): boolean {
  return a.type === b.type && a.name === b.name && a.ttl === b.ttl && presented(a) === presented(b);
}
