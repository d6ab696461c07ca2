import { isIPv4 } from 'node:net';
import type { DnsRecord, DnsZone } from '../../registrar/index.js';
import { canonicalIpv6, isRecordType, validLabel } from '../records/record-data.js';
import {
  registrarName,
  unicodeName,
  withinOrigin,
  writtenLabel,
  writtenName,
  writtenOwner,
} from './master-file-names.js';
import { quotedChar, txtStrings } from './master-file-tokens.js';

/**
 * Writes a zone as an RFC 1035 §5.1 master file that `named-checkzone` loads: `$ORIGIN`, `$TTL`, the
 * SOA, the apex NS set, then every record with its TTL, owners relative to the origin.
 *
 * - Order is fixed (owner in DNS order — RFC 4034 §6.1 — then type, priority, data): the same zone
 *   gives the same bytes, so two exports diff cleanly.
 * - TXT: strings of at most 255 bytes (RFC 1035 §3.3.14, a character-string's limit), cut between
 *   characters; `"` and `\` escaped; control, format and separator characters as `\DDD` per byte.
 * - `auto` records (the registrar's own) are written, marked: they are part of the zone as served.
 * - ALIAS is no standard RR type (nameservers serve it as its target's A and AAAA), so it is written
 *   as a comment line: the file still loads, and a reader still sees it. An inactive record (not
 *   served) and a record whose data no master file can hold are commented out the same way.
 * - IDN owners are written as A-labels with their Unicode form in a comment.
 * The comments' words are the caller's (from the text catalog); the defaults are bare tags.
 */
export interface ZoneToExport {
  /** The zone's name: `example.com` or `example.com.`. */
  readonly origin: string;
  readonly soa?: DnsZone['soa'];
  /** The apex NS set (the zone's delegation nameservers). */
  readonly nameservers: readonly string[];
  readonly records: readonly DnsRecord[];
}

export interface ZoneFileComments {
  readonly auto: string;
  readonly alias: string;
  readonly inactive: string;
  readonly unwritable: string;
}

const TAGS: ZoneFileComments = {
  auto: 'auto',
  alias: 'alias',
  inactive: 'inactive',
  unwritable: 'unwritable',
};

/** SOA timers when the registrar shows none: RIPE-203's recommendations, and a five-minute negative TTL. */
const SOA_DEFAULTS = { serial: 1, refresh: 86_400, retry: 7200, expire: 3_600_000, minimum: 300 };
const DEFAULT_TTL = 3600;

interface Line {
  readonly owner: string;
  readonly type: string;
  readonly priority: number;
  readonly data: string;
  readonly ttl?: number;
  /** RDATA tokens as written. */
  readonly rdata: readonly string[];
  /** Why the record is a comment, when it is one. */
  readonly commented?: keyof ZoneFileComments;
  readonly auto: boolean;
}

/** A host as record data (`mail.example.` or `mail.example`) written absolute, or undefined. */
function host(data: string, rootAllowed: boolean): string | undefined {
  const name = registrarName(data);
  if (name === '.') return rootAllowed ? '.' : undefined;
  return name.slice(0, -1).split('.').every(validLabel) ? writtenName(name) : undefined;
}

/** Priority and data of MX and SRV: their own priority, or one written in front of the data. */
function withPriority(record: DnsRecord, fields: number): { priority: number; rest: string[] } | undefined {
  const parts = (record.data ?? '').trim().split(/\s+/);
  if (parts.length === fields + 1 && record.priority === undefined && /^\d+$/.test(parts[0] ?? ''))
    return { priority: Number(parts[0]), rest: parts.slice(1) };
  // The registrar's MX and SRV carry a priority; one without reads as 0, the most preferred.
  return parts.length === fields ? { priority: record.priority ?? 0, rest: parts } : undefined;
}

const number = (value: string | undefined, max: number) =>
  value !== undefined && /^\d+$/.test(value) && Number(value) <= max;

