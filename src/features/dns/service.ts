import type { DnsRecord, RegistrarClient } from '../../registrar/index.js';

/**
 * 40 records: one section each when they offer Edit and Delete (an overflow per record), with the
 * header, legend, page line, paging and Share buttons 45 blocks, inside Block Kit's 50.
 */
export const RECORDS_PER_PAGE = 40;

/** One page of a zone's records, optionally of one type. */
export interface RecordPage {
  domain: string;
  /** Upper case, or undefined for every type. */
  type: string | undefined;
  /** Records of the type in the whole zone. */
  total: number;
  /** 0-based, within `0 … pages - 1`. */
  page: number;
  pages: number;
  records: DnsRecord[];
  /** The registrar lets this key change records: each changeable record offers Edit and Delete. */
  editable: boolean;
}

/**
 * The registrar lists every record at once (docs/registrar-api.md §4.4): filtered by type and paged
 * here, read afresh for every page since the zone may have changed. A page past the end is the last.
 */
export async function recordPage(
  registrar: RegistrarClient,
  domain: string,
  type: string | undefined,
  page: number,
  changesOffered: (zone: readonly DnsRecord[]) => Promise<boolean>,
): Promise<RecordPage> {
  const wanted = type?.toUpperCase();
  const zone = await registrar.dns.records(domain);
  const records = zone.filter((record) => wanted === undefined || record.type.toUpperCase() === wanted);
  const pages = Math.max(1, Math.ceil(records.length / RECORDS_PER_PAGE));
  const current = Math.min(Math.max(0, page), pages - 1);
  return {
    domain,
    type: wanted,
    total: records.length,
    page: current,
    pages,
    records: records.slice(current * RECORDS_PER_PAGE, (current + 1) * RECORDS_PER_PAGE),
    editable: await changesOffered(zone),
  };
}
