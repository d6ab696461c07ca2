import type { KnownBlock, View } from '@slack/types';
import { displayName } from '../../shared/domain-names.js';
import {
  button,
  context,
  divider,
  formModal,
  header,
  packLines,
  section,
  slackDate,
} from '../../slack/blocks.js';
import { inputBlock } from '../../slack/modal.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
import { lifeLeftLine } from '../tls/blocks.js';
import { WATCH_IDS } from './ids.js';
import { rdapSource } from './rdap-look.js';
import { ctPart, servedAndIssuedBlocks, servedPart } from './served-words.js';
import type { WatchedEntry } from './service.js';
import { CADENCES, type DigestSettings, type WatchChange, type WatchItem } from './store.js';

type Message = { text: string; blocks: KnownBlock[] };

/** Failed looks in a row before "could not check" is said (docs/requirements.md R37). */
export const FAILURES_BEFORE_REPORT = 3;
/** Lines of a list or digest section; a message holds at most 50 blocks. */
const MAX_LINES = 150;

export const itemName = (item: Pick<WatchItem, 'kind' | 'id'>) =>
  item.kind === 'domain' ? displayName(item.id) : item.id;

function stateLine({ item, state }: WatchedEntry, now: number): string {
  const label =
    item.kind === 'domain'
      ? text.watches.lineDomain({ name: codeSpan(itemName(item)) })
      : text.watches.lineCertificate({ id: codeSpan(item.id) });
  const about =
    (state.label === undefined ? '' : ` ${escapeMrkdwn(state.label)}`) +
    (item.via === 'rdap' ? ` (${rdapSource(state.rdap?.registrar)})` : '');
  if (state.failures >= FAILURES_BEFORE_REPORT)
    return text.watches.lineCouldNotCheck({
      label: `${label}${about}`,
      since: slackDate(state.failingSince ?? now),
    });
  if (state.checkedAt === undefined) return text.watches.lineFirstLookPending({ label });
  const parts: string[] = [];
  if (state.status !== undefined) parts.push(escapeMrkdwn(state.status));
  if (state.expiresAt !== undefined)
    parts.push(text.watches.lineExpires({ date: slackDate(state.expiresAt, '{date_short} ({ago})') }));
  else parts.push(text.watches.lineExpiryNotKnown);
  // How much of an issued certificate's life is left, as `/tls show` says it (tls/blocks.ts).
  const life =
    item.kind === 'certificate' && state.expiresAt !== undefined && state.startsAt !== undefined
      ? lifeLeftLine({ startsAt: state.startsAt, expiresAt: state.expiresAt }, now)
      : undefined;
  if (life !== undefined) parts.push(life);
  if (state.renewal !== undefined)
    parts.push(
      text.watches.lineRenewal({
        id: codeSpan(state.renewal.id),
        ordered: slackDate(state.renewal.placedAt, '{date_short}'),
        status: escapeMrkdwn(state.renewal.status),
      }),
    );
  if (state.autoRenew === false) parts.push(text.watches.lineAutoRenewOff);
  if (state.cancelled === true) parts.push(text.watches.lineCancelled);
  if (state.rdap !== undefined)
    parts.push(state.rdap.transferLock ? text.rdap.transferLockOn : text.rdap.transferLockOff);
  const asked = item.kind === 'certificate' ? servedPart(state.served) : ctPart(state.ct);
  if (asked !== undefined) parts.push(asked);
  return `${label}${about} · ${parts.join(' · ')}`;
}

/** A watch's line as the list shows it (the served and CT parts of the digest and App Home use it). */
export const watchLine = (now: number) => (entry: WatchedEntry) => stateLine(entry, now);