/** The record's RDATA as master-file tokens, and its priority; undefined when no master file can hold it. */
function rdataOf(type: string, record: DnsRecord): { rdata: string[]; priority: number } | undefined {
  const data = record.data ?? '';
  switch (type) {
    case 'A':
      return isIPv4(data.trim()) ? { rdata: [data.trim()], priority: 0 } : undefined;
    case 'AAAA': {
      const address = canonicalIpv6(data.trim());
      return address === undefined ? undefined : { rdata: [address], priority: 0 };
    }
    case 'CNAME':
    case 'NS':
    case 'ALIAS': {
      const target = host(data, false);
      return target === undefined ? undefined : { rdata: [target], priority: 0 };
    }
    case 'MX': {
      const split = withPriority(record, 1);
      const exchange = host(split?.rest[0] ?? '', true);
      if (split === undefined || exchange === undefined || !number(String(split.priority), 65_535))
        return undefined;
      return { rdata: [String(split.priority), exchange], priority: split.priority };
    }
    case 'SRV': {
      const split = withPriority(record, 3);
      const [weight, port, name = ''] = split?.rest ?? [];
      const target = host(name, true);
      if (split === undefined || target === undefined) return undefined;
      if (![String(split.priority), weight, port].every((value) => number(value, 65_535))) return undefined;
      return { rdata: [String(split.priority), `${weight}`, `${port}`, target], priority: split.priority };
    }
    case 'CAA': {
      const parts = /^(\d+)\s+([A-Za-z0-9]+)\s+(?:"(.*)"|(\S.*))$/s.exec(data.trim());
      if (parts === null || !number(parts[1], 255)) return undefined;
      const value = parts[3] ?? parts[4] ?? '';
      const quoted = [...value].map(quotedChar).join('');
      return {
        rdata: [String(Number(parts[1])), (parts[2] ?? '').toLowerCase(), `"${quoted}"`],
        priority: 0,
      };
    }
    case 'TXT':
      return { rdata: txtStrings(data), priority: 0 };
    default:
      return undefined;
  }
}

/** An owner Regdesk can hold: host-like labels, a wildcard first (anything else would fail check-names). */
const validOwner = (name: string): boolean =>
  name !== '.' &&
  name
    .slice(0, -1)
    .split('.')
    .every((label, index) => validLabel(label) || (index === 0 && label === '*'));

function lineOf(record: DnsRecord): Line {
  const type = record.type.toUpperCase();
  const owner = registrarName(record.name);
  const rdata = isRecordType(type) && validOwner(owner) ? rdataOf(type, record) : undefined;
  const commented =
    rdata === undefined
      ? 'unwritable'
      : type === 'ALIAS'
        ? 'alias'
        : record.active === false
          ? 'inactive'
          : undefined;
  return {
    owner,
    type,
    priority: rdata?.priority ?? 0,
    data: record.data ?? '',
    rdata: rdata?.rdata ?? [(record.data ?? '').replace(/\s+/g, ' ')],
    auto: record.auto === true,
    ...(record.ttl === undefined ? {} : { ttl: record.ttl }),
    ...(commented === undefined ? {} : { commented }),
  };
}

