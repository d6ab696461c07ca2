import { DnsUnreachable, NotPublicAddress } from '../../dns/client.js';
import type { Catalog, Markup } from '../../text/index.js';

/** Broken: something fails now. Risky: it works, but will fail or is weaker than it looks. Advice: worth doing. */
export type Severity = 'broken' | 'risky' | 'advice';
const RANK: Record<Severity, number> = { broken: 0, risky: 1, advice: 2 };

export type Area = 'delegation' | 'dnssec' | 'caa' | 'mail' | 'validation';

type Findings = Catalog['diagnosticFindings'];
export type FindingCode = keyof Findings;

/**
 * A finding's parameters as they are kept (watches store findings): a `date` is Slack's `<!date^…>`
 * token as a string, marked as markup again when the sentence is worded (blocks.ts).
 */
type Kept<P> = { [K in keyof P]: P[K] extends Markup ? string : P[K] };
type ParamsOf<K extends FindingCode> = Kept<Parameters<Findings[K]>[0]>;

/** Where a record is set: at the registrar (delegation, glue, DS) or in the zone on its nameservers. */
export type FixPlace = 'registrar' | 'zone';

export interface Fix {
  /** Set (the default) or remove the record. */
  action?: 'set' | 'remove';
  name: string;
  type: string;
  value: string;
  where: FixPlace;
}

/** One finding: its kind and the parameters of its sentence, with the exact record to set, if any. */
export type Finding = {
  [K in FindingCode]: {
    severity: Severity;
    area: Area;
    code: K;
    params: ParamsOf<K>;
    fix?: Fix[];
    /** What identifies this finding across looks (watches raise a finding once): code and subject. */
    key: string;
  };
}[FindingCode];

/** Why a check could not be made: said with the catalog's words (blocks.ts). */
export type Why =
  | { code: 'timeout' }
  | { code: 'network'; detail: string }
  | { code: 'answered'; rcode: string }
  | { code: 'notInAccount' }
  | { code: 'registrar'; message: string }
  | { code: 'noAnswer' }
  /** The check's bounds (addresses per host and in all, the deadline) left it unasked (contract §3). */
  | { code: 'limit' }
  /** An address outside the public internet: never asked (the delegation check names it as a finding). */
  | { code: 'notPublic'; address: string };

/** A check that could not be made (a timeout, a refusal): said as such, never a finding. */
export interface NotChecked {
  what:
    | { code: 'parent'; parent: string }
    | { code: 'server'; host: string; address: string }
    | { code: 'serverAddress'; host: string }
    | { code: 'registrar' }
    | { code: 'resolver' }
    | { code: 'caa'; name: string }
    | { code: 'mail' }
    | { code: 'validation'; id: string }
    /** Nameserver addresses beyond the check's bounds, left unasked. */
    | { code: 'unasked'; count: number };
  why: Why;
}

export interface CheckResult {
  findings: Finding[];
  notChecked: NotChecked[];
}

/** Builds a finding whose key is its code and subject (without the sentence's other details). */
export function finding<K extends FindingCode>(
  severity: Severity,
  area: Area,
  code: K,
  params: ParamsOf<K>,
  subject: string,
  fix?: Fix[],
): Finding {
  return {
    severity,
    area,
    code,
    params,
    key: `${code}:${subject}`,
    ...(fix === undefined ? {} : { fix }),
  } as Finding;
}

/** Broken before risky before advice; within a severity, in the order the checks found them. */
export function ranked(findings: readonly Finding[]): Finding[] {
  return findings
    .map((item, index) => ({ item, index }))
    .sort((a, b) => RANK[a.item.severity] - RANK[b.item.severity] || a.index - b.index)
    .map(({ item }) => item);
}

/** Why a lookup failed, from what it threw; anything but a DNS failure is a bug and is thrown on. */
export function reasonOf(error: unknown): Why {
  if (error instanceof NotPublicAddress) return { code: 'notPublic', address: error.address };
  if (!(error instanceof DnsUnreachable)) throw error;
  if (error.kind === 'timeout') return { code: 'timeout' };
  if (error.kind === 'limit') return { code: 'limit' };
  if (error.kind === 'answered') return { code: 'answered', rcode: error.detail };
  return { code: 'network', detail: error.detail };
}
