import type { KnownBlock } from '@slack/types';
import { button, context, packLines, section, slackDate } from '../../slack/blocks.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { REISSUE_IDS } from '../tls/ids.js';
import type { Alert, AlertButton, AlertCause } from './alert.js';
import { FAILURES_BEFORE_REPORT } from './blocks.js';
import { WATCH_IDS } from './ids.js';
import type { WatchItem } from './store.js';

/** Alerts in a channel: one alone (alertMessage), or several with one cause (batchMessage, outbox.ts). */

type Message = { text: string; blocks: KnownBlock[] };

/** Alert buttons repeat down a channel: each names its item to a screen reader. */
function alertButton(kind: AlertButton, item: WatchItem) {
  const what = `${item.kind === 'domain' ? 'domain' : 'certificate'} ${item.id}`;
  switch (kind) {
    case 'show':
      return button('Show', WATCH_IDS.show, `${item.kind}:${item.id}`, undefined, `Show ${what}`);
    case 'renew':
      return button('Renew', REISSUE_IDS.renewButton, item.id, 'primary', `Renew ${what}`);
    case 'reissue':
      return button('Reissue', REISSUE_IDS.reissueButton, item.id, 'primary', `Reissue ${what}`);
    case 'verify':
      return button('Verify DNSSEC', WATCH_IDS.verifyDnssec, item.id, undefined, `Verify DNSSEC of ${what}`);
  }
}

/** An alert in the channel: what happened and what to do, the buttons that do it, and whose watch. */
export function alertMessage(alert: Alert, item: WatchItem): Message {
  const loud = alert.level === 'loud' ? '<!here> ' : '';
  const text = `${loud}${alert.text}`;
  const remove = item.kind === 'domain' ? `/domain watch remove ${item.id}` : `/tls watch remove ${item.id}`;
  return {
    text,
    blocks: [
      section(text),
      { type: 'actions', elements: alert.buttons.map((kind) => alertButton(kind, item)) },
      context(
        `Watched since ${slackDate(item.addedAt, '{date_short}')} (added by <@${item.addedBy}>) · \`${remove}\` stops it`,
      ),
    ],
  };
}

/** Items named in a message about several; `/domain watch list` shows the rest. */
const MAX_BATCH_LINES = 100;

const itemsWord = (kinds: ReadonlySet<WatchItem['kind']>) =>
  kinds.size > 1 ? 'domains and certificates' : kinds.has('certificate') ? 'certificates' : 'domains';

/** What several items with the same cause have in common, and what to do (the words of checks.ts, plural). */
function causeHeadline(cause: AlertCause, count: number, items: string): string {
  const n = `${count} ${items}`;
  switch (cause.kind) {
    case 'domain-expiry':
      if (cause.threshold === 0) return `:rotating_light: ${n} have *expired*.`;
      return cause.lapses
        ? `:rotating_light: ${n} expire within ${cause.threshold} day(s) and will not be renewed: auto-renew is *off* or they are *cancelled*. Renew them at the registrar, or they lapse.`
        : `:calendar: ${n} expire within ${cause.threshold} day(s). Auto-renew is on: make sure the account can pay for the renewals.`;
    case 'certificate-expiry':
      if (cause.threshold === 0)
        return `:rotating_light: ${n} have *expired*. Renew them and install the new ones.`;
      return `:lock: ${n} expire within ${cause.threshold} day(s) and no renewal is ordered through Regdesk. Renew them now: validation can take days.`;
    case 'delegation':
      return `:twisted_rightwards_arrows: The delegation of ${n} changed. If nobody here changed it, check the registrar account now.`;
    case 'dnssec-drift':
      return `:closed_lock_with_key: DNSSEC of ${n} is not what it should be. Verify each with \`/dns dnssec DOMAIN verify\` and, if it stays so, fix the records.`;
    case 'dnssec-stuck':
      return `:hourglass: A DNSSEC change of ${n} has been pending for more than a day. Verify or cancel each with \`/dns dnssec DOMAIN verify\` or \`cancel\`.`;
    case 'certificate-status':
      return `:no_entry: ${n} are *${escapeMrkdwn(cause.status)}*: browsers will refuse them. Replace them and install the new ones.`;
    case 'certificate-stuck':
      return `:hourglass: ${n} have been pending longer than the usual ${cause.usualDays} days. Check their validation records, or complete their details at the registrar.`;
    case 'not-found':
      return `:grey_question: The registrar does not know ${n} (404): they may have left the account, or the key now belongs to another account. Stop watching the ones gone for good with \`/domain watch remove\` or \`/tls watch remove\`.`;
    case 'unreachable':
      return `:warning: ${n} could not be checked ${FAILURES_BEFORE_REPORT} times in a row: ${escapeMrkdwn(cause.reason.slice(0, 300))} Nothing is known to be wrong with them; Regdesk keeps trying and says here when something is due.`;
  }
}

/**
 * Several alerts of one sweep with the same cause, for one channel, as one message (outbox.ts): the
 * count and the cause, then a line per item. Mentions the channel when the alerts would have.
 */
export function batchMessage(
  cause: AlertCause,
  entries: readonly { item: WatchItem; alert: Alert }[],
): Message {
  const loud = entries.some((entry) => entry.alert.level === 'loud') ? '<!here> ' : '';
  const title = `${loud}${causeHeadline(cause, entries.length, itemsWord(new Set(entries.map((e) => e.item.kind))))}`;
  const lines = entries.slice(0, MAX_BATCH_LINES).map((entry) => `• ${entry.alert.line}`);
  if (entries.length > MAX_BATCH_LINES) lines.push(`…and ${entries.length - MAX_BATCH_LINES} more.`);
  return {
    text: title,
    blocks: [
      section(title),
      ...packLines(lines).slice(0, 45),
      context(
        '`/domain watch list` and `/tls watch list` show every watch · `/domain watch remove` or `/tls watch remove` stops one',
      ),
    ],
  };
}
