import { z } from 'zod';
import { RecordChange } from '../records/changes.js';

/** A change set's request: the steps planned, and what the 30 % rule and a revert need to know. */
export const ChangeSetParams = z.lazy(() =>
  z.object({
    domain: z.string().min(1).max(253),
    steps: z.array(RecordChange).min(1).max(2_000),
    unchanged: z.number().int().min(0),
    /** The records of the zone a set may touch when planned: the 30 % rule's base. */
    manageable: z.number().int().min(0),
    by: z.string().min(1).max(32),
    /** The change set this one reverts. */
    revertOf: z.string().max(20).optional(),
    /** A scheduled cutover: applied at this time (ms), once approved. */
    applyAt: z.number().int().optional(),
    /** With `applyAt`: the records it changes or deletes get TTL 60 at approval, so the cutover is seen fast. */
    lowerTtls: z.boolean().optional(),
  }),
);
export type ChangeSetParams = z.infer<typeof ChangeSetParams>;