/** `/domain watch list` and `/tls watch list`: every watch with what its last look saw. */
export function listMessage(
  entries: readonly WatchedEntry[],
  limit: number,
  now: number,
  kind?: WatchItem['kind'],
): Message {
  const shown = kind === undefined ? entries : entries.filter((entry) => entry.item.kind === kind);
  const count = { count: shown.length };
  const title =
    kind === 'certificate'
      ? text.watches.listTitleCertificates(count)
      : kind === 'domain'
        ? text.watches.listTitleDomains(count)
        : text.watches.listTitleAll(count);
  if (shown.length === 0) {
    const empty = kind === 'certificate' ? text.watches.listEmptyCertificates : text.watches.listEmptyDomains;
    return { text: title, blocks: [header(title), section(empty)] };
  }
  const lines = shown.slice(0, MAX_LINES).map((entry) => stateLine(entry, now));
  return {
    text: title,
    blocks: [
      header(title),
      ...packLines(lines).slice(0, 45),
      context(
        [
          text.watches.listUsed({ used: entries.length, limit }),
          ...(shown.length > MAX_LINES ? [text.watches.listTruncated({ shown: MAX_LINES })] : []),
        ].join(' '),
      ),
    ],
  };
}

function describeSettings(settings: DigestSettings | undefined, next: number | undefined): string {
  if (settings?.channel === undefined) return text.watches.homeNoChannel;
  const at = { hour: String(settings.hour).padStart(2, '0'), timeZone: escapeMrkdwn(settings.timeZone) };
  const when =
    settings.cadence === 'off'
      ? text.watches.homeNoSchedule
      : settings.cadence === 'daily'
        ? text.watches.homeDaily(at)
        : text.watches.homeWeekly({ day: settings.cadence, ...at });
  return next === undefined
    ? text.watches.homeSettings({ channel: settings.channel, when })
    : text.watches.homeSettingsNext({ channel: settings.channel, when, next: slackDate(next) });
}

/** The digest: what expires within 60 days, soonest first; what changed since the last one; what could not be checked. */
export function digestMessage(
  coming: readonly WatchedEntry[],
  changes: readonly WatchChange[],
  failing: readonly WatchedEntry[],
  watched: number,
  now: number,
  foreign: readonly string[] = [],
  all: readonly WatchedEntry[] = [],
): Message {
  const expiring = coming.slice(0, MAX_LINES).map((entry) => stateLine(entry, now));
  const blocks: KnownBlock[] = [
    header(text.watches.digestTitle),
    section(text.watches.digestExpiringHeading({ count: coming.length })),
    ...(expiring.length === 0
      ? [section(text.watches.digestNothingExpiring)]
      : packLines(expiring).slice(0, 20)),
    section(text.watches.digestChangesHeading({ count: changes.length })),
    ...(changes.length === 0
      ? [section(text.watches.digestNoChanges)]
      : packLines(
          changes.slice(0, MAX_LINES).map((change) =>
            text.watches.digestChange({
              at: slackDate(change.at, '{date_short} {time}'),
              change: markup(change.text),
            }),
          ),
        ).slice(0, 15)),
  ];
  if (failing.length > 0) {
    blocks.push(section(text.watches.digestFailingHeading({ count: failing.length })));
    blocks.push(...packLines(failing.slice(0, MAX_LINES).map((entry) => stateLine(entry, now))).slice(0, 5));
  }
  blocks.push(...servedAndIssuedBlocks(all, watchLine(now), 10));
  if (foreign.length > 0)
    blocks.push(
      context(
        text.watches.digestForeign({
          ids: foreign.slice(0, 20).map(codeSpan).join(', '),
          more: Math.max(0, foreign.length - 20),
        }),
      ),
    );
  blocks.push(context(text.watches.digestFooter({ watched, asOf: slackDate(now) })));
  return {
    text: text.watches.digestSummary({ expiring: coming.length, changes: changes.length }),
    blocks,
  };
}

/**
 * App Home: the next expiries, what wants a look among served certificates and CT (`all`: every
 * watch), and the digest settings, with the settings and digest buttons.
 */
