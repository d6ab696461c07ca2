import { domainToASCII, domainToUnicode } from 'node:url';
import { parse } from 'tldts';

// `tldts` (not `psl`, whose bundled list stopped in December 2024 and lacked `.hotel`, `.web`, …) ships
// the current Public Suffix List. We always pass hostnames, never URLs, so its URL parsing is off and
// the label checks it would then skip are done by `validLabels` below.
const HOSTNAME_ONLY = { extractHostname: false, detectIp: false } as const;

/** LDH labels of 1–63 characters, not starting or ending with a hyphen (what `psl` enforced). */
function validLabels(ascii: string): boolean {
  return (
    ascii.length <= 253 &&
    ascii.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label))
  );
}

/**
 * The registrable domain (eTLD+1) of a name per the Public Suffix List, or null: the semantics of the
 * list's official test vectors (leading dots and bare suffixes have none). Those vectors are written
 * for the whole list, private section included (`uk.com` is a public suffix there), so this judges by
 * ICANN and private rules alike — unlike `parseDomainName`, which judges by the ICANN section only.
 * An unlisted TLD falls under the list's implicit `*` rule (`example.example` → itself).
 */
export function registrableDomain(name: string | null): string | null {
  if (name === null) return null;
  const lowered = name.toLowerCase();
  // tldts skips leading dots instead of refusing them; the vectors want null.
  if (lowered.startsWith('.') || lowered === '') return null;
  const ascii = domainToASCII(lowered);
  if (ascii === '' || !validLabels(ascii)) return null;
  return parse(ascii, { ...HOSTNAME_ONLY, allowPrivateDomains: true }).domain;
}

export type ParsedName =
  | { ok: true; input: string; ascii: string; unicode: string }
  | { ok: false; input: string; reason: string };

/**
 * A domain name as a user typed it → its ASCII (punycode) form, checked locally before any upstream
 * call: internationalised names are converted (node's WHATWG `domainToASCII`), and the name must be a
 * registrable domain per the Public Suffix List (`tldts`), so `co.uk`, `a.example.com` or `.com` are
 * refused without spending quota.
 *
 * Registrability is judged by the ICANN section of the list only (`allowPrivateDomains: false`): a
 * registrar sells `github.io` (it exists and is taken), not `myproject.github.io`, even though the
 * private section makes `github.io` a public suffix. So a name under a private suffix is refused as a
 * subdomain of its ICANN registrable domain ("did you mean github.io?"), like `www.example.com`.
 */
export function parseDomainName(raw: string): ParsedName {
  const input = raw.trim();
  const lowered = input.toLowerCase().replace(/\.$/, '');
  if (lowered === '') return { ok: false, input, reason: 'empty' };
  if (lowered.startsWith('.') || lowered.includes('..')) return { ok: false, input, reason: 'empty label' };
  if (/[\s/:@]/.test(lowered)) return { ok: false, input, reason: 'not a domain name' };
  const ascii = domainToASCII(lowered);
  if (ascii === '' || !validLabels(ascii)) return { ok: false, input, reason: 'not a valid domain name' };
  // ICANN section only, on purpose (see above): `github.io` is a name, `myproject.github.io` is not.
  const parsed = parse(ascii, { ...HOSTNAME_ONLY, allowPrivateDomains: false });
  // Without a matching ICANN rule tldts still answers by the implicit `*` rule (suffix = last label,
  // `isIcann` false): for a registrar that is a TLD nobody sells.
  if (parsed.isIcann !== true) return { ok: false, input, reason: 'unknown top-level domain' };
  if (parsed.domain === null) return { ok: false, input, reason: 'a public suffix, not a registrable name' };
  if (parsed.domain !== ascii)
    return { ok: false, input, reason: `a subdomain; did you mean ${parsed.domain}?` };
  return { ok: true, input, ascii, unicode: domainToUnicode(ascii) };
}

/** `müller.de (xn--mller-kva.de)` style display: Unicode for people, ASCII where it differs. */
export function displayName(ascii: string): string {
  return domainToUnicode(ascii) || ascii;
}

/** Up to `max` names split on spaces, commas or newlines; duplicates (after normalising) merged. */
export function splitNames(text: string, max: number): { names: ParsedName[]; overflow: number } {
  const seen = new Set<string>();
  const names: ParsedName[] = [];
  let overflow = 0;
  for (const word of text.split(/[\s,;]+/).filter((w) => w !== '')) {
    const parsed = parseDomainName(word);
    const key = parsed.ok ? parsed.ascii : parsed.input.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (names.length >= max) overflow++;
    else names.push(parsed);
  }
  return { names, overflow };
}

/** A domain typed as a command argument, in ASCII form, or undefined when it is not one. */
export function domainArgument(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const parsed = parseDomainName(text);
  return parsed.ok ? parsed.ascii : undefined;
}
