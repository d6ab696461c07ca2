import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { DnsRecord, DnsZone } from '../../registrar/index.js';
import { displayName, domainArgument } from '../../shared/domain-names.js';
import { button, context, header, packLines, section } from '../../slack/blocks.js';
import { writeMetadata } from '../../slack/modal.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { recordRow } from '../records/blocks.js';
import { DNS_IDS } from './ids.js';
import type { RecordPage } from './service.js';

/** A paging button's value: domain (ASCII, as the command normalised it), type filter or '', page. */
export const PageRef = z.lazy(() =>
  z.object({
    d: z.string().refine((d) => domainArgument(d) === d),
    t: z.string().max(10),
    p: z.number().int(),
  }),
);

export function zoneCard(zone: DnsZone): { text: string; blocks: KnownBlock[] } {
  const soa = zone.soa;
  const counts = zone.counts;
  const byType = Object.entries(counts?.by_type ?? {})
    .map(([type, count]) => `${escapeMrkdwn(type)}: ${escapeMrkdwn(String(count))}`)
    .join(' · ');
  const nameservers = (zone.delegation_nameservers ?? []).map((ns) => codeSpan(ns.host)).join(', ');
  const blocks: KnownBlock[] = [
    header(text.dns.zoneTitle({ name: displayName(zone.domain) })),
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: text.dns.activeField({ value: flag(zone.active) }) },
        {
          type: 'mrkdwn',
          text: (zone.signed ? text.dns.zoneDnssecSignedField : text.dns.zoneDnssecField)({
            state:
              zone.dnssec_state === undefined
                ? text.dns.unknown
                : text.dns.dnssecState({ state: zone.dnssec_state }),
          }),
        },
        {
          type: 'mrkdwn',
          text: text.dns.serviceNameserversField({ value: flag(zone.using_regfish_nameservers) }),
        },
        {
          type: 'mrkdwn',
          text: text.dns.recordCountsField({
            total: counts?.records_total ?? zone.record_count ?? '?',
            active: counts?.records_active ?? '?',
            auto: counts?.records_auto ?? '?',
            manual: counts?.records_manual ?? '?',
          }),
        },
      ],
    },
    section(
      text.dns.soaLine({
        primary: codeSpan(soa?.primary_nameserver ?? '?'),
        mailbox: codeSpan(soa?.mailbox ?? '?'),
        serial: soa?.serial ?? '?',
        refresh: soa?.refresh ?? '?',
        retry: soa?.retry ?? '?',
        expire: soa?.expire ?? '?',
        minimum: soa?.minimum ?? '?',
        ttl: soa?.ttl ?? '?',
      }),
    ),
    section(
      text.dns.delegationSection({ nameservers: nameservers === '' ? text.dns.noneReported : nameservers }),
    ),
  ];
  if (byType !== '') blocks.push(context(text.dns.countsByType({ counts: byType })));
  return { text: text.dns.zoneTitle({ name: escapeMrkdwn(zone.domain) }), blocks };
}

function flag(value: boolean | undefined): string {
  return value === undefined ? text.dns.unknown : value ? text.dns.yes : text.dns.no;
}

function recordLine(record: DnsRecord): string {
  const marks = [
    record.auto ? text.dns.recordAuto : text.dns.recordManual,
    record.active === false ? text.dns.recordInactive : '',
  ].filter((m) => m !== '');
  const data = record.data === undefined ? '—' : codeSpan(truncate(record.data, 180));
  return `${codeSpan(record.name)} *${escapeMrkdwn(record.type)}* ${record.ttl ?? '—'} ${data} _${marks.join(', ')}_`;
}

/**
 * One page of records, with Previous/Next buttons whose value names the domain, type filter and page
 * (no secret, well under the 2000-character value limit).
 */
export function recordsPage(page: RecordPage): { text: string; blocks: KnownBlock[] } {
  const { domain, type, pages, page: current } = page;
  const title =
    type === undefined
      ? text.dns.recordsTitle({ name: displayName(domain), total: page.total })
      : text.dns.recordsOfTypeTitle({ name: displayName(domain), total: page.total, type });
  const blocks: KnownBlock[] = [header(title)];
  if (page.records.length === 0) blocks.push(section(text.dns.noRecords));
  blocks.push(
    ...(page.editable
      ? page.records.map((record) => recordRow(recordLine(record), record))
      : packLines(page.records.map(recordLine))),
  );
  blocks.push(context(text.dns.recordsLegend));
  if (pages > 1) {
    const value = (p: number) => writeMetadata(PageRef, { d: domain, t: type ?? '', p });
    const elements = [];
    if (current > 0)
      elements.push(
        button(
          text.dns.previousButton,
          DNS_IDS.recordsPrev,
          value(current - 1),
          undefined,
          text.dns.previousPageLabel({ name: displayName(domain) }),
        ),
      );
    if (current < pages - 1)
      elements.push(
        button(
          text.dns.nextButton,
          DNS_IDS.recordsNext,
          value(current + 1),
          undefined,
          text.dns.nextPageLabel({ name: displayName(domain) }),
        ),
      );
    blocks.push(context(text.dns.pageOf({ page: current + 1, pages })), { type: 'actions', elements });
  }
  return { text: escapeMrkdwn(title), blocks };
}
