import { z } from 'zod';

/**
 * What the served and Certificate Transparency looks keep in a watch's state (store.ts WatchState),
 * apart from store.ts so that the looks and the store need not import each other.
 */

/** Lines of "could not check" kept per certificate: enough to name the trouble, bounded. */
export const MAX_UNCHECKED_LINES = 10;

/** Names with an older or sooner-ending certificate the state keeps for the list, digest and Home. */
export const MAX_STALE_NAMES = 3;
/** Unknown issuances a zone's state keeps (each was alerted; the count is what the list shows). */
export const MAX_UNKNOWN_ISSUANCES = 50;

/** A certificate's last served look (served-look.ts). */
export const ServedSeen = z.lazy(() =>
  z.object({
    checkedAt: z.number(),
    /** Name, address and port triples serving the expected certificate. */
    current: z.number(),
    /** Triples alerted as serving an older certificate or one that ends sooner. */
    stale: z.number(),
    /** What could not be asked or answered, one short line each (never counted as "fine"). */
    unchecked: z.array(z.string()).max(MAX_UNCHECKED_LINES),
    /** Looks in a row in which not one name could be asked: "could not check" is said at 3. */
    blindLooks: z.number(),
    blindSince: z.number().optional(),
    /**
     * By name (what the list, digest and Home say): names asked, names every answer of which was the
     * expected certificate, names that could not be asked at all, and the first names serving another.
     */
    names: z
      .object({
        asked: z.number(),
        serving: z.number(),
        unchecked: z.number(),
        stale: z
          .array(z.object({ name: z.string().max(253), why: z.enum(['older', 'sooner']) }))
          .max(MAX_STALE_NAMES),
        staleCount: z.number(),
      })
      .optional(),
  }),
);
export type ServedSeen = z.infer<typeof ServedSeen>;

/** A zone's Certificate Transparency search (ct-look.ts): the cursor, the pace, the verdict. */
export const CtSeen = z.lazy(() =>
  z.object({
    /** Cert Spotter's `after`: the last issuance already judged. */
    cursor: z.string().max(100).optional(),
    /** A 429's Retry-After: no search before this. */
    retryAt: z.number().optional(),
    checkedAt: z.number().optional(),
    /** `clear` only after a search that answered and every issuance in it was judged. */
    status: z.enum(['clear', 'found', 'unchecked']),
    failures: z.number(),
    failingSince: z.number().optional(),
    reason: z.string().max(300).optional(),
    /**
     * Foreign issuances alerted and not marked as known, by TBS SHA-256, with their end: each look
     * drops the ones marked known since or expired, so the list says how many are still unexplained.
     */
    unknown: z
      .array(z.object({ tbs: z.string().max(64), until: z.number().optional() }))
      .max(MAX_UNKNOWN_ISSUANCES)
      .optional(),
  }),
);
export type CtSeen = z.infer<typeof CtSeen>;
