import { isRecordType, type RecordType } from '../records/record-data.js';
import type { MasterFileError, MasterFileNote } from './master-file-errors.js';
import { absoluteName, normalOrigin, withinOrigin } from './master-file-names.js';
import { parseRdata } from './master-file-rdata.js';
import { type Entry, type Token, tokenize } from './master-file-tokens.js';

/**
 * Reads an RFC 1035 §5.1 master file (a whole zone or a fragment) into Regdesk's records.
 *
 * Our own parser, not a package: the npm candidates checked in 2026-11 (`dns-zonefile` 0.3.2,
 * `zone-file` 1.0.0, its older fork) cut lines with regular expressions: a `)` or `;` inside quotes
 * breaks them, `\"` and `\DDD` are not understood, relative names are left relative, a record of an
 * unknown type is dropped without a word, and no error names a line. An import must say exactly which
 * line is wrong, so the lexer (master-file-tokens.ts) and this reader follow the RFC instead.
 *
 * - `$ORIGIN` (relative to the current origin) and `$TTL` (RFC 2308 §4) are read; `$INCLUDE` is
 *   refused: the text is all there is.
 * - Owners: `@`, relative, absolute, or blank for the previous owner; each must be the zone's origin
 *   or below it. Unicode labels become A-labels.
 * - TTL and class (`IN` only) are optional and come in either order. A record without a TTL takes
 *   `$TTL`, else the last TTL written (RFC 1035 §5.1), else `options.defaultTtl`, else none (the
 *   registrar's default).
 * - Types: DNS_RECORD_TYPES; an SOA is accepted and left out with a note (the registrar keeps its
 *   own), so an exported zone re-imports as it is. Apex NS records are returned like any other: the
 *   importer is the one to leave the apex NS set alone, as it leaves `auto` records.
 */
export interface ParsedRecord {
  /** The line the record starts on. */
  readonly line: number;
  /** FQDN: lower case, A-labels, trailing dot. */
  readonly name: string;
  readonly type: RecordType;
  /** Regdesk's data for the type (features/records/record-data.ts). */
  readonly data: string;
  readonly ttl?: number;
  /** MX preference, SRV priority. */
  readonly priority?: number;
}

export type MasterFileResult =
  | { readonly ok: true; readonly records: ParsedRecord[]; readonly notes: MasterFileNote[] }
  | { readonly ok: false; readonly errors: MasterFileError[] };

/** More errors than a modal can show usefully: the first ones, then `too_many_errors`. */
export const MAX_ERRORS = 20;

/** RFC 2181 §8: a TTL is 0 … 2^31 − 1. */
const MAX_TTL = 2_147_483_647;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'NONE', 'ANY', 'CLASS1']);

/** Seconds, written plain (RFC 1035) or in BIND's units (`1h30m`, `1W`): a TTL token, or undefined. */
function ttlValue(raw: string): number | 'too_large' | undefined {
  let seconds: number;
  if (/^\d+$/.test(raw)) seconds = Number(raw);
  else if (/^(?:\d+[smhdw])+$/i.test(raw))
    seconds = [...raw.matchAll(/(\d+)([smhdw])/gi)].reduce(
      (sum, [, count = '0', unit = 's']) => sum + Number(count) * (UNIT_SECONDS[unit.toLowerCase()] ?? 1),
      0,
    );
  else return undefined;
  return seconds > MAX_TTL ? 'too_large' : seconds;
}

interface State {
  readonly zone: string;
  origin: string;
  /** From `$TTL`. */
  zoneTtl?: number;
  /** The last TTL a record wrote. */
  lastTtl?: number;
  /** The previous owner; null after an owner that did not read (its followers are skipped). */
  owner?: string | null;
}

function directive(entry: Entry, state: State): MasterFileError | undefined {
  const [head, ...args] = entry.tokens as [Token, ...Token[]];
  const name = head.raw.toUpperCase();
  const line = entry.line;
  if (name === '$INCLUDE') return { line, code: 'include_refused' };
  if (name !== '$ORIGIN' && name !== '$TTL') return { line, code: 'unknown_directive', directive: head.raw };
  const [arg] = args;
  if (arg === undefined || args.length > 1) return { line, code: 'bad_directive', directive: head.raw };
  if (name === '$ORIGIN') {
    const origin = arg.quoted ? undefined : absoluteName(arg.raw, state.origin);
    if (origin === undefined || origin === '.') return { line, code: 'bad_name', name: arg.raw };
    state.origin = origin;
    return undefined;
  }
  const ttl = arg.quoted ? undefined : ttlValue(arg.raw);
  if (typeof ttl !== 'number') return { line, code: 'bad_ttl', value: arg.raw };
  state.zoneTtl = ttl;
  return undefined;
}

