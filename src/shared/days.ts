// The one day count of Regdesk: cards, watch alerts and digests all count days with `daysUntil`, so a
// card and an alert about the same date never disagree by a day (issue #45).

/** A UTC day. Epoch milliseconds ignore leap seconds (POSIX time), so every UTC day is this long. */
export const DAY_MS = 86_400_000;

/** The UTC calendar day of `ms` as a whole number of days since 1970-01-01. */
const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

/**
 * Whole calendar days from `now` to `at`, counted in UTC: 0 on the same UTC day, 1 for "tomorrow",
 * negative once the day of `at` is past. Independent of the host's time zone.
 *
 * Why not date-fns: `differenceInCalendarDays` counts in the host's local time zone (a host in
 * Europe/Berlin and one in UTC disagree for two hours each night, and a DST change makes one local day
 * 23 or 25 hours long), and the UTC variant needs `@date-fns/utc`'s `UTCDate`, which Regdesk does not
 * depend on. UTC has no DST and fixed-length days, so dividing epoch milliseconds is exact.
 */
export function daysUntil(at: number, now: number): number {
  return utcDay(at) - utcDay(now);
}

/** A certificate's (or any term's) validity: from `startsAt` to `expiresAt`, epoch ms. */
export interface Lifetime {
  startsAt: number;
  expiresAt: number;
}

/** How much of a lifetime is left at `now`, in the one day count. */
export interface LifeLeft {
  /** Calendar days until the end, never negative (0: ends today, or ended). */
  daysLeft: number;
  /** The whole lifetime in calendar days, at least 1. */
  lifeDays: number;
  /** `daysLeft` as a whole percentage of `lifeDays`, 0–100. */
  percentLeft: number;
}

/**
 * What is left of `life` at `now`. Both numbers are the day count people read (`daysUntil`), so the
 * percentage is the one a reader can check from them ("12 days left (26 % of its 46-day life)").
 */
export function lifeLeft(life: Lifetime, now: number): LifeLeft {
  const lifeDays = Math.max(1, daysUntil(life.expiresAt, life.startsAt));
  const daysLeft = Math.min(lifeDays, Math.max(0, daysUntil(life.expiresAt, now)));
  return { daysLeft, lifeDays, percentLeft: Math.round((100 * daysLeft) / lifeDays) };
}
