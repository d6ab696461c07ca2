import { domainToASCII, domainToUnicode } from 'node:url';
import { asciiLabels, validLabel } from '../records/record-data.js';
import { decodeBytes, utf8 } from './master-file-tokens.js';

/**
 * Domain names in master files (RFC 1035 §5.1): `@` is the origin; a name without a final dot is
 * relative to it; `\.` is a dot inside a label and `\DDD` a byte. Regdesk's names are host-like
 * (letters, digits, hyphens, underscores; a leading `*` label for a wildcard owner), lower case, with
 * internationalised labels as A-labels and a trailing dot — the registrar's FQDN form.
 */

/** A name in wire form is at most 255 octets (RFC 1035 §3.1): 253 characters and the final dot. */
const MAX_NAME = 254;

/** Splits a token at its unescaped dots; undefined for an empty label (`a..b`, `.a`). */
function splitLabels(raw: string): { labels: string[]; absolute: boolean } | undefined {
  if (raw === '.') return { labels: [], absolute: true };
  const labels: string[] = [];
  let label = '';
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] ?? '';
    if (char === '\\') {
      const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4))?.[0];
      const length = digits === undefined ? String.fromCodePoint(raw.codePointAt(i + 1) ?? 0).length : 3;
      label += raw.slice(i, i + 1 + length);
      i += length;
    } else if (char === '.') {
      if (label === '') return undefined;
      labels.push(label);
      label = '';
    } else {
      label += char;
    }
  }
  const absolute = label === '';
  if (!absolute) labels.push(label);
  return labels.length === 0 ? undefined : { labels, absolute };
}

/** One label as Regdesk holds it: escapes decoded, lower case, an internationalised label as its A-label. */
function asciiLabel(raw: string): string | undefined {
  const decoded = decodeBytes(raw);
  let label = 'bytes' in decoded ? utf8(decoded.bytes)?.toLowerCase() : undefined;
  if (label === undefined) return undefined;
  // Only a label of letters, marks and digits is converted (the care of records/record-data.ts):
  // domainToASCII parses a URL host and would cut `ü/x` to `ü`. It answers '' when it cannot.
  if (/[^\p{ASCII}]/u.test(label) && /^[\p{L}\p{M}\p{N}_-]+$/u.test(label)) label = domainToASCII(label);
  return label === '' ? undefined : label;
}

/**
 * A name as written in a master file → its FQDN (lower case, A-labels, trailing dot), or undefined when
 * it is no name Regdesk can hold. `.` (the root) is returned as `.`; `wildcard` allows `*` as the
 * first label (owners only).
 */
export function absoluteName(raw: string, origin: string, wildcard = false): string | undefined {
  if (raw === '@') return origin;
  const split = splitLabels(raw);
  if (split === undefined) return undefined;
  if (split.absolute && split.labels.length === 0) return '.';
  const labels: string[] = [];
  for (const [index, rawLabel] of split.labels.entries()) {
    const label = asciiLabel(rawLabel);
    if (label === undefined) return undefined;
    if (!(validLabel(label) || (wildcard && index === 0 && label === '*'))) return undefined;
    labels.push(label);
  }
  const name = `${labels.join('.')}.${split.absolute ? '' : origin}`;
  return name.length > MAX_NAME ? undefined : name;
}

/** An origin given by the caller (`example.com`, `Bücher.example.`) in Regdesk's FQDN form. */
export function normalOrigin(origin: string): string {
  const name = absoluteName(origin.trim().replace(/\.?$/, '.'), '.');
  if (name === undefined || name === '.') throw new TypeError(`not a zone origin: ${origin}`);
  return name;
}

/** Whether an FQDN is the origin or below it. */
export const withinOrigin = (name: string, origin: string): boolean =>
  name === origin || name.endsWith(`.${origin}`);

/** A registrar name (maybe without its dot, maybe in Unicode) in Regdesk's FQDN form, unchecked. */
export function registrarName(name: string): string {
  const bare = name.trim().replace(/\.$/, '');
  return bare === '' ? '.' : `${asciiLabels(bare).join('.')}.`;
}

/**
 * A label as master-file text: letters, digits, `-`, `_` and `*` as they are, anything else as
 * `\DDD` per byte (a dot, a blank, a `;` or a quote in a label must never end or cut the name).
 */
export const writtenLabel = (label: string): string =>
  [...label]
    .map((char) =>
      /^[A-Za-z0-9_*-]$/.test(char)
        ? char
        : [...Buffer.from(char, 'utf8')].map((byte) => `\\${String(byte).padStart(3, '0')}`).join(''),
    )
    .join('');

/** An FQDN as master-file text, absolute. */
export const writtenName = (name: string): string =>
  name === '.' ? '.' : `${name.replace(/\.$/, '').split('.').map(writtenLabel).join('.')}.`;

/** An owner as master-file text: `@` for the origin, relative below it (shorter), else absolute. */
export function writtenOwner(name: string, origin: string): string {
  if (name === origin) return '@';
  if (!name.endsWith(`.${origin}`)) return writtenName(name);
  return name
    .slice(0, -origin.length - 1)
    .split('.')
    .map(writtenLabel)
    .join('.');
}

/** The Unicode form of a name with A-labels (`xn--bcher-kva.example.` → `bücher.example`), else undefined. */
export function unicodeName(name: string): string | undefined {
  const labels = name.replace(/\.$/, '').split('.');
  if (!labels.some((label) => label.startsWith('xn--'))) return undefined;
  return labels
    .map((label) => (label.startsWith('xn--') ? domainToUnicode(label) || label : label))
    .join('.');
}
