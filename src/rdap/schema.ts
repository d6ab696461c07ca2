import { z } from 'zod';

/**
 * The two RDAP documents Regdesk reads, as far as it reads them. Objects keep zod's default of
 * dropping unknown keys: servers add extensions (RFC 9083 §2.1, "rdapConformance") and those must not
 * make an answer malformed. Arrays are capped so a hostile answer cannot make validation the cost.
 */

/** RFC 9224 §4: `services` is a list of [TLDs, base URLs] pairs; `version` is "1.0". */
export const RdapBootstrap = z.lazy(() =>
  z.object({
    version: z.string(),
    publication: z.string().optional(),
    services: z
      .array(
        z
          .tuple([z.array(z.string().max(253)).max(5_000), z.array(z.string().max(2_000)).max(20)])
          .rest(z.unknown()),
      )
      .max(5_000),
  }),
);
export type RdapBootstrap = z.infer<typeof RdapBootstrap>;

/** RFC 9083 §4.5: an event; the eventDate is RFC 3339. */
export const RdapEvent = z.lazy(() =>
  z.object({ eventAction: z.string(), eventDate: z.string().optional() }),
);
export type RdapEvent = z.infer<typeof RdapEvent>;

/** RFC 9083 §5.1: an entity; its name is in the jCard (RFC 7095) `vcardArray`, read leniently. */
export const RdapEntity = z.lazy(() =>
  z.object({
    roles: z.array(z.string()).max(50).optional(),
    vcardArray: z.unknown().optional(),
    handle: z.string().optional(),
  }),
);
export type RdapEntity = z.infer<typeof RdapEntity>;

/** RFC 9083 §5.3: the domain object class. */
export const RdapDomain = z.lazy(() =>
  z.object({
    objectClassName: z.literal('domain'),
    ldhName: z.string().optional(),
    status: z.array(z.string()).max(100).optional(),
    events: z.array(RdapEvent).max(500).optional(),
    entities: z.array(RdapEntity).max(200).optional(),
  }),
);
export type RdapDomain = z.infer<typeof RdapDomain>;

/** One `fn` property of a jCard: ["fn", {params}, "text", "Example Registrar"]. */
export const FnProperty = z.lazy(() =>
  z.tuple([z.literal('fn'), z.unknown(), z.string(), z.string()]).rest(z.unknown()),
);
/** ["vcard", [properties…]] (RFC 7095 §3.2). */
export const JCard = z.lazy(() => z.tuple([z.literal('vcard'), z.array(z.unknown()).max(500)]));
