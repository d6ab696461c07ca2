import { z } from 'zod';
import { domainArgument } from '../../shared/domain-names.js';

/** A domain as commands normalise it (ASCII, lower case): metadata is input too, checked again. */
const Domain = z.lazy(() => z.string().refine((d) => domainArgument(d) === d));
/** A channel, or a user id for the person's DM with the bot (where the outcome is told). */
const Channel = z.lazy(() => z.string().min(1).max(32));

/**
 * A record modal's metadata (add, edit, delete): where the zone's records read at opening are kept
 * (the draft: larger than metadata may be), the zone, where the outcome goes, and the record being
 * edited or deleted.
 */
export const ModalTarget = z.lazy(() =>
  z.object({
    draft: z.string().max(20),
    domain: Domain,
    channel: Channel,
    recordId: z.number().int().optional(),
  }),
);
export type ModalTarget = z.infer<typeof ModalTarget>;