export function homeSection(
  coming: readonly WatchedEntry[],
  settings: DigestSettings | undefined,
  next: number | undefined,
  now: number,
  all: readonly WatchedEntry[] = [],
): KnownBlock[] {
  return [
    header(text.watches.homeTitle),
    section(
      coming.length === 0
        ? text.watches.homeNothingComing
        : coming
            .slice(0, 10)
            .map((entry) => stateLine(entry, now))
            .join('\n'),
    ),
    ...(coming.length > 10 ? [context(text.watches.homeMore({ count: coming.length - 10 }))] : []),
    ...servedAndIssuedBlocks(all, watchLine(now), 5),
    section(describeSettings(settings, next)),
    {
      type: 'actions',
      elements: [
        button(text.watches.digestSettingsButton, WATCH_IDS.openSettings, 'settings'),
        button(text.watches.postDigestNowButton, WATCH_IDS.digestNow, 'home'),
      ],
    },
    divider(),
  ];
}

const option = (label: string, value: string) => ({
  text: { type: 'plain_text' as const, text: label },
  value,
});
const cadenceLabel = (cadence: (typeof CADENCES)[number]) =>
  cadence === 'off'
    ? text.watches.cadenceOff
    : cadence === 'daily'
      ? text.watches.cadenceDaily
      : text.watches.cadenceWeekly({ day: `${cadence[0]?.toUpperCase()}${cadence.slice(1)}` });

/** The settings modal: channel, cadence, hour and time zone (the opener's own time zone first). */
export function settingsModal(current: DigestSettings): View {
  const hours = Array.from({ length: 24 }, (_, hour) =>
    option(text.watches.hourOption({ hour: String(hour).padStart(2, '0') }), String(hour)),
  );
  const cadences = CADENCES.map((cadence) => option(cadenceLabel(cadence), cadence));
  return formModal(
    WATCH_IDS.settingsModal,
    undefined,
    text.watches.settingsTitle,
    text.watches.settingsSubmit,
    [
      inputBlock(
        WATCH_IDS.channel,
        text.watches.settingsChannelLabel,
        {
          type: 'conversations_select',
          filter: { include: ['public', 'private'], exclude_bot_users: true },
          ...(current.channel === undefined ? {} : { initial_conversation: current.channel }),
        },
        {
          optional: true,
          hint: text.watches.settingsChannelHint,
        },
      ),
      inputBlock(WATCH_IDS.cadence, text.watches.settingsCadenceLabel, {
        type: 'static_select',
        options: cadences,
        initial_option: option(cadenceLabel(current.cadence), current.cadence),
      }),
      inputBlock(WATCH_IDS.hour, text.watches.settingsHourLabel, {
        type: 'static_select',
        options: hours,
        initial_option: hours[current.hour],
      }),
      inputBlock(
        WATCH_IDS.timeZone,
        text.watches.settingsTimeZoneLabel,
        { type: 'plain_text_input', initial_value: current.timeZone, max_length: 64 },
        { hint: text.watches.settingsTimeZoneHint },
      ),
      { type: 'actions', elements: [button(text.watches.postDigestNowButton, WATCH_IDS.digestNow, 'modal')] },
    ],
  );
}

/** What `watch add` answers: what is now watched, what already was, and what was refused. */
export function addedMessage(
  kind: WatchItem['kind'],
  added: readonly string[],
  already: readonly string[],
  refused: readonly string[],
): Message {
  const name = (id: string) => codeSpan(itemName({ kind, id }));
  const lines = [
    ...(added.length === 0
      ? []
      : [text.watches.nowWatching({ items: text.slack.list({ items: added.map(name) }) })]),
    ...(already.length === 0
      ? []
      : [text.watches.alreadyWatched({ items: text.slack.list({ items: already.map(name) }) })]),
    ...refused,
  ];
  const said = lines.join('\n') || text.watches.nothingToAdd;
  return { text: said, blocks: packLines(lines.length === 0 ? [said] : lines).slice(0, 45) };
}
