import type { KnownBlock } from '@slack/types';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { displayName, domainArgument } from '../../shared/domain-names.js';
import { context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { watchButton } from '../../slack/watch-button.js';
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
function when(ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return 'unknown';
  return slackDate(ms, '{date_short_pretty} ({ago})');
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? 'unknown' : value ? 'yes' : 'no';
}

/** Things a team must not miss, worst first. */
export function domainWarnings(domain: DomainCardData, now: number): string[] {
  const warnings: string[] = [];
  if (domain.cancelled === true) warnings.push(':no_entry: The domain is *cancelled*.');
  if (domain.expires_at !== undefined && domain.expires_at > 0) {
    const days = differenceInCalendarDays(domain.expires_at, now);
    const at = slackDate(domain.expires_at, '{ago}');
    if (days < 0) warnings.push(`:rotating_light: Expired ${at}.`);
    else if (days <= EXPIRY_WARNING_DAYS) warnings.push(`:warning: Expires ${at}.`);
  }
  if (domain.auto_renew === false && domain.cancelled !== true) {
    warnings.push(':warning: Auto-renew is *off*: the domain will lapse unless renewed by hand.');
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
        { type: 'mrkdwn', text: `*Owner*\n${escapeMrkdwn(domain.owner ?? 'unknown')}` },
        { type: 'mrkdwn', text: `*DNSSEC*\n${escapeMrkdwn(domain.dnssec_state ?? 'unknown')}` },
        { type: 'mrkdwn', text: `*Registered*\n${when(domain.registered_at)}` },
        { type: 'mrkdwn', text: `*Expires*\n${when(domain.expires_at)}` },
        { type: 'mrkdwn', text: `*Auto-renew*\n${yesNo(domain.auto_renew)}` },
        { type: 'mrkdwn', text: `*Cancelled*\n${yesNo(domain.cancelled)}` },
      ],
    },
    section(
      `*Delegated nameservers*\n${nameservers.length === 0 ? '_none reported_' : nameservers.map(codeSpan).join('\n')}`,
    ),
  ];
  const warnings = domainWarnings(domain, now);
  if (warnings.length > 0) blocks.push(section(warnings.join('\n')));
  if (name !== domain.domain) blocks.push(context(`ASCII form: ${codeSpan(domain.domain)}`));
  // Only a valid name becomes a button value; a watch then tells before it lapses (R37).
  if (domainArgument(domain.domain) === domain.domain) {
    blocks.push({
      type: 'actions',
      elements: [watchButton('domain', domain.domain, `Watch ${name}`)],
    });
  }
  // The fallback text is mrkdwn too: a registrar string in it must be as inert as in the blocks.
  return { text: `${escapeMrkdwn(name)}: expires ${when(domain.expires_at)}`, blocks };
}

function checkLine(row: CheckRow): string {
  const label = codeSpan(row.name.ok ? displayName(row.name.ascii) : row.name.input);
  switch (row.state.kind) {
    case 'waiting':
      return `:hourglass_flowing_sand: ${label}`;
    case 'available':
      return `:white_check_mark: ${label} is available`;
    case 'taken':
      return `:x: ${label} is taken${row.state.status === '' ? '' : ` (${escapeMrkdwn(row.state.status)})`}`;
    case 'invalid':
      return `:warning: ${label}: ${escapeMrkdwn(row.state.reason)}`;
    case 'unknown':
      return `:grey_question: ${label}: could not check — try again (${escapeMrkdwn(row.state.reason)})`;
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
      ? `Checking… ${rows.length - waiting} of ${rows.length} done.`
      : `${count('available')} available, ${count('taken')} taken, ${count('invalid')} invalid, ${count('unknown')} could not be checked.`;
  const blocks: KnownBlock[] = [
    header(`Availability of ${rows.length} name(s)`),
    ...packLines(rows.map(checkLine)),
    context(summary),
  ];
  if (overflow > 0)
    blocks.push(context(`${overflow} more name(s) were ignored: at most ${MAX_NAMES} per check.`));
  return { text: `Availability: ${summary}`, blocks };
}
