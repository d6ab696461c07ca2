import { z } from 'zod';
import { Timestamp } from './common.js';
import { DnssecState } from './dnssec.js';

/**
 * DNS record (docs/registrar-api.md §2.6). Whether `data` and `ttl` appear in both views is not shown: both optional.
 * Real answers also carry fields our spec omits (priority, annotation …); they are kept.
 */
export const DnsRecord = z.looseObject({
  id: z.number().int().optional(),
  name: z.string(),
  type: z.string(),
  data: z.string().optional(),
  ttl: z.number().int().optional(),
  auto: z.boolean().optional(),
  active: z.boolean().optional(),
  ts_created: Timestamp.optional(),
  ts_updated: Timestamp.optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/** Zone detail (docs/registrar-api.md §2.5); `by_type` maps a record type to its count. */
export const DnsZone = z.looseObject({
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
});
export type DnsZone = z.infer<typeof DnsZone>;

export const DnsRecordList = z.array(DnsRecord);
