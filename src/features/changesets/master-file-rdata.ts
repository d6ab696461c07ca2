import { isIPv4 } from 'node:net';
import { canonicalIpv6, type RecordType } from '../records/record-data.js';
import type { MasterFileError } from './master-file-errors.js';
import { absoluteName } from './master-file-names.js';
import { decodeBytes, type Token, utf8 } from './master-file-tokens.js';

/**
 * RDATA in presentation form (RFC 1035 §3.3 and §5.1, RFC 3596 for AAAA, RFC 2782 for SRV, RFC 8659
 * §4.1.1 for CAA) → Regdesk's data per type (features/records/record-data.ts): MX and SRV lose their
 * priority to a field of its own; TXT is its strings joined; CAA is `flags tag "value"`; targets are
 * FQDNs. Only the form is checked here; the rules of single record changes are the importer's to apply.
 */
export type Rdata =
  | { readonly data: string; readonly priority?: number }
  | { readonly error: MasterFileError };

const U16 = 65_535;
const U8 = 255;

/** What each type takes, in fields (TXT: one string or more). */
const FIELDS: Record<RecordType, number> = {
  A: 1,
  AAAA: 1,
  CNAME: 1,
  NS: 1,
  ALIAS: 1,
  MX: 2,
  SRV: 4,
  CAA: 3,
  TXT: 1,
};

// C0 controls and DEL cannot sit in Regdesk's quoted CAA value.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A token's text: its bytes as UTF-8, or undefined when they are not UTF-8 or hold a bad escape. */
function tokenText(token: Token): string | undefined {
  const decoded = decodeBytes(token.raw);
  return 'bytes' in decoded ? utf8(decoded.bytes) : undefined;
}

export function parseRdata(type: RecordType, tokens: readonly Token[], origin: string, line: number): Rdata {
  const expected = FIELDS[type];
  if (type === 'TXT' ? tokens.length === 0 : tokens.length !== expected)
    return { error: { line, code: 'bad_rdata', type, expected } };
  const number = (token: Token, max: number): number | MasterFileError =>
    !token.quoted && /^\d{1,10}$/.test(token.raw) && Number(token.raw) <= max
      ? Number(token.raw)
      : { line: token.line, code: 'bad_number', type, value: token.raw, max };
  // "." is allowed where RFC 7505 (null MX) and RFC 2782 (no such service) give it a meaning.
  const target = (token: Token, rootAllowed = false): string | MasterFileError => {
    const name = token.quoted ? undefined : absoluteName(token.raw, origin);
    return name === undefined || (name === '.' && !rootAllowed)
      ? { line: token.line, code: 'bad_target', type, value: token.raw }
      : name;
  };
  const [first, second, third, fourth] = tokens as [Token, Token, Token, Token];

  switch (type) {
    case 'A':
      return isIPv4(first.raw)
        ? { data: first.raw }
        : { error: { line: first.line, code: 'bad_address', type, value: first.raw } };
    case 'AAAA': {
      const address = canonicalIpv6(first.raw);
      return address === undefined
        ? { error: { line: first.line, code: 'bad_address', type, value: first.raw } }
        : { data: address };
    }
    case 'CNAME':
    case 'NS':
    case 'ALIAS': {
      const host = target(first);
      return typeof host === 'string' ? { data: host } : { error: host };
    }
    case 'MX': {
      const preference = number(first, U16);
      const exchange = target(second, true);
      if (typeof preference !== 'number') return { error: preference };
      return typeof exchange === 'string' ? { data: exchange, priority: preference } : { error: exchange };
    }
    case 'SRV': {
      const fields = [number(first, U16), number(second, U16), number(third, U16), target(fourth, true)];
      const wrong = fields.find((field): field is MasterFileError => typeof field === 'object');
      if (wrong !== undefined) return { error: wrong };
      const [priority, weight, port, host] = fields as [number, number, number, string];
      return { data: `${weight} ${port} ${host}`, priority };
    }
    case 'CAA': {
      const flags = number(first, U8);
      if (typeof flags !== 'number') return { error: flags };
      // Tags are letters and digits, matched without regard to case (RFC 8659 §4.1.1).
      const value = tokenText(third);
      if (second.quoted || !/^[A-Za-z0-9]{1,15}$/.test(second.raw))
        return { error: { line: second.line, code: 'bad_caa', value: second.raw } };
      if (value === undefined || value.includes('"') || CONTROL.test(value))
        return { error: { line: third.line, code: 'bad_caa', value: third.raw } };
      return { data: `${flags} ${second.raw.toLowerCase()} "${value}"` };
    }
    case 'TXT': {
      // Several strings are one record: their bytes joined (RFC 7208 §3.3 reads SPF so, DKIM keys come
      // split so). A string over 255 bytes is taken as well: Regdesk holds the joined text, and the
      // registrar cuts it into strings when it serves it.
      const parts: Buffer[] = [];
      for (const token of tokens) {
        const decoded = decodeBytes(token.raw);
        if (!('bytes' in decoded))
          return { error: { line: token.line, code: 'bad_escape', value: decoded.badEscape } };
        parts.push(decoded.bytes);
      }
      const text = utf8(Buffer.concat(parts));
      return text === undefined ? { error: { line, code: 'bad_text' } } : { data: text };
    }
  }
}
