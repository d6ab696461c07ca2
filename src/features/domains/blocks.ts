import type { KnownBlock } from '@slack/types';
import { daysUntil } from '../../shared/days.js';
import { displayName, domainArgument } from '../../shared/domain-names.js';
import { context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { watchButton } from '../../slack/watch-button.js';
import { type Markup, markup, text } from '../../text/index.js';
import { type CheckRow, type CheckState, MAX_NAMES } from './service.js';

/** The fields of the registrar's domain object (docs/registrar-api.md §2.7) the card shows; timestamps in epoch ms. */
export interface DomainCardData {
  domain: string;
  owner?: string | undefined;
  registered_at?: number | undefined;
  expires_at?: number | undefined;
  auto_renew?: boolean | undefined;
  cancelled?: boolean | undefined;
  dnssec_state?: string | undefined;
  nameservers?: readonly string[] | undefined;
}

const EXPIRY_WARNING_DAYS = 30;

/**
 * Each reader sees the date in their own time zone, and "in 3 days" is worked out by Slack when the
 * message is shown, so a shared card never shows a frozen relative phrase (docs/requirements.md R32).
 */
function when(ms: number | undefined): Markup {
  if (ms === undefined || ms <= 0) return markup(text.domains.unknown);
  return slackDate(ms, '{date_short_pretty} ({ago})');
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? text.domains.unknown : value ? text.domains.yes : text.domains.no;
}

/** Things a team must not miss, worst first. */
export function domainWarnings(domain: DomainCardData, now: number): string[] {
  const warnings: string[] = [];
  if (domain.cancelled === true) warnings.push(text.domains.cancelledWarning);
  if (domain.expires_at !== undefined && domain.expires_at > 0) {
    // The one day count (src/shared/days.ts), the watches' too: the card warns on the day the
    // 30-day alert comes, and "expired" from the moment the watches say so.
    const at = slackDate(domain.expires_at, '{ago}');
    if (domain.expires_at <= now) warnings.push(text.domains.expiredWarning({ at }));
    else if (daysUntil(domain.expires_at, now) <= EXPIRY_WARNING_DAYS)
      warnings.push(text.domains.expiresSoonWarning({ at }));
  }
  if (domain.auto_renew === false && domain.cancelled !== true) {
    warnings.push(text.domains.autoRenewOffWarning);
  }
  return warnings;
}

export function domainCard(domain: DomainCardData, now: number): { text: string; blocks: KnownBlock[] } {
  const name = displayName(domain.domain);
  const nameservers = domain.nameservers ?? [];
  const blocks: KnownBlock[] = [
    header(name),
    {
      type: 'section',
      fields: [
        {
          type: 'mrkdwn',
          text: text.domains.ownerField({ owner: escapeMrkdwn(domain.owner ?? text.domains.unknown) }),
        },
        {
          type: 'mrkdwn',
          text: text.domains.dnssecField({
            state:
              domain.dnssec_state === undefined
                ? text.domains.unknown
                : text.dns.dnssecState({ state: domain.dnssec_state }),
          }),
        },
        { type: 'mrkdwn', text: text.domains.registeredField({ when: when(domain.registered_at) }) },
        { type: 'mrkdwn', text: text.domains.expiresField({ when: when(domain.expires_at) }) },
        { type: 'mrkdwn', text: text.domains.autoRenewField({ value: yesNo(domain.auto_renew) }) },
        { type: 'mrkdwn', text: text.domains.cancelledField({ value: yesNo(domain.cancelled) }) },
      ],
    },
    section(
      text.domains.delegatedNameservers({
        nameservers:
          nameservers.length === 0 ? text.domains.noneReported : nameservers.map(codeSpan).join('\n'),
      }),
    ),
  ];
  const warnings = domainWarnings(domain, now);
  if (warnings.length > 0) blocks.push(section(warnings.join('\n')));
  if (name !== domain.domain)
    blocks.push(context(text.domains.asciiForm({ ascii: codeSpan(domain.domain) })));
  // Only a valid name becomes a button value; a watch then tells before it lapses (R37).
  if (domainArgument(domain.domain) === domain.domain) {
    blocks.push({
      type: 'actions',
      elements: [watchButton('domain', domain.domain, text.domains.watchButton({ name }))],
    });
  }
  // The fallback text is mrkdwn too: a registrar string in it must be as inert as in the blocks.
  return {
    text: text.domains.cardFallback({ name: escapeMrkdwn(name), expires: when(domain.expires_at) }),
    blocks,
  };
}

function checkLine(row: CheckRow): string {
  const label = codeSpan(row.name.ok ? displayName(row.name.ascii) : row.name.input);
  switch (row.state.kind) {
    case 'waiting':
      return text.domains.checkWaiting({ name: label });
    case 'available':
      return text.domains.checkAvailable({ name: label });
    case 'taken':
      return row.state.status === ''
        ? text.domains.checkTaken({ name: label })
        : text.domains.checkTakenWithStatus({ name: label, status: escapeMrkdwn(row.state.status) });
    case 'invalid':
      return text.domains.checkInvalid({ name: label, reason: escapeMrkdwn(row.state.reason) });
    case 'unknown':
      return text.domains.checkUnknown({ name: label, reason: escapeMrkdwn(row.state.reason) });
  }
}

/** The one ephemeral message of a `/domain check`, in progress or final. */
export function checkMessage(
  rows: readonly CheckRow[],
  overflow: number,
): { text: string; blocks: KnownBlock[] } {
  const count = (kind: CheckState['kind']) => rows.filter((row) => row.state.kind === kind).length;
  const waiting = count('waiting');
  const summary =
    waiting > 0
      ? text.domains.checkProgress({ done: rows.length - waiting, total: rows.length })
      : text.domains.checkDone({
          available: count('available'),
          taken: count('taken'),
          invalid: count('invalid'),
          unknown: count('unknown'),
        });
  const blocks: KnownBlock[] = [
    header(text.domains.checkTitle({ count: rows.length })),
    ...packLines(rows.map(checkLine)),
    context(summary),
  ];
  if (overflow > 0) blocks.push(context(text.domains.checkOverflow({ overflow, max: MAX_NAMES })));
  return { text: text.domains.checkFallback({ summary }), blocks };
}
