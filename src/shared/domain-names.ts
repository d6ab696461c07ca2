import { createRequire } from 'node:module';
import { domainToASCII, domainToUnicode } from 'node:url';
import type * as Tldts from 'tldts';
import { text } from '../text/index.js';

const require = createRequire(import.meta.url);
let tldts: typeof Tldts | undefined;
/**
 * The Public Suffix List (about 2.5 MB resident) is loaded with the first name checked, not at
 * start-up: it costs ~10 ms once, and a process that checks no name never holds it (issue #17, idle
 * memory; docs/architecture.md "Memory").
 */
function parse(hostname: string, options: Parameters<typeof Tldts.parse>[1]): ReturnType<typeof Tldts.parse> {
  tldts ??= require('tldts') as typeof Tldts;
  return tldts.parse(hostname, options);
}

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
  // The reason is for the person who typed the name, in their language (src/text).
  const say = text.domains;
  if (lowered === '') return { ok: false, input, reason: say.nameEmpty };
  if (lowered.startsWith('.') || lowered.includes('..'))
    return { ok: false, input, reason: say.nameEmptyLabel };
  if (/[\s/:@]/.test(lowered)) return { ok: false, input, reason: say.nameNotADomain };
  const ascii = domainToASCII(lowered);
  if (ascii === '' || !validLabels(ascii)) return { ok: false, input, reason: say.nameInvalid };
  // ICANN section only, on purpose (see above): `github.io` is a name, `myproject.github.io` is not.
  const parsed = parse(ascii, { ...HOSTNAME_ONLY, allowPrivateDomains: false });
  // Without a matching ICANN rule tldts still answers by the implicit `*` rule (suffix = last label,
  // `isIcann` false): for a registrar that is a TLD nobody sells.
  if (parsed.isIcann !== true) return { ok: false, input, reason: say.nameUnknownTld };
  if (parsed.domain === null) return { ok: false, input, reason: say.namePublicSuffix };
  if (parsed.domain !== ascii)
    return { ok: false, input, reason: say.nameSubdomain({ domain: parsed.domain }) };
  return { ok: true, input, ascii, unicode: domainToUnicode(ascii) };
}

/** The Unicode form of a name, for people (cards and look-ups). */
export function displayName(ascii: string): string {
  return domainToUnicode(ascii) || ascii;
}

/** Scripts a label's letters are checked against; Common and Inherited (digits, hyphens) are neutral. */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Arabic', 'Hebrew', 'Hangul', 'Thai', 'Georgian'];
const SCRIPT_PATTERNS = SCRIPTS.map((script) => ({
  script,
  pattern: new RegExp(`\\p{Script=${script}}`, 'u'),
}));
/** Han may mix with Hiragana and Katakana (Japanese); any other pair of scripts in one label is suspect. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** True when one label mixes letters of different scripts (a classic homograph trick). */
export function hasMixedScripts(unicodeName: string): boolean {
  return unicodeName.split('.').some((label) => {
    const found = new Set<string>();
    for (const char of label) {
      if (CJK.test(char)) found.add('CJK');
      for (const { script, pattern } of SCRIPT_PATTERNS) if (pattern.test(char)) found.add(script);
    }
    return found.size > 1;
  });
}

/**
 * A name as it must appear where someone decides (approval requests, confirm dialogs, the audit):
 * `аррӏе.com (xn--80ak6aa92e.com)` — the ASCII form beside any Unicode one, so a look-alike of a
 * familiar name cannot pass for it, and a warning when a label mixes scripts (docs/requirements.md R8).
 */
export function reviewName(ascii: string): string {
  const unicode = displayName(ascii);
  if (unicode === ascii) return ascii;
  const warning = hasMixedScripts(unicode) ? ` ${text.domains.nameMixedScripts}` : '';
  return `${unicode} (${ascii})${warning}`;
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