type Read = { record: ParsedRecord } | { note: MasterFileNote } | { error: MasterFileError } | 'skip';

function record(entry: Entry, state: State, defaultTtl: number | undefined): Read {
  const line = entry.line;
  let fields: readonly Token[] = entry.tokens;
  let owner: string;
  if (entry.blankOwner) {
    if (state.owner === null) return 'skip';
    if (state.owner === undefined) return { error: { line, code: 'no_owner' } };
    owner = state.owner;
  } else {
    const [head, ...rest] = entry.tokens as [Token, ...Token[]];
    const name = head.quoted ? undefined : absoluteName(head.raw, state.origin, true);
    state.owner = name ?? null;
    if (name === undefined) return { error: { line, code: 'bad_name', name: head.raw } };
    owner = name;
    fields = rest;
  }
  if (!withinOrigin(owner, state.zone))
    return { error: { line, code: 'outside_origin', name: owner, origin: state.zone } };

  // [TTL] [class] or [class] [TTL], then the type (RFC 1035 §5.1).
  let ttl: number | undefined;
  let klass: string | undefined;
  let index = 0;
  for (const field of fields.slice(0, 2)) {
    if (field.quoted) break;
    const value = ttl === undefined ? ttlValue(field.raw) : undefined;
    if (value === 'too_large') return { error: { line: field.line, code: 'bad_ttl', value: field.raw } };
    if (value !== undefined) ttl = value;
    else if (klass === undefined && CLASSES.has(field.raw.toUpperCase())) klass = field.raw.toUpperCase();
    else break;
    index += 1;
  }
  if (klass !== undefined && klass !== 'IN' && klass !== 'CLASS1')
    return { error: { line, code: 'bad_class', value: klass } };
  const typeToken = fields[index];
  if (typeToken === undefined) return { error: { line, code: 'missing_type' } };
  if (ttl !== undefined) state.lastTtl = ttl;
  const type = typeToken.raw.toUpperCase();
  if (type === 'SOA' && !typeToken.quoted) return { note: { line, code: 'soa_ignored' } };
  if (typeToken.quoted || !isRecordType(type))
    return { error: { line: typeToken.line, code: 'unknown_type', type: typeToken.raw } };

  const rdata = parseRdata(type, fields.slice(index + 1), state.origin, typeToken.line);
  if ('error' in rdata) return { error: rdata.error };
  const effectiveTtl = ttl ?? state.zoneTtl ?? state.lastTtl ?? defaultTtl;
  return {
    record: {
      line,
      name: owner,
      type,
      data: rdata.data,
      ...(effectiveTtl === undefined ? {} : { ttl: effectiveTtl }),
      ...(rdata.priority === undefined ? {} : { priority: rdata.priority }),
    },
  };
}

/** A quoted part of the text is cut to MAX_QUOTED characters, so a sentence around it stays short. */
export const MAX_QUOTED = 40;
const shortened = (error: MasterFileError): MasterFileError =>
  Object.fromEntries(
    Object.entries(error).map(([key, value]) => [
      key,
      key !== 'code' && typeof value === 'string' && [...value].length > MAX_QUOTED
        ? `${[...value].slice(0, MAX_QUOTED - 1).join('')}…`
        : value,
    ]),
  ) as MasterFileError;

/**
 * Parses `text` for the zone `origin` (`example.com` or `example.com.`). Every error is collected
 * (up to MAX_ERRORS), sorted by line; one error anywhere means no records.
 */
export function parseMasterFile(
  text: string,
  origin: string,
  options: { readonly defaultTtl?: number } = {},
): MasterFileResult {
  const zone = normalOrigin(origin);
  const state: State = { zone, origin: zone };
  const { entries, errors } = tokenize(text);
  const records: ParsedRecord[] = [];
  const notes: MasterFileNote[] = [];
  for (const entry of entries) {
    const [head] = entry.tokens;
    if (!entry.blankOwner && head !== undefined && !head.quoted && head.raw.startsWith('$')) {
      const error = directive(entry, state);
      if (error !== undefined) errors.push(error);
      continue;
    }
    const read = record(entry, state, options.defaultTtl);
    if (read === 'skip') continue;
    if ('record' in read) records.push(read.record);
    else if ('note' in read) notes.push(read.note);
    else errors.push(read.error);
  }
  if (errors.length === 0) return { ok: true, records, notes };
  const sorted = errors.toSorted((a, b) => a.line - b.line).map(shortened);
  if (sorted.length <= MAX_ERRORS) return { ok: false, errors: sorted };
  const next = sorted[MAX_ERRORS] ?? sorted[0];
  return {
    ok: false,
    errors: [
      ...sorted.slice(0, MAX_ERRORS),
      { line: next?.line ?? 0, code: 'too_many_errors', max: MAX_ERRORS },
    ],
  };
}
