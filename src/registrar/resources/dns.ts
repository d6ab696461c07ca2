import { z } from 'zod';
import { domainPath, ifOffered, type RegistrarTransport, recordIdPath } from '../client.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { DnsRecord, DnsRecordList, DnsRecordRequest, DnsZone, DnsZoneSummary } from '../schemas/dns.js';

/** The request checked and normalised before anything is sent; a refusal names the field, as a 400 would. */
function recordBody(request: DnsRecordRequest, operation: string): z.output<typeof DnsRecordRequest> {
  const parsed = DnsRecordRequest.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new BadRequestError(
    operation,
    `${issue?.path.join('.') ?? 'request'}: ${issue?.message ?? 'invalid'}`,
  );
}

/**
 * Spec 4.4: DNS zones and records, and the record writes and zone list beyond v1.6.2 (spec addendum
 * §1 #1–#6). The listing answers `undefined` when the registrar does not offer it; the writes throw
 * `NotOfferedError` (a 405 from the endpoint, mapped in errors.ts).
 */
export function dnsResource(t: RegistrarTransport) {
  return {
    zone: async (domain: string) =>
      t.json({
        operation: 'dns.zone',
        method: 'GET',
        path: `/dns/zones/${domainPath(domain, 'dns.zone')}`,
        schema: DnsZone,
        retry: true,
      }),
    records: async (domain: string) =>
      t.json({
        operation: 'dns.records',
        method: 'GET',
        path: `/dns/${domainPath(domain, 'dns.records')}/rr`,
        schema: DnsRecordList,
        retry: true,
      }),
    /** The account's zones, or undefined when this registrar does not offer the list (404 or 405). */
    zones: async (): Promise<DnsZoneSummary[] | undefined> =>
      ifOffered(t, {
        operation: 'dns.zones',
        method: 'GET',
        path: '/dns/zones',
        schema: z.array(DnsZoneSummary),
        retry: true,
      }),
    getRecord: async (id: number | string) =>
      t.json({
        operation: 'dns.recordGet',
        method: 'GET',
        path: `/dns/rr/${recordIdPath(id, 'dns.recordGet')}`,
        schema: DnsRecord,
        retry: true,
      }),
    /**
     * Creates a record; the registrar finds the zone from the fully qualified name. An exact duplicate
     * (same name, type and data) is `DuplicateRecordError`; same name and type with other data makes a
     * record set.
     */
    createRecord: async (request: DnsRecordRequest) =>
      t.json({
        operation: 'dns.recordCreate',
        method: 'POST',
        path: '/dns/rr',
        body: recordBody(request, 'dns.recordCreate'),
        schema: DnsRecord,
        retry: false,
      }),
    updateRecord: async (id: number | string, request: DnsRecordRequest) =>
      t.json({
        operation: 'dns.recordUpdate',
        method: 'PATCH',
        path: `/dns/rr/${recordIdPath(id, 'dns.recordUpdate')}`,
        body: recordBody(request, 'dns.recordUpdate'),
        schema: DnsRecord,
        retry: false,
      }),
    /**
     * Deletes a record. The recorded success answer is `{"success":true,"error":"Record successfully
     * deleted","code":0}`: the text sits in `error`, `success` decides. A 404 means the record is
     * already gone, which is what the caller wants, so it resolves too (clients of the registrar treat
     * it the same way).
     */
    deleteRecord: async (id: number | string): Promise<void> => {
      try {
        await t.json({
          operation: 'dns.recordDelete',
          method: 'DELETE',
          path: `/dns/rr/${recordIdPath(id, 'dns.recordDelete')}`,
          schema: z.unknown(),
          retry: false,
        });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    },
  };
}
