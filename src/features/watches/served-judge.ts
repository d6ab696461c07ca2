import type { LeafIdentity } from '../../served/leaf.js';
import type { ServedCheck } from '../../served/probe.js';
import { text } from '../../text/index.js';

/**
 * What a served look saw, judged without Slack or Redis (contract §3 "What is served and what is
 * issued"): a served leaf is compared by identity and dates with the newest certificate issued and
 * with the watched one, never by trust. Whatever could not be asked is listed, never counted as fine.
 */

/** A newer certificate gets a day to reach its servers before an older one still served is alerted. */
export const ROLLOUT_GRACE_MS = 24 * 3_600_000;

export type Served = Extract<ServedCheck, { kind: 'served' }>;

export interface ServedVerdicts {
  current: Served[];
  stale: Array<{ check: Served; why: 'older' | 'sooner' }>;
  /** Everything that is not an answer: a failed handshake, an address not asked, a name not resolved. */
  unchecked: Exclude<ServedCheck, Served>[];
}

/**
 * `watched` is the watched certificate, `newest` the newest issued for it (the watched one itself, or
 * its issued renewal); both as read from the registrar's copy. A leaf is stale when it is neither of
 * them and either ends before the watched one, or began before the newest while the newest has been
 * out for ROLLOUT_GRACE_MS (its not-before: when the CA issued it).
 */
export function judgeServed(
  checks: readonly ServedCheck[],
  watched: LeafIdentity,
  newest: LeafIdentity,
  now: number,
): ServedVerdicts {
  const verdicts: ServedVerdicts = { current: [], stale: [], unchecked: [] };
  const same = (a: LeafIdentity, b: LeafIdentity) => a.spkiSha256 === b.spkiSha256 && a.serial === b.serial;
  for (const check of checks) {
    if (check.kind !== 'served') {
      verdicts.unchecked.push(check);
      continue;
    }
    const leaf = check.leaf;
    if (same(leaf, newest) || (same(leaf, watched) && newest.notAfter <= watched.notAfter)) {
      verdicts.current.push(check);
    } else if (leaf.notAfter < watched.notAfter && !same(leaf, watched)) {
      verdicts.stale.push({ check, why: 'sooner' });
    } else if (leaf.notBefore < newest.notBefore && now - newest.notBefore >= ROLLOUT_GRACE_MS) {
      verdicts.stale.push({ check, why: 'older' });
    } else {
      verdicts.current.push(check);
    }
  }
  return verdicts;
}

export interface ServedByName {
  asked: number;
  /** Names that answered, every answer the expected certificate. */
  serving: number;
  /** Names none of whose addresses answered. */
  unchecked: number;
  /** Names serving another certificate somewhere, in the order asked. */
  stale: Array<{ name: string; why: 'older' | 'sooner' }>;
}

/** The verdicts by name: what a person asks ("do all names serve it?"), not by address and port. */
export function servedByName(verdicts: ServedVerdicts): ServedByName {
  const names = new Map<string, 'serving' | 'unchecked' | 'older' | 'sooner'>();
  const rank = { unchecked: 0, serving: 1, older: 2, sooner: 3 } as const;
  const note = (name: string, what: 'serving' | 'unchecked' | 'older' | 'sooner') => {
    const was = names.get(name);
    if (was === undefined || rank[what] > rank[was]) names.set(name, what);
  };
  for (const check of verdicts.unchecked) note(check.name, 'unchecked');
  for (const check of verdicts.current) note(check.name, 'serving');
  for (const { check, why } of verdicts.stale) note(check.name, why);
  const all = [...names.entries()];
  return {
    asked: all.length,
    serving: all.filter(([, what]) => what === 'serving').length,
    unchecked: all.filter(([, what]) => what === 'unchecked').length,
    stale: all.flatMap(([name, what]) =>
      what === 'older' || what === 'sooner' ? [{ name, why: what }] : [],
    ),
  };
}

/** `address:port`, IPv6 in brackets. */
export const whereOf = (address: string, port: number): string =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

/** Why a check is not an answer, in the catalog's words. */
export function uncheckedReason(check: Exclude<ServedCheck, Served>): string {
  if (check.kind === 'not-public') return text.served.reasonNotPublic({ kind: check.addressKind });
  if (check.kind === 'unresolved')
    return check.reason === 'dns'
      ? text.served.reasonUnresolved
      : check.reason === 'limit'
        ? text.served.reasonLimit
        : text.served.reasonNoAddress;
  switch (check.reason) {
    case 'timeout':
      return text.served.reasonTimeout;
    case 'refused':
      return text.served.reasonRefused;
    case 'handshake':
      return text.served.reasonHandshake;
    case 'too-large':
      return text.served.reasonTooLarge;
    case 'no-certificate':
      return text.served.reasonNoCertificate;
    case 'limit':
      return text.served.reasonLimit;
  }
}

/** ` at address:port`, or nothing for a name that was never reached. */
export function uncheckedWhere(check: Exclude<ServedCheck, Served>): string {
  if (check.kind === 'unresolved') return '';
  return check.kind === 'not-public' ? ` (${check.address})` : ` (${whereOf(check.address, check.port)})`;
}
