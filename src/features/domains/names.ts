import { domainToASCII, domainToUnicode } from 'node:url';
import psl from 'psl';

/**
 * The registrable domain (eTLD+1) of a name per the Public Suffix List, or null: the semantics of the
 * list's official test vectors (leading dots and bare suffixes have none).
 */
export function registrableDomain(name: string | null): string | null {
  if (name === null) return null;
  const lowered = name.toLowerCase();
  if (lowered.startsWith('.') || lowered === '') return null;
  const ascii = domainToASCII(lowered);
  if (ascii === '') return null;
  const parsed = psl.parse(ascii);
  if ('error' in parsed && parsed.error !== undefined) return null;
  return 'domain' in parsed ? parsed.domain : null;
}

export type ParsedName =
  | { ok: true; input: string; ascii: string; unicode: string }
  | { ok: false; input: string; reason: string };

/**
 * A domain name as a user typed it → its ASCII (punycode) form, checked locally before any upstream
 * call: internationalised names are converted (node's WHATWG `domainToASCII`), and the name must be a
 * registrable domain per the Public Suffix List (`psl`), so `co.uk`, `a.example.com` or `.com` are
 * refused without spending quota. `psl` itself accepts some leading-dot forms, so those are refused here.
 */
export function parseDomainName(raw: string): ParsedName {
  const input = raw.trim();
  const lowered = input.toLowerCase().replace(/\.$/, '');
  if (lowered === '') return { ok: false, input, reason: 'empty' };
  if (lowered.startsWith('.') || lowered.includes('..')) return { ok: false, input, reason: 'empty label' };
  if (/[\s/:@]/.test(lowered)) return { ok: false, input, reason: 'not a domain name' };
  const ascii = domainToASCII(lowered);
  if (ascii === '' || ascii.length > 253) return { ok: false, input, reason: 'not a valid domain name' };
  const parsed = psl.parse(ascii);
  if ('error' in parsed && parsed.error !== undefined)
    return { ok: false, input, reason: 'not a valid domain name' };
  if (!('listed' in parsed) || !parsed.listed || parsed.tld === null) {
    return { ok: false, input, reason: 'unknown top-level domain' };
  }
  if (parsed.domain === null) return { ok: false, input, reason: 'a public suffix, not a registrable name' };
  if (parsed.domain !== ascii)
    return { ok: false, input, reason: `a subdomain; the registrable name is ${parsed.domain}` };
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