/** DNS order of names (RFC 4034 §6.1): label by label from the right, a parent before its children. */
function compareNames(a: string, b: string): number {
  const left = a.split('.').reverse();
  const right = b.split('.').reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const [x = '', y = ''] = [left[i], right[i]];
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

const compareLines = (a: Line, b: Line): number =>
  compareNames(a.owner, b.owner) ||
  (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
  a.priority - b.priority ||
  (a.data < b.data ? -1 : a.data > b.data ? 1 : 0) ||
  (a.ttl ?? -1) - (b.ttl ?? -1);

function written(line: Line, origin: string, comments: ZoneFileComments): string {
  const head = [
    writtenOwner(line.owner, origin),
    ...(line.ttl === undefined ? [] : [String(line.ttl)]),
    'IN',
  ];
  const notes = [
    unicodeName(line.owner),
    line.auto ? comments.auto : undefined,
    line.commented === undefined ? undefined : comments[line.commented],
  ].filter((note) => note !== undefined);
  // A comment ends at the line's end: a line break in it (a registrar's odd data, a catalog's words)
  // would turn the rest into zone data.
  const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');
  const tail = notes.length === 0 ? '' : `\t; ${oneLine(notes.join(', '))}`;
  if (line.commented !== undefined)
    return `; ${oneLine([...head, line.type, ...line.rdata].join(' '))}${tail}`;
  // A TXT of several strings: one string a line, in parentheses (RFC 1035 §5.1), to stay readable.
  const rdata =
    line.rdata.length > 1 && line.type === 'TXT'
      ? `( ${line.rdata.join('\n\t\t\t\t')} )`
      : line.rdata.join(' ');
  return `${[...head, line.type, rdata].join('\t')}${tail}`;
}

/** An SOA mailbox: `hostmaster.example.com.`, or an address `hostmaster@example.com` (its dots escaped). */
function mailbox(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 0) return writtenName(registrarName(value));
  return `${writtenLabel(value.slice(0, at))}.${writtenName(registrarName(value.slice(at + 1)))}`;
}

export function serializeZone(zone: ZoneToExport, comments: Partial<ZoneFileComments> = {}): string {
  const words = { ...TAGS, ...comments };
  const origin = registrarName(zone.origin);
  const soa = zone.soa ?? {};
  const zoneTtl = soa.ttl ?? DEFAULT_TTL;

  // The apex NS set: the delegation, and NS records at the apex (kept with their TTL and mark).
  const isApexNs = (record: DnsRecord) =>
    record.type.toUpperCase() === 'NS' && registrarName(record.name) === origin && record.active !== false;
  const apexRecords = zone.records.filter(isApexNs).map(lineOf);
  const nameservers = [...new Set(zone.nameservers.map(registrarName))].filter(
    (ns) => !apexRecords.some((line) => line.rdata[0] === writtenName(ns)),
  );
  const apex = [
    ...apexRecords,
    ...nameservers.map((ns) => lineOf({ name: origin, type: 'NS', data: ns })),
  ].toSorted(compareLines);
  const firstNs = apex.find((line) => line.commented === undefined)?.data;
  const primary = soa.primary_nameserver ?? firstNs ?? `ns1.${origin}`;
  const serial = soa.serial ?? SOA_DEFAULTS.serial;
  const timers = [
    soa.refresh ?? SOA_DEFAULTS.refresh,
    soa.retry ?? SOA_DEFAULTS.retry,
    soa.expire ?? SOA_DEFAULTS.expire,
    soa.minimum ?? SOA_DEFAULTS.minimum,
  ];
  const soaLine = [
    '@',
    String(zoneTtl),
    'IN',
    'SOA',
    writtenName(registrarName(primary)),
    mailbox(soa.mailbox ?? `hostmaster.${origin}`),
    String(serial),
    ...timers.map(String),
  ].join('\t');

  const body = zone.records
    .filter((record) => !isApexNs(record))
    .map(lineOf)
    .toSorted(compareLines);
  const ownerWithin = (line: Line) => withinOrigin(line.owner, origin);
  return [
    `$ORIGIN ${writtenName(origin)}`,
    `$TTL ${zoneTtl}`,
    soaLine,
    ...apex.map((line) => written(line, origin, words)),
    '',
    ...body.filter(ownerWithin).map((line) => written(line, origin, words)),
    // Records of other zones cannot load here (named-checkzone ignores out-of-zone data): commented.
    ...body
      .filter((line) => !ownerWithin(line))
      .map((line) => written({ ...line, commented: 'unwritable' }, origin, words)),
    '',
  ].join('\n');
}
