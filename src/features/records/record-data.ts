import { isIP, isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { CAA_TAGS } from '../../dns/caa-tags.js';
import type { DnsRecord as WireAnswer } from '../../dns/client.js';
import { DNS_RECORD_TYPES } from '../../registrar/index.js';
import { invisiblesIn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';

/**
 * Record data per type. The registrar's data formats are "not shown" in its spec (docs/registrar-api.md
 * §10), so the forms below are Regdesk's choices, which the sandbox takes too (src/sandbox/records.ts):
 * - TXT: the plain text, without quotes (recorded exchanges show `"data": "challengetoken"`);
 * - MX: the exchange host; SRV: `weight port target` — their priority is the record's own `priority`;
 * - CAA: `flags tag "value"`, e.g. `0 issue "letsencrypt.org"`;
 * - CNAME, ALIAS, NS and MX targets: host names, lower case, with a trailing dot.
 */
export type RecordType = (typeof DNS_RECORD_TYPES)[number];

const RECORD_TYPES: ReadonlySet<string> = new Set(DNS_RECORD_TYPES);
export const isRecordType = (type: string): type is RecordType => RECORD_TYPES.has(type);

/** MX and SRV carry a priority beside their data (spec addendum §2). */
export const hasPriority = (type: string): boolean => type === 'MX' || type === 'SRV';

/** Our choice: Slack's plain-text input holds 3,000 characters, and a card stays readable at 2,000. */
export const MAX_TXT = 2000;
export { CAA_TAGS } from '../../dns/caa-tags.js';

/** A label: letters, digits, hyphens, and underscores (`_dmarc`, `_acme-challenge`), 1–63 long (RFC 2181 §11). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
export const validLabel = (label: string): boolean => LABEL.test(label);
// C0 controls and DEL: a TXT typed in Slack never needs them, and a pasted one is a mistake.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A name's labels in ASCII, lower case: an internationalised label becomes punycode. Only a label of
 * letters, marks and digits is converted: `domainToASCII` parses a URL host and would cut `ü/x` to `ü`
 * (the same care as the registrar client's `RecordName`), so anything else stays and fails `validLabel`.
 */
export function asciiLabels(name: string): string[] {
  return name
    .toLowerCase()
    .split('.')
    .map((label) =>
      /[^\p{ASCII}]/u.test(label) && /^[\p{L}\p{M}\p{N}_-]+$/u.test(label) ? domainToASCII(label) : label,
    );
}

/**
 * A host name as record data → lower case with a trailing dot, or undefined. Two labels at least: a
 * bare `mail` is ambiguous (relative to which zone?), so the full name is asked for. A last label of
 * digits is no top-level domain (RFC 3696 §2): `192.0.2` is a typo of an address, not a host.
 */
export function hostName(typed: string): string | undefined {
  const bare = typed.trim().replace(/\.$/, '');
  if (bare === '' || isIP(bare) !== 0) return undefined;
  const labels = asciiLabels(bare);
  const ascii = labels.join('.');
  if (labels.length < 2 || ascii.length > 253 || !labels.every(validLabel)) return undefined;
  if (/^\d+$/.test(labels.at(-1) ?? '')) return undefined;
  return `${ascii}.`;
}

/**
 * One form of an IPv6 address for both sides of a comparison: the WHATWG URL serialiser's (RFC 5952 §4:
 * lower case, the first longest run of two or more zero groups compressed, no leading zeros; an embedded
 * IPv4 written in hex). Answers need it too: dns-packet compresses the first run of zeros, not the
 * longest (`2001:0:0:1:0:0:0:1` → `2001::1:0:0:0:1`), so its strings are not canonical.
 */
export function canonicalIpv6(address: string): string | undefined {
  // A zone index (`fe80::1%eth0`) is local to one machine: never record data.
  if (!isIPv6(address) || address.includes('%')) return undefined;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * The text of a TXT as typed: one pair of surrounding double quotes is stripped, and so is a zone-file
 * sequence of quoted strings (`"v=DKIM1; " "p=MIIB…"`, as DKIM keys are handed out), joined, with
 * `\"` and `\\` unescaped. Anything else is the text itself.
 */
function unquoteText(typed: string): string {
  const trimmed = typed.trim();
  const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
  if (!/^"(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*$/s.test(trimmed)) return trimmed;
  return [...trimmed.matchAll(QUOTED)].map((match) => (match[1] ?? '').replace(/\\(.)/gs, '$1')).join('');
}

type Parsed = { data: string } | { error: string };
/** The record rules' sentences, in the language of the moment. */
const say = () => text.recordRules;

function parseHost(type: RecordType, typed: string): Parsed {
  const value = typed.trim();
  const host = hostName(value);
  if (host !== undefined) return { data: host };
  if (isIP(value.replace(/^\[|\]$/g, '')) !== 0) return { error: say().ipNotHost({ value, type }) };
  return { error: say().notHost({ value }) };
}

function parseSrv(typed: string): Parsed {
  const value = typed.trim();
  const parts = /^(\d+)\s+(\d+)\s+(\S+)$/.exec(value);
  if (parts === null) return { error: say().srvFormat({ value }) };
  const [, weight = '', port = '', target = ''] = parts;
  if (Number(weight) > 65_535) return { error: say().srvWeight({ value: weight }) };
  if (Number(port) > 65_535) return { error: say().srvPort({ value: port }) };
  // "." says "no such service here" (RFC 2782).
  const host = target === '.' ? { data: '.' } : parseHost('SRV', target);
  return 'error' in host ? host : { data: `${Number(weight)} ${Number(port)} ${host.data}` };
}

function parseCaa(typed: string): Parsed {
  const value = typed.trim();
  const parts = /^(\d+)\s+(\S+)\s+(.*)$/s.exec(value);
  if (parts === null) return { error: say().caaFormat({ value }) };
  const [, flags = '', tag = '', rest = ''] = parts;
  if (Number(flags) > 255) return { error: say().caaFlags({ value: flags }) };
  const lowerTag = tag.toLowerCase();
  if (!(CAA_TAGS as readonly string[]).includes(lowerTag))
    return { error: say().caaTag({ tag, tags: CAA_TAGS.join(', ') }) };
  // Quoted or not on the way in; `0 issue ""` (no issuer) is valid (RFC 8659 §4.2), an unquoted nothing is not.
  const quoted = /^"(.*)"$/s.exec(rest);
  const inner = quoted?.[1] ?? rest;
  if (quoted === null && inner === '') return { error: say().caaFormat({ value }) };
  if (inner.includes('"') || CONTROL.test(inner)) return { error: say().caaValue({ value: inner }) };
  const hidden = invisiblesIn(inner);
  if (hidden.length > 0) return { error: say().invisible({ characters: hidden.join(', ') }) };
  return { data: `${Number(flags)} ${lowerTag} "${inner}"` };
}

/** Parses typed data for a type: canonical data, or the reason (a catalog sentence) it does not parse. */
export function parseData(type: RecordType, typed: string): Parsed {
  const value = typed.trim();
  if (value === '') return { error: say().dataEmpty({ type }) };
  switch (type) {
    case 'A':
      return isIPv4(value) ? { data: value } : { error: say().notIpv4({ value }) };
    case 'AAAA': {
      const address = canonicalIpv6(value.replace(/^\[|\]$/g, ''));
      return address === undefined ? { error: say().notIpv6({ value }) } : { data: address };
    }
    case 'CNAME':
    case 'ALIAS':
    case 'NS':
      return parseHost(type, value);
    case 'MX':
      // "." is the null MX: the domain takes no mail (RFC 7505).
      return value === '.' ? { data: '.' } : parseHost(type, value);
    case 'TXT': {
      const content = unquoteText(value);
      if (content === '') return { error: say().dataEmpty({ type }) };
      if (CONTROL.test(content)) return { error: say().txtControl };
      const hidden = invisiblesIn(content);
      if (hidden.length > 0) return { error: say().invisible({ characters: hidden.join(', ') }) };
      if (content.length > MAX_TXT)
        return { error: say().txtTooLong({ length: content.length, max: MAX_TXT }) };
      return { data: content };
    }
    case 'SRV':
      return parseSrv(value);
    case 'CAA':
      return parseCaa(value);
  }
}

/**
 * Data as the registrar holds it, in canonical form: parsed when it parses, else trimmed (a record
 * someone wrote elsewhere is compared as it is). A TXT is taken as it is: its text is the data, and
 * reading it as typed would strip quotes or spaces that belong to it — so canonical data reads back
 * to itself for every type.
 */
export function canonicalData(type: RecordType, data: string): string {
  if (type === 'TXT') return data;
  const parsed = parseData(type, data);
  return 'data' in parsed ? parsed.data : data.trim();
}

/**
 * One canonical presentation of a record's data, the priority first for MX and SRV (`10 mail.example.de.`),
 * to compare registrar records, drafts and DNS answers. `data` is data as the registrar holds it or as
 * `parseData` returned it (not as typed); a TXT is its text, unquoted.
 */
export function presentation(type: string, data: string, priority?: number): string {
  const upper = type.toUpperCase();
  const canonical = isRecordType(upper) ? canonicalData(upper, data) : data.trim();
  return hasPriority(upper) && priority !== undefined ? `${priority} ${canonical}` : canonical;
}

/** A name of an answer (dns-packet drops the root's dot) as record data: lower case, trailing dot. */
const answerHost = (name: string) =>
  name === '' || name === '.' ? '.' : `${name.toLowerCase().replace(/\.$/, '')}.`;

/**
 * The same presentation of an answer decoded by dns-packet, or undefined for the types we do not
 * compare. ALIAS has no wire type: nameservers serve it as the target's A and AAAA records.
 */
export function answerPresentation(answer: WireAnswer): string | undefined {
  switch (answer.type) {
    case 'A':
      return answer.data;
    case 'AAAA':
      return canonicalIpv6(answer.data) ?? answer.data;
    case 'CNAME':
    case 'NS':
      return answerHost(answer.data);
    case 'MX':
      return `${answer.data.preference ?? 0} ${answerHost(answer.data.exchange)}`;
    case 'TXT': {
      // A long TXT travels as strings of at most 255 bytes (RFC 1035 §3.3.14): the record is their
      // concatenation, bytes first, so a UTF-8 character split across two strings is whole again.
      const parts = Array.isArray(answer.data) ? answer.data : [answer.data];
      return Buffer.concat(
        parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)),
      ).toString('utf8');
    }
    case 'SRV': {
      const { priority = 0, weight = 0, port, target } = answer.data;
      return `${priority} ${weight} ${port} ${answerHost(target)}`;
    }
    case 'CAA':
      return `${answer.data.flags ?? 0} ${answer.data.tag.toLowerCase()} "${answer.data.value}"`;
    default:
      return undefined;
  }
}
