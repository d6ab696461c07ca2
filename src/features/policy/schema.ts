import { z } from 'zod';
import { DNS_RECORD_TYPES } from '../../registrar/index.js';
import { ACTION_CLASSES } from './classes.js';

/**
 * The parts of the policy that version 2 added (contract §3 "Policy"): per-class rules, zone
 * overrides, freezes. Shared by the stored policy (policy.ts) and the YAML document (document.ts).
 */

/** A person (`U…`, `W…`). */
export const Person = z.lazy(() => z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id (U… or W…)'));
/** A person or a user group (`S…`). */
export const Principal = z.lazy(() =>
  z.string().regex(/^[UWS][A-Z0-9]{2,}$/, 'a Slack user id (U…, W…) or user group id (S…)'),
);
export const Approvals = z.lazy(() => z.number().int().min(0).max(5));
export const ExpiryHours = z.lazy(() => z.number().int().min(1).max(168));

/** What every class may set; a field left out takes the top level's value (rules.ts). */
const rulesShape = {
  approvals: Approvals.optional(),
  reason: z.enum(['required', 'optional']).optional(),
  approvers: z.array(Principal).optional(),
  expiryHours: ExpiryHours.optional(),
};
const ClassRules = z.lazy(() => z.strictObject(rulesShape));
/** Record changes also name the record types and people whose changes need no approval. */
const RecordRules = z.lazy(() =>
  z.strictObject({
    ...rulesShape,
    exemptTypes: z.array(z.enum(DNS_RECORD_TYPES)).optional(),
    exemptPeople: z.array(Person).optional(),
  }),
);
/** Certificate orders also say who may place them at all. */
const OrderRules = z.lazy(() =>
  z.strictObject({
    ...rulesShape,
    who: z.union([z.enum(['everyone', 'approvers']), z.array(Person)]).optional(),
  }),
);
export const Actions = z.lazy(() =>
  z.strictObject({
    revoke: ClassRules.optional(),
    authcode: ClassRules.optional(),
    delegation: ClassRules.optional(),
    dnssec: ClassRules.optional(),
    record: RecordRules.optional(),
    order: OrderRules.optional(),
    publish: ClassRules.optional(),
  }),
);
export type Actions = z.infer<typeof Actions>;
export type ClassRules = z.infer<typeof RecordRules> & z.infer<typeof OrderRules>;

/** A zone name (`prod.example`) or every zone under a suffix (`*.prod.example`). */
export const ZoneMatch = z.lazy(() =>
  z.string().regex(/^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+\.?$/i, 'a zone name, or *. and a suffix'),
);

const Instant = z.lazy(() =>
  z.iso.datetime({
    offset: true,
    message: 'a date and time with its offset (2026-11-27T00:00:00+01:00)',
  }),
);
const WallClock = z.lazy(() =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'a time of day, 00:00 to 24:00'),
);
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
const TimeZone = z.lazy(() =>
  z.string().refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone (Europe/Berlin)'),
);
const FrozenClasses = z.lazy(() => z.array(z.enum(ACTION_CLASSES)).min(1));
const FreezeName = z.lazy(() => z.string().trim().min(1).max(80));

const OneOffFreeze = z.lazy(() =>
  z
    .strictObject({ name: FreezeName, from: Instant, to: Instant, actions: FrozenClasses })
    .refine((freeze) => Date.parse(freeze.from) < Date.parse(freeze.to), {
      message: 'ends before it starts',
      path: ['to'],
    }),
);
const WeeklyFreeze = z.lazy(() =>
  z.strictObject({
    name: FreezeName,
    weekly: z
      .strictObject({
        days: z.array(z.enum(WEEKDAYS)).min(1),
        from: WallClock,
        to: WallClock,
        timeZone: TimeZone,
      })
      .refine((window) => window.from !== window.to, { message: 'an empty window', path: ['to'] }),
    actions: FrozenClasses,
  }),
);
export const Freeze = z.lazy(() => z.union([OneOffFreeze, WeeklyFreeze]));
export type Freeze = z.infer<typeof Freeze>;

/** Overrides for matching zones; the first match wins. */
export const ZoneOverride = z.lazy(() => z.strictObject({ match: ZoneMatch, actions: Actions }));
