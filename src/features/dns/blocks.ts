import type { KnownBlock } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import { button, context, header, packLines, section } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { DNS_IDS } from './ids.js';

/** Zone records as the registrar lists them (docs/registrar-api.md §2.6); `data` and `ttl` may be missing in one view. */
export interface RecordRow {
  id?: number | undefined;
  name: string;
  type: string;
  data?: string | undefined;
  ttl?: number | undefined;
  auto?: boolean | undefined;
  active?: boolean | undefined;
}

export interface ZoneSummary {
  domain: string;
  active?: boolean | undefined;
  signed?: boolean | undefined;
  using_regfish_nameservers?: boolean | undefined;
  delegation_nameservers?: readonly { host: string }[] | undefined;
  soa?:
    | {
        primary_nameserver?: string | undefined;
        mailbox?: string | undefined;
        serial?: number | undefined;
        refresh?: number | undefined;
        retry?: number | undefined;
        expire?: number | undefined;
        minimum?: number | undefined;
        ttl?: number | undefined;
      }
    | undefined;
  dnssec_state?: string | undefined;
  counts?:
    | {
        records_total?: number | undefined;
        records_active?: number | undefined;
        records_auto?: number | undefined;
        records_manual?: number | undefined;
        by_type?: Record<string, unknown> | undefined;
      }
    | undefined;
  record_count?: number | undefined;
}

/** 40 records of at most ~450 characters pack into at most 7 sections: far inside 50 blocks. */
export const RECORDS_PER_PAGE = 40;

export function zoneCard(zone: ZoneSummary): { text: string; blocks: KnownBlock[] } {
  const soa = zone.soa;
  const counts = zone.counts;
  const byType = Object.entries(counts?.by_type ?? {})
    .map(([type, count]) => `${escapeMrkdwn(type)}: ${escapeMrkdwn(String(count))}`)
    .join(' · ');
  const nameservers = (zone.delegation_nameservers ?? []).map((ns) => codeSpan(ns.host)).join(', ');
  const blocks: KnownBlock[] = [
    header(`Zone ${displayName(zone.domain)}`),
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Active*\n${flag(zone.active)}` },
        {
          type: 'mrkdwn',
          text: `*DNSSEC*\n${escapeMrkdwn(zone.dnssec_state ?? 'unknown')}${zone.signed ? ' (signed)' : ''}`,
        },
        { type: 'mrkdwn', text: `*Service nameservers*\n${flag(zone.using_regfish_nameservers)}` },
        {
          type: 'mrkdwn',
          text: `*Records*\n${counts?.records_total ?? zone.record_count ?? '?'} (${counts?.records_active ?? '?'} active, ${counts?.records_auto ?? '?'} auto, ${counts?.records_manual ?? '?'} manual)`,
        },
      ],
    },
    section(
      `*SOA* ${codeSpan(soa?.primary_nameserver ?? '?')} ${codeSpan(soa?.mailbox ?? '?')} serial ${soa?.serial ?? '?'}, ` +
        `refresh ${soa?.refresh ?? '?'}, retry ${soa?.retry ?? '?'}, expire ${soa?.expire ?? '?'}, minimum ${soa?.minimum ?? '?'}, TTL ${soa?.ttl ?? '?'}`,
    ),
    section(`*Delegation*\n${nameservers === '' ? '_none reported_' : nameservers}`),
  ];
  if (byType !== '') blocks.push(context(`By type: ${byType}`));
  return { text: `Zone ${zone.domain}`, blocks };
}

function flag(value: boolean | undefined): string {
  return value === undefined ? 'unknown' : value ? 'yes' : 'no';
}

export function recordLine(record: RecordRow): string {
  const marks = [record.auto ? 'auto' : 'manual', record.active === false ? 'inactive' : ''].filter(
    (m) => m !== '',
  );
  const data = record.data === undefined ? '—' : codeSpan(truncate(record.data, 180));
  return `${codeSpan(record.name)} *${escapeMrkdwn(record.type)}* ${record.ttl ?? '—'} ${data} _${marks.join(', ')}_`;
}

/**
 * One page of records. Large zones are paged with Previous/Next buttons whose value names the
 * domain, type filter and page (no secret, well under the 2000-character value limit).
 */
export function recordsPage(
  domain: string,
  records: readonly RecordRow[],
  page: number,
  type: string | undefined,
): { text: string; blocks: KnownBlock[] } {
  const pages = Math.max(1, Math.ceil(records.length / RECORDS_PER_PAGE));
  const current = Math.min(Math.max(0, page), pages - 1);
  const slice = records.slice(current * RECORDS_PER_PAGE, (current + 1) * RECORDS_PER_PAGE);
  const title = `${displayName(domain)}: ${records.length} ${type === undefined ? '' : `${type} `}record(s)`;
  const blocks: KnownBlock[] = [header(title)];
  if (slice.length === 0) blocks.push(section('_No records._'));
  blocks.push(...packLines(slice.map(recordLine)));
  blocks.push(context('name · type · TTL · data · auto/manual'));
  if (pages > 1) {
    const value = (p: number) => JSON.stringify({ d: domain, t: type ?? '', p });
    const elements = [];
    if (current > 0) elements.push(button('◀ Previous', DNS_IDS.recordsPrev, value(current - 1)));
    if (current < pages - 1) elements.push(button('Next ▶', DNS_IDS.recordsNext, value(current + 1)));
    blocks.push(context(`Page ${current + 1} of ${pages}`), { type: 'actions', elements });
  }
  return { text: title, blocks };
}
