// The thresholds and day arithmetic both the domain and the certificate checks count with.
import type { Alert } from './alert.js';
import type { WatchChange, WatchState } from './store.js';

export const DAY_MS = 86_400_000;
/** Days before a domain's expiry at which it is raised; 0 is "expired". */
export const DOMAIN_THRESHOLDS = [60, 30, 14, 7, 1, 0] as const;
export const CERTIFICATE_THRESHOLDS = [30, 14, 7, 1, 0] as const;
/** A DNSSEC transition pending longer than this is stuck (docs/requirements.md R37). */
export const DNSSEC_PENDING_MAX_MS = DAY_MS;
/**
 * How long an order usually stays pending: domain validation takes minutes to hours, organization
 * validation (OV) a few days. Past these it is raised as stuck.
 */
export const USUAL_PENDING_MS = { dv: 2 * DAY_MS, ov: 7 * DAY_MS } as const;

export interface Look {
  state: WatchState;
  alerts: Alert[];
  changes: WatchChange[];
}

/** The tightest threshold `expiresAt` has crossed at `now`, or undefined when none. */
export function crossedThreshold(
  thresholds: readonly number[],
  expiresAt: number,
  now: number,
): number | undefined {
  const days = (expiresAt - now) / DAY_MS;
  if (days <= 0) return 0;
  let crossed: number | undefined;
  for (const threshold of thresholds) if (threshold > 0 && days <= threshold) crossed = threshold;
  return crossed;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const daysLeft = (expiresAt: number, now: number) =>
  Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
