import { z } from 'zod';
import { CtSeen, ServedSeen } from './seen.js';

/** What the watch store keeps (store.ts), as the schemas its reads are parsed with. */

export const WatchKind = z.lazy(() => z.enum(['domain', 'certificate']));
export type WatchKind = z.infer<typeof WatchKind>;

/** One watched domain (ASCII name) or certificate (registrar id), and where its alerts go. */
export const WatchItem = z.lazy(() =>
  z.object({
    kind: WatchKind,
    id: z.string(),
    channel: z.string(),
    addedBy: z.string(),
    addedAt: z.number(),
    /** A domain the registrar does not hold: its expiry is read through RDAP (rdap-look.ts). */
    via: z.literal('rdap').optional(),
  }),
);
export type WatchItem = z.infer<typeof WatchItem>;

/** A later order for a certificate's name that is pending or issued (checks.ts, renewal.ts). */
export const RenewalSeen = z.lazy(() =>
  z.object({ id: z.string(), placedAt: z.number(), status: z.string() }),
);
export type RenewalSeen = z.infer<typeof RenewalSeen>;

/** What the last successful look saw (the digest, the list and App Home read it; no registrar call). */
export const WatchState = z.lazy(() =>
  z.object({
    checkedAt: z.number().optional(),
    /** Consecutive failed looks; "could not check" is said at FAILURES_BEFORE_REPORT. */
    failures: z.number().default(0),
    failingSince: z.number().optional(),
    lastError: z.string().optional(),
    /** Common name of a certificate; the domain's expiry, renewal and delegation. */
    label: z.string().optional(),
    expiresAt: z.number().optional(),
    /** When an issued certificate's life began (not-before, else its order date): the digest's "% left". */
    startsAt: z.number().optional(),
    autoRenew: z.boolean().optional(),
    cancelled: z.boolean().optional(),
    nameservers: z.array(z.string()).optional(),
    dnssec: z
      .object({
        desired: z.string(),
        live: z.string(),
        pending: z.boolean(),
        pendingSince: z.number().optional(),
        driftSince: z.number().optional(),
      })
      .optional(),
    status: z.string().optional(),
    pendingSince: z.number().optional(),
    /** A certificate's renewal, while its end is near and the renewal counts. */
    renewal: RenewalSeen.optional(),
    /** A domain's live DNS findings (`area|key`, dns-look.ts): only new ones are raised. */
    dnsFindings: z.array(z.string()).optional(),
    /** A certificate's names asked which certificate they serve (served-look.ts). */
    served: ServedSeen.optional(),
    /** A zone's Certificate Transparency search (ct-look.ts). */
    ct: CtSeen.optional(),
    /** What RDAP says of a domain held elsewhere: its registrar and whether transfers are locked. */
    rdap: z.object({ registrar: z.string().optional(), transferLock: z.boolean() }).optional(),
  }),
);
export type WatchState = z.infer<typeof WatchState>;

export const CADENCES = [
  'off',
  'daily',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export const DigestSettings = z.lazy(() =>
  z.object({
    /** Digests and alerts go here when set; otherwise alerts go where each watch was added. */
    channel: z.string().optional(),
    cadence: z.enum(CADENCES),
    hour: z.number().int().min(0).max(23),
    timeZone: z.string().min(1),
    setBy: z.string().optional(),
  }),
);
export type DigestSettings = z.infer<typeof DigestSettings>;

/** `/domain watch all`: every zone and certificate the registrar lists, new ones picked up. */
export const WatchAll = z.lazy(() => z.object({ channel: z.string(), by: z.string(), listedAt: z.number() }));
export type WatchAll = z.infer<typeof WatchAll>;

/** A change seen by a look, for the digest's "what changed". */
export const WatchChange = z.lazy(() => z.object({ at: z.number(), text: z.string() }));
export type WatchChange = z.infer<typeof WatchChange>;
