// The thresholds and day arithmetic both the domain and the certificate checks count with. Days are
// the one day count of src/shared/days.ts (UTC calendar days), the one the cards and digests show.
import { DAY_MS, daysUntil } from '../../shared/days.js';
import { slackDate } from '../../slack/blocks.js';
import { text } from '../../text/index.js';
import type { Alert } from './alert.js';
import type { WatchChange, WatchState } from './store.js';

export { DAY_MS } from '../../shared/days.js';
/** Days before a domain's expiry at which it is raised; 0 is "expired". */
export const DOMAIN_THRESHOLDS = [60, 30, 14, 7, 1, 0] as const;
/**
 * A certificate's thresholds when its lifetime is not known, and the caps of the scaled ones: since
 * 2026-03-15 certificates live at most 200 days, 100 from March 2027 and 47 from March 2029, so
 * fixed days would first alert a 46-day certificate at 65 % of its life (docs/requirements.md R37).
 */
export const CERTIFICATE_THRESHOLDS = [30, 14, 7, 1, 0] as const;
/** Each scaled threshold: min(cap, lifetime / share); the last one (1 day) does not scale. */
const CERTIFICATE_SCALE = [
  { cap: 30, share: 3 },
  { cap: 14, share: 6 },
  { cap: 7, share: 12 },
  { cap: 1, share: 1 },
] as const;
/** A DNSSEC transition pending longer than this is stuck (docs/requirements.md R37). */
export const DNSSEC_PENDING_MAX_MS = DAY_MS;
/**
 * How long an order usually stays pending: domain validation takes minutes to hours, organization
 * validation (OV) a few days. Past these it is raised as stuck.
 */
export const USUAL_PENDING_MS = { dv: 2 * DAY_MS, ov: 7 * DAY_MS } as const;

/**
 * One certificate threshold: `days` before the expiry it is crossed; `slot` is the fixed threshold it
 * stands for (30, 14, 7, 1 or 0), and the alert's mark names the slot, not the days. So "the first
 * warning" is one mark whatever the lifetime: a list that changes (Regdesk upgraded from the fixed
 * days, a lifetime the registrar reports only later) neither raises a warning already given again
 * nor skips one (a scaled threshold is never later in the life than its fixed slot).
 */
export interface CertificateThreshold {
  days: number;
  slot: number;
}

/**
 * The thresholds of a certificate that lives `lifeDays` days: min(30, L/3), min(14, L/6),
 * min(7, L/12), 1 and 0 (expired), rounded up to whole days (so the first comes with at least a
 * third of the life left), deduplicated (a tie keeps the later slot) and descending. None is above
 * the life itself. Without a known lifetime, the fixed list.
 */
export function certificateThresholds(lifeDays: number | undefined): CertificateThreshold[] {
  if (lifeDays === undefined || !Number.isFinite(lifeDays) || lifeDays <= 0)
    return CERTIFICATE_THRESHOLDS.map((days) => ({ days, slot: days }));
  const scaled = CERTIFICATE_SCALE.map(({ cap, share }) => ({
    days: Math.min(cap, Math.ceil(lifeDays / share), Math.floor(lifeDays)),
    slot: cap,
  })).filter((threshold) => threshold.days > 0);
  const kept = scaled.filter((threshold, i) => scaled[i + 1]?.days !== threshold.days);
  return [...kept, { days: 0, slot: 0 }];
}

export interface Look {
  state: WatchState;
  alerts: Alert[];
  changes: WatchChange[];
}

/**
 * The tightest threshold `expiresAt` has crossed at `now`, or undefined when none: 0 once it has
 * passed, else the smallest threshold at or above the days left (`daysUntil`, the cards' count).
 */
export function crossedThreshold(
  thresholds: readonly number[],
  expiresAt: number,
  now: number,
): number | undefined {
  if (expiresAt <= now) return 0;
  const days = daysUntil(expiresAt, now);
  let crossed: number | undefined;
  for (const threshold of thresholds) if (threshold > 0 && days <= threshold) crossed = threshold;
  return crossed;
}

/** `crossedThreshold` over a certificate's thresholds, with the slot its alert is marked with. */
export function crossedCertificateThreshold(
  thresholds: readonly CertificateThreshold[],
  expiresAt: number,
  now: number,
): CertificateThreshold | undefined {
  const days = crossedThreshold(
    thresholds.map((threshold) => threshold.days),
    expiresAt,
    now,
  );
  return days === undefined ? undefined : thresholds.find((threshold) => threshold.days === days);
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Calendar days left (`daysUntil`), 0 on the last day and after. */
export const daysLeft = (expiresAt: number, now: number) => Math.max(0, daysUntil(expiresAt, now));

/** The mark of a domain's expiry alert: once per threshold and expiry day, whoever reads the expiry. */
export function expiryMark(domain: string, threshold: number, expiresAt: number): string {
  return `domain:${domain}:expiry:${threshold}:${dayOf(expiresAt)}`;
}

/** The digest's line when a domain's expiry moved to another day since the last look (a renewal, a correction). */
export function expiryMoved(
  name: string,
  was: number | undefined,
  expiresAt: number,
  now: number,
): WatchChange | undefined {
  if (was === undefined || dayOf(was) === dayOf(expiresAt)) return undefined;
  return {
    at: now,
    text: text.watches.domainExpiryMoved({
      name,
      when: slackDate(expiresAt, '{date_long}'),
      was: slackDate(was, '{date_long}'),
    }),
  };
}
