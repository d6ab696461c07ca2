import type { ActionClass } from './classes.js';
import { documentOf, type PolicyDocument } from './document.js';
import type { Policy } from './policy.js';
import { type Freeze, WEEKDAYS, type Weekday } from './schema.js';

/** What the policy asks of one action, worked out for its class and zone (contract §3 "Policy"). */
export interface Rules {
  /** Distinct approvers needed, never the requester; 0: it runs at once, announced and audited. */
  approvals: number;
  reason: 'required' | 'optional';
  /** People and user groups who approve it; empty: the workspace's admins and owners. */
  approvers: readonly string[];
  expiryHours: number;
  /** Record changes: the types and people whose changes need no approval. */
  exemptTypes: readonly string[];
  exemptPeople: readonly string[];
}

/**
 * Whether an action by `person` (of record type `type`, for record changes) needs an approval under
 * `rules`: not when its class needs none here, nor for an exempt type or person. A type is compared
 * as the registrar spells it (upper case): any other spelling is not exempt.
 */
export function needsApproval(rules: Rules, person: string, type?: string): boolean {
  if (rules.approvals === 0) return false;
  if (rules.exemptPeople.includes(person)) return false;
  return !(type !== undefined && rules.exemptTypes.includes(type));
}

/** `www.prod.example.` and `WWW.prod.example` are one name. */
const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A zone name matches itself; `*.suffix` every zone strictly under the suffix. */
export function zoneMatches(match: string, zone: string): boolean {
  const pattern = canonical(match);
  const name = canonical(zone);
  return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
}

/**
 * The rules for an action of `actionClass` on `zone`: the first zone override that matches and names
 * the class, else the class's own entry, else the top level, field by field.
 */
export function rulesFor(document: PolicyDocument, actionClass: ActionClass, zone?: string): Rules {
  const override =
    zone === undefined
      ? undefined
      : document.zones.find(
          (entry) => zoneMatches(entry.match, zone) && entry.actions[actionClass] !== undefined,
        )?.actions[actionClass];
  const own = document.actions[actionClass];
  // Only record changes name exempt types and people (document.ts): the other classes have none.
  const exempt = (rules: typeof own) =>
    rules !== undefined && 'exemptTypes' in rules
      ? rules
      : { exemptTypes: undefined, exemptPeople: undefined };
  return {
    approvals: override?.approvals ?? own?.approvals ?? document.approvals,
    reason: override?.reason ?? own?.reason ?? 'optional',
    approvers: override?.approvers ?? own?.approvers ?? document.approvers,
    expiryHours: override?.expiryHours ?? own?.expiryHours ?? document.expiryHours,
    exemptTypes: exempt(override).exemptTypes ?? exempt(own).exemptTypes ?? [],
    exemptPeople: exempt(override).exemptPeople ?? exempt(own).exemptPeople ?? [],
  };
}

/** A freeze in force: its name and when it ends (ms). */
export interface ActiveFreeze {
  name: string;
  until: number;
}

const MINUTE = 60_000;
/** A weekly window lasts at most a day and a half (a 24:00 end and a window across midnight). */
const LONGEST_WINDOW_MINUTES = 36 * 60;

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The weekday and minute of the day at `at` on the wall clocks of `timeZone` (DST as the zone has it). */
function wallClock(at: number, timeZone: string): { day: Weekday; minute: number } {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    clock = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(timeZone, clock);
  }
  const parts = clock.formatToParts(at);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  const day = part('weekday').toLowerCase().slice(0, 3) as Weekday;
  return { day, minute: Number(part('hour')) * 60 + Number(part('minute')) };
}

const minutesOf = (clock: string): number => {
  const [hours = 0, minutes = 0] = clock.split(':').map(Number);
  return hours * 60 + minutes;
};

/**
 * Whether the wall clock is inside a weekly window. A window whose end is not after its start runs
 * past midnight: it starts on a listed day and ends the next (`fri 18:00–06:00`).
 */
function insideWeekly(window: Extract<Freeze, { weekly: unknown }>['weekly'], at: number): boolean {
  const { day, minute } = wallClock(at, window.timeZone);
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  if (from < to) return window.days.includes(day) && minute >= from && minute < to;
  const yesterday = WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7] as Weekday;
  return (window.days.includes(day) && minute >= from) || (window.days.includes(yesterday) && minute < to);
}

/**
 * The end of a weekly window `at` is inside: the first minute outside it, found by walking the wall
 * clock forward, so a DST change inside the window ends it when the zone's clocks say, not 24 h on.
 */
function weeklyEnd(window: Extract<Freeze, { weekly: unknown }>['weekly'], at: number): number {
  // Quarter hours first (time zones change their clocks on quarter hours at the finest), then minutes.
  let end = Math.floor(at / MINUTE) * MINUTE;
  const coarse = 15 * MINUTE;
  for (let step = 0; step <= LONGEST_WINDOW_MINUTES / 15 && insideWeekly(window, end + coarse); step += 1)
    end += coarse;
  for (let step = 0; step <= 15 && insideWeekly(window, end); step += 1) end += MINUTE;
  // A window of whole consecutive days joins the next: the freeze lasts until the last one ends.
  return insideWeekly(window, end) ? weeklyEnd(window, end) : end;
}

/** The freeze `actionClass` is under at `at`, if any (the one that ends last, when several are). */
export function activeFreeze(
  document: PolicyDocument,
  actionClass: ActionClass,
  at: number,
): ActiveFreeze | undefined {
  let found: ActiveFreeze | undefined;
  for (const freeze of document.freezes) {
    if (!freeze.actions.includes(actionClass)) continue;
    let until: number | undefined;
    if ('weekly' in freeze) {
      if (insideWeekly(freeze.weekly, at)) until = weeklyEnd(freeze.weekly, at);
    } else {
      const from = Date.parse(freeze.from);
      const to = Date.parse(freeze.to);
      if (at >= from && at < to) until = to;
    }
    if (until !== undefined && (found === undefined || until > found.until))
      found = { name: freeze.name, until };
  }
  return found;
}

/**
 * What the stored policy asks of an action of `actionClass` on `target` at `at`: its rules (the zone's
 * when the target is a name: a domain, a record's zone, a certificate's common name) and the freeze it
 * is under, if any.
 */
export function policyFor(
  policy: Policy,
  actionClass: ActionClass,
  target: string,
  at: number,
): { rules: Rules; freeze: ActiveFreeze | undefined } {
  const document = documentOf(policy);
  return {
    rules: rulesFor(document, actionClass, target.includes('.') ? target : undefined),
    freeze: activeFreeze(document, actionClass, at),
  };
}
