import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { DnsRecord, DnsZone } from '../../registrar/index.js';
import { displayName, domainArgument } from '../../shared/domain-names.js';
import { button, context, header, packLines, section } from '../../slack/blocks.js';
import { writeMetadata } from '../../slack/modal.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { DNS_IDS } from './ids.js';
import type { RecordPage } from './service.js';

/** A paging button's value: domain (ASCII, as the command normalised it), type filter or '', page. */
export const PageRef = z.object({
  d: z.string().refine((d) => domainArgument(d) === d),
  t: z.string().max(10),
  p: z.number().int(),
});

export function zoneCard(zone: DnsZone): { text: string; blocks: KnownBlock[] } {
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
  return { text: `Zone ${escapeMrkdwn(zone.domain)}`, blocks };
}

function flag(value: boolean | undefined): string {
  return value === undefined ? 'unknown' : value ? 'yes' : 'no';
}

function recordLine(record: DnsRecord): string {
  const marks = [record.auto ? 'auto' : 'manual', record.active === false ? 'inactive' : ''].filter(
    (m) => m !== '',
  );
  const data = record.data === undefined ? '—' : codeSpan(truncate(record.data, 180));
  return `${codeSpan(record.name)} *${escapeMrkdwn(record.type)}* ${record.ttl ?? '—'} ${data} _${marks.join(', ')}_`;
}

/**
 * One page of records, with Previous/Next buttons whose value names the domain, type filter and page
 * (no secret, well under the 2000-character value limit).
 */
export function recordsPage(page: RecordPage): { text: string; blocks: KnownBlock[] } {
  const { domain, type, pages, page: current } = page;
  const title = `${displayName(domain)}: ${page.total} ${type === undefined ? '' : `${type} `}record(s)`;
  const blocks: KnownBlock[] = [header(title)];
  if (page.records.length === 0) blocks.push(section('_No records._'));
  blocks.push(...packLines(page.records.map(recordLine)));
  blocks.push(context('name · type · TTL · data · auto/manual'));
  if (pages > 1) {
    const value = (p: number) => writeMetadata(PageRef, { d: domain, t: type ?? '', p });
    const elements = [];
    if (current > 0)
      elements.push(
        button(
          '◀ Previous',
          DNS_IDS.recordsPrev,
          value(current - 1),
          undefined,
          `Previous page of ${displayName(domain)} records`,
        ),
      );
    if (current < pages - 1)
      elements.push(
        button(
          'Next ▶',
          DNS_IDS.recordsNext,
          value(current + 1),
          undefined,
          `Next page of ${displayName(domain)} records`,
        ),
      );
    blocks.push(context(`Page ${current + 1} of ${pages}`), { type: 'actions', elements });
  }
  return { text: escapeMrkdwn(title), blocks };
}
