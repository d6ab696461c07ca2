import { z } from 'zod';

/** DNSSEC record (docs/registrar-api.md §2.4), request and response. */
export const DnssecRecord = z.lazy(() =>
  z.looseObject({
    kind: z.string(),
    key_tag: z.number().int().optional(),
    flags: z.number().int().optional(),
    protocol: z.number().int().optional(),
    algorithm: z.number().int(),
    digest_type: z.number().int().optional(),
    digest: z.string().optional(),
    public_key: z.string().optional(),
    comment: z.string().optional(),
  }),
);
export type DnssecRecord = z.infer<typeof DnssecRecord>;

/**
 * DNSSEC state (docs/registrar-api.md §2.4). `pending_job`'s inner shape is "not shown": any object is accepted and
 * shown only as present/absent plus its string fields. State values are any string so a new value
 * upstream is displayed rather than rejected.
 */
export const DnssecState = z.lazy(() =>
  z.looseObject({
    configured: z.boolean().optional(),
    dnssec_state: z.string(),
    mode: z.string().optional(),
    desired_state: z.string().optional(),
    live_state: z.string().optional(),
    capabilities: z
      .looseObject({
        supported: z.boolean().optional(),
        provider: z.string().optional(),
        mode_regfish_available: z.boolean().optional(),
        mode_external_available: z.boolean().optional(),
        accepted_record_kinds: z.array(z.string()).default([]),
        min_records: z.number().int().optional(),
        accepted_algorithms: z.array(z.number().int()).default([]),
      })
      .optional(),
    desired_records: z.array(DnssecRecord).default([]),
    live_records: z.array(DnssecRecord).default([]),
    using_regfish_nameservers: z.boolean().optional(),
    legacy_mode: z.boolean().optional(),
    zone_signed: z.boolean().optional(),
    zone_pending_disable: z.boolean().optional(),
    pending_job: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
);
export type DnssecState = z.infer<typeof DnssecState>;

export const DnssecUpdateParams = z.lazy(() =>
  z.object({
    mode: z.enum(['none', 'regfish', 'external']),
    state: z.enum(['disabled', 'enabled']),
    verify_after_apply: z.boolean().optional(),
    records: z
      .array(
        z.object({
          kind: z.enum(['ds', 'dnskey']),
          algorithm: z.number().int(),
          key_tag: z.number().int().optional(),
          flags: z.number().int().optional(),
          protocol: z.number().int().optional(),
          digest_type: z.number().int().optional(),
          digest: z.string().optional(),
          public_key: z.string().optional(),
          comment: z.string().optional(),
        }),
      )
      .optional(),
  }),
);
export type DnssecUpdateParams = z.infer<typeof DnssecUpdateParams>;
