import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { Timestamp } from './common.js';
import { DnssecState } from './dnssec.js';

/**
 * DNS record (docs/registrar-api.md §2.6). Whether `data` and `ttl` appear in both views is not shown: both optional.
 * Real answers also carry fields our spec omits; they are kept. `annotation` (free text kept with a
 * record, spec addendum §2) and `priority` (MX, SRV) are typed because Regdesk writes them.
 */
export const DnsRecord = z.lazy(() =>
  z.looseObject({
    id: z.number().int().optional(),
    name: z.string(),
    type: z.string(),
    data: z.string().optional(),
    ttl: z.number().int().optional(),
    priority: z.number().int().optional(),
    annotation: z.string().optional(),
    auto: z.boolean().optional(),
    active: z.boolean().optional(),
    ts_created: Timestamp.optional(),
    ts_updated: Timestamp.optional(),
  }),
);
export type DnsRecord = z.infer<typeof DnsRecord>;

/** Zone detail (docs/registrar-api.md §2.5); `by_type` maps a record type to its count. */
export const DnsZone = z.lazy(() =>
  z.looseObject({
    domain: z.string(),
    origin: z.string().optional(),
    active: z.boolean().optional(),
    signed: z.boolean().optional(),
    using_regfish_nameservers: z.boolean().optional(),
    delegation_nameservers: z.array(z.looseObject({ host: z.string() })).default([]),
    soa: z
      .looseObject({
        primary_nameserver: z.string().optional(),
        mailbox: z.string().optional(),
        serial: z.number().optional(),
        refresh: z.number().optional(),
        retry: z.number().optional(),
        expire: z.number().optional(),
        minimum: z.number().optional(),
        ttl: z.number().optional(),
      })
      .optional(),
    record_count: z.number().int().optional(),
    dnssec_state: z.string().optional(),
    dnssec: DnssecState.optional(),
    counts: z
      .looseObject({
        records_total: z.number().int().optional(),
        records_active: z.number().int().optional(),
        records_auto: z.number().int().optional(),
        records_manual: z.number().int().optional(),
        by_type: z.record(z.string(), z.number()).default({}),
      })
      .optional(),
    records: z.array(DnsRecord).default([]),
  }),
);
export type DnsZone = z.infer<typeof DnsZone>;

export const DnsRecordList = z.lazy(() => z.array(DnsRecord));

/** A zone of `GET /dns/zones` (spec addendum §1 #1): only these fields are shown, by one client. */
export const DnsZoneSummary = z.lazy(() =>
  z.looseObject({
    domain: z.string(),
    active: z.boolean().optional(),
    delegation_nameservers: z.array(z.looseObject({ host: z.string() })).default([]),
  }),
);
export type DnsZoneSummary = z.infer<typeof DnsZoneSummary>;

/** The record types `POST /dns/rr` takes (spec addendum §2); ALIAS is the registrar's apex CNAME stand-in. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'SRV', 'CAA', 'ALIAS'] as const;

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
/** An optional leading wildcard, then two labels or more, each followed by a dot (the registrar's FQDN form). */
const FQDN = new RegExp(`^(?:\\*\\.)?(?:${LABEL}\\.){2,}$`);

/**
 * The record's owner name, fully qualified: the registrar finds the zone from it (spec addendum §1 #3).
 * Lower-cased, IDN labels as punycode, the trailing dot added when missing.
 */
const RecordName = z.lazy(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((name) =>
      name
        .replace(/\.$/, '')
        .split('.')
        // Only a label of letters and digits is converted: domainToASCII parses a URL host and would cut
        // `ü/x` to `ü`, so anything else stays as it is and fails the pattern below.
        .map((label) =>
          /[^\p{ASCII}]/u.test(label) && /^[\p{L}\p{M}\p{N}_-]+$/u.test(label) ? domainToASCII(label) : label,
        )
        .map((label) => `${label}.`)
        .join(''),
    )
    .refine((name) => name.length <= 254 && FQDN.test(name), 'must be a fully qualified domain name'),
);

/**
 * The body of `POST /dns/rr` and `PATCH /dns/rr/{id}` (spec addendum §2). The data format per type is
 * the registrar's to judge (it answers 400); only what the addendum states is checked here: the types,
 * TTL 60 … 604800, and a priority (MX, SRV) in 0 … 65535.
 */
export const DnsRecordRequest = z.lazy(() =>
  z.object({
    type: z.enum(DNS_RECORD_TYPES),
    name: RecordName,
    data: z.string().regex(/\S/, 'must not be empty'),
    ttl: z.number().int().min(60).max(604_800).optional(),
    annotation: z.string().optional(),
    priority: z.number().int().min(0).max(65_535).optional(),
  }),
);
/** What a caller passes (the name may lack its trailing dot). */
export type DnsRecordRequest = z.input<typeof DnsRecordRequest>;
