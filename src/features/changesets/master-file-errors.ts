/**
 * What can be wrong in a master file, as coded outcomes: each names its line and the part at fault,
 * and the text catalog words it (a modal's field error: one short sentence per code). No English here.
 */
export type MasterFileError =
  /** A `"` that is not closed before the end of its line. */
  | { readonly line: number; readonly code: 'unterminated_quote' }
  /** A `)` with no `(`, a `(` inside another, or a `(` never closed (the line of the `(`). */
  | { readonly line: number; readonly code: 'unbalanced_paren' }
  /** A `\` at the end of the text, or `\DDD` above 255 (RFC 1035 §5.1). */
  | { readonly line: number; readonly code: 'bad_escape'; readonly value: string }
  /** `$INCLUDE` would read another file: refused. */
  | { readonly line: number; readonly code: 'include_refused' }
  /** A `$` directive other than `$ORIGIN`, `$TTL` (and `$INCLUDE`), e.g. BIND's `$GENERATE`. */
  | { readonly line: number; readonly code: 'unknown_directive'; readonly directive: string }
  /** `$ORIGIN` or `$TTL` without its one argument, or with more. */
  | { readonly line: number; readonly code: 'bad_directive'; readonly directive: string }
  /** A record whose line starts blank (same owner as before) with no record before it. */
  | { readonly line: number; readonly code: 'no_owner' }
  /** A domain name that is not one (empty label, a character no host name has, too long). */
  | { readonly line: number; readonly code: 'bad_name'; readonly name: string }
  /** An owner name that is not the zone's origin nor below it. */
  | { readonly line: number; readonly code: 'outside_origin'; readonly name: string; readonly origin: string }
  /** A TTL that is not a number of seconds (or BIND's `1h30m`) within 0 … 2^31 − 1 (RFC 2181 §8). */
  | { readonly line: number; readonly code: 'bad_ttl'; readonly value: string }
  /** A class other than IN. */
  | { readonly line: number; readonly code: 'bad_class'; readonly value: string }
  /** A record line that ends before its type. */
  | { readonly line: number; readonly code: 'missing_type' }
  /** A type Regdesk does not write (HINFO, PTR, TYPE65 …). */
  | { readonly line: number; readonly code: 'unknown_type'; readonly type: string }
  /** RDATA with too few or too many fields for its type (`expected`: how many it takes; TXT: 1 or more). */
  | { readonly line: number; readonly code: 'bad_rdata'; readonly type: string; readonly expected: number }
  /** An A that is no IPv4 address, an AAAA that is no IPv6 address. */
  | { readonly line: number; readonly code: 'bad_address'; readonly type: string; readonly value: string }
  /** A preference, priority, weight, port or CAA flags value out of its range. */
  | {
      readonly line: number;
      readonly code: 'bad_number';
      readonly type: string;
      readonly value: string;
      readonly max: number;
    }
  /** A target host name (CNAME, MX, NS, SRV, ALIAS) that is not one. */
  | { readonly line: number; readonly code: 'bad_target'; readonly type: string; readonly value: string }
  /** A CAA tag that is not letters and digits, or a value Regdesk's `flags tag "value"` cannot hold. */
  | { readonly line: number; readonly code: 'bad_caa'; readonly value: string }
  /** TXT bytes (from `\DDD`) that are not UTF-8 text. */
  | { readonly line: number; readonly code: 'bad_text' }
  /** More errors than are worth listing; the first ones are listed. */
  | { readonly line: number; readonly code: 'too_many_errors'; readonly max: number };

export type MasterFileErrorCode = MasterFileError['code'];

/** Every code, for the catalog's tests (the `satisfies` keeps it in step with the union). */
export const MASTER_FILE_ERROR_CODES = [
  'unterminated_quote',
  'unbalanced_paren',
  'bad_escape',
  'include_refused',
  'unknown_directive',
  'bad_directive',
  'no_owner',
  'bad_name',
  'outside_origin',
  'bad_ttl',
  'bad_class',
  'missing_type',
  'unknown_type',
  'bad_rdata',
  'bad_address',
  'bad_number',
  'bad_target',
  'bad_caa',
  'bad_text',
  'too_many_errors',
] as const satisfies readonly MasterFileErrorCode[];

/** Something accepted but not imported: the SOA, which the registrar keeps (an export re-imports). */
export type MasterFileNote = { readonly line: number; readonly code: 'soa_ignored' };
