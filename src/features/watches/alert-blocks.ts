import type { KnownBlock } from '@slack/types';
import { button, context, packLines, section, slackDate } from '../../slack/blocks.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { REISSUE_IDS } from '../tls/ids.js';
import type { Alert, AlertButton, AlertCause } from './alert.js';
import { FAILURES_BEFORE_REPORT } from './blocks.js';
import { WATCH_IDS } from './ids.js';
import type { WatchItem } from './store.js';

/** Alerts in a channel: one alone (alertMessage), or several with one cause (batchMessage, outbox.ts). */

type Message = { text: string; blocks: KnownBlock[] };

/** Alert buttons repeat down a channel: each names its item to a screen reader. */
function alertButton(kind: AlertButton, item: WatchItem, alert: Alert) {
  const what = {
    item:
      item.kind === 'domain'
        ? text.watches.itemDomain({ id: item.id })
        : text.watches.itemCertificate({ id: item.id }),
  };
  switch (kind) {
    case 'show':
      return button(
        text.watches.buttonShow,
        WATCH_IDS.show,
        `${item.kind}:${item.id}`,
        undefined,
        text.watches.showItem(what),
      );
    case 'renew':
      return button(
        text.watches.buttonRenew,
        REISSUE_IDS.renewButton,
        item.id,
        'primary',
        text.watches.renewItem(what),
      );
    case 'reissue':
      return button(
        text.watches.buttonReissue,
        REISSUE_IDS.reissueButton,
        item.id,
        'primary',
        text.watches.reissueItem(what),
      );
    case 'verify':
      return button(
        text.watches.buttonVerifyDnssec,
        WATCH_IDS.verifyDnssec,
        item.id,
        undefined,
        text.watches.verifyDnssecOf(what),
      );
    case 'known':
      // The zone and the issuance's TBS digest: known-issuance.ts reads both back and checks them.
      return button(
        text.served.buttonMarkKnown,
        WATCH_IDS.markKnown,
        `${item.id}|${alert.issuance ?? ''}`,
        undefined,
        text.served.markKnownOf({ zone: item.id }),
      );
  }
}

/** An alert in the channel: what happened and what to do, the buttons that do it, and whose watch. */
export function alertMessage(alert: Alert, item: WatchItem): Message {
  const loud = alert.level === 'loud' ? '<!here> ' : '';
  const said = `${loud}${alert.text}`;
  const remove = item.kind === 'domain' ? `/domain watch remove ${item.id}` : `/tls watch remove ${item.id}`;
  return {
    text: said,
    blocks: [
      section(said),
      // A domain held elsewhere has nothing here to act on: Slack refuses an actions block without elements.
      ...(alert.buttons.length === 0
        ? []
        : [
            {
              type: 'actions' as const,
              elements: alert.buttons.map((kind) => alertButton(kind, item, alert)),
            },
          ]),
      context(
        text.watches.alertFooter({
          since: slackDate(item.addedAt, '{date_short}'),
          addedBy: item.addedBy,
          remove,
        }),
      ),
    ],
  };
}

/** Items named in a message about several; `/domain watch list` shows the rest. */
const MAX_BATCH_LINES = 100;

/** "12 domains", "3 certificates" or "15 domains and certificates". */
const countOf = (kinds: ReadonlySet<WatchItem['kind']>, count: number) =>
  kinds.size > 1
    ? text.watches.countItems({ count })
    : kinds.has('certificate')
      ? text.watches.countCertificates({ count })
      : text.watches.countDomains({ count });

/** What several items with the same cause have in common, and what to do (the words of checks.ts, plural). */
function causeHeadline(cause: AlertCause, items: string): string {
  switch (cause.kind) {
    case 'domain-expiry':
      if (cause.threshold === 0) return text.watches.batchExpired({ items });
      return cause.lapses
        ? text.watches.batchDomainsLapse({ items, days: cause.threshold })
        : text.watches.batchDomainsExpire({ items, days: cause.threshold });
    case 'rdap-expiry':
      return cause.threshold === 0
        ? text.rdap.batchExpired({ items })
        : text.rdap.batchExpire({ items, days: cause.threshold });
    case 'certificate-expiry':
      if (cause.threshold === 0) return text.watches.batchCertificatesExpired({ items });
      return text.watches.batchCertificatesExpire({ items, days: cause.threshold });
    case 'delegation':
      return text.watches.batchDelegation({ items });
    case 'dnssec-drift':
      return text.watches.batchDnssecDrift({ items });
    case 'dnssec-stuck':
      return text.watches.batchDnssecStuck({ items });
    case 'certificate-status':
      return text.watches.batchCertificateStatus({ items, status: escapeMrkdwn(cause.status) });
    case 'certificate-stuck':
      return text.watches.batchCertificateStuck({ items, days: cause.usualDays });
    case 'not-found':
      return text.watches.batchNotFound({ items });
    case 'dns-finding':
      return text.watches.batchDnsFinding({ items });
    case 'served-stale':
      return cause.why === 'older' ? text.served.batchOlder({ items }) : text.served.batchSooner({ items });
    case 'served-unchecked':
      return text.served.batchServedUnchecked({ items });
    case 'ct-foreign':
      return text.served.batchCtForeign({ items });
    case 'ct-unchecked':
      return text.served.batchCtUnchecked({ items });
    case 'unreachable':
      return text.watches.batchUnreachable({
        items,
        times: FAILURES_BEFORE_REPORT,
        reason: escapeMrkdwn(cause.reason.slice(0, 300)),
      });
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
  const items = countOf(new Set(entries.map((e) => e.item.kind)), entries.length);
  const title = `${loud}${causeHeadline(cause, items)}`;
  const lines = entries
    .slice(0, MAX_BATCH_LINES)
    .map((entry) => text.watches.batchLine({ line: entry.alert.line }));
  if (entries.length > MAX_BATCH_LINES)
    lines.push(text.watches.batchMore({ count: entries.length - MAX_BATCH_LINES }));
  return {
    text: title,
    blocks: [section(title), ...packLines(lines).slice(0, 45), context(text.watches.batchFooter)],
  };
}
