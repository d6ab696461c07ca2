import { z } from 'zod';
import { Timestamp } from './common.js';

/** Domain details (docs/registrar-api.md §2.7); timestamps normalised to epoch ms. */
export const Domain = z.lazy(() =>
  z.looseObject({
    domain: z.string(),
    sld: z.string().optional(),
    tld: z.string().optional(),
    favorite: z.boolean().optional(),
    owner: z.string().optional(),
    primary_nameserver: z.string().optional(),
    dnssec_state: z.string().optional(),
    auto_renew: z.boolean().optional(),
    cancelled: z.boolean().optional(),
    registered_at: Timestamp.optional(),
    expires_at: Timestamp.optional(),
    nameservers: z.array(z.string()).default([]),
  }),
);
export type Domain = z.infer<typeof Domain>;

/**
 * Vanity set nameservers: element type "not shown" (docs/registrar-api.md §2.8). Strings and objects with `host` are
 * both accepted and normalised to host strings.
 */
const VanityNameserver = z.lazy(() =>
  z
    .union([z.string(), z.looseObject({ host: z.string() }), z.looseObject({ name: z.string() })])
    .transform((value) => (typeof value === 'string' ? value : 'host' in value ? value.host : value.name)),
);

export const Delegation = z.lazy(() =>
  z.looseObject({
    domain: z.string(),
    mode: z.string().optional(),
    current: z.array(z.string()).default([]),
    vanity_set_id: z.number().int().nullable().optional(),
    vanity_sets: z
      .array(
        z.looseObject({
          id: z.number().int(),
          host: z.string().optional(),
          nameservers: z.array(VanityNameserver).default([]),
        }),
      )
      .default([]),
  }),
);
export type Delegation = z.infer<typeof Delegation>;

/** Availability (docs/registrar-api.md §2.9). */
export const Availability = z.lazy(() =>
  z.looseObject({
    domain: z.string(),
    sld: z.string().optional(),
    tld: z.string().optional(),
    available: z.boolean(),
    status: z.string().optional(),
    flags: z.array(z.string()).default([]),
  }),
);
export type Availability = z.infer<typeof Availability>;

/** Auth code (docs/registrar-api.md §2.10): `authinfo` is a secret and must never be logged or stored. */
export const AuthCode = z.lazy(() => z.looseObject({ domain: z.string(), authinfo: z.string().min(1) }));
export type AuthCode = z.infer<typeof AuthCode>;
