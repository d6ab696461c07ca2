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
import { WATCH_IDS } from './ids.js';
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
      ? `:globe_with_meridians: ${codeSpan(itemName(item))}`
      : `:lock: ${codeSpan(item.id)}`;
  const about = state.label === undefined ? '' : ` ${escapeMrkdwn(state.label)}`;
  if (state.failures >= FAILURES_BEFORE_REPORT)
    return `${label}${about} · :warning: could not check since ${slackDate(state.failingSince ?? now)}`;
  if (state.checkedAt === undefined) return `${label} · _first look pending_`;
  const parts: string[] = [];
  if (state.status !== undefined) parts.push(escapeMrkdwn(state.status));
  if (state.expiresAt !== undefined)
    parts.push(`expires ${slackDate(state.expiresAt, '{date_short} ({ago})')}`);
  else parts.push('expiry not known');
  if (state.renewal !== undefined)
    parts.push(
      `renewal ${codeSpan(state.renewal.id)} ordered ${slackDate(state.renewal.placedAt, '{date_short}')} (${escapeMrkdwn(state.renewal.status)})`,
    );
  if (state.autoRenew === false) parts.push('*auto-renew off*');
  if (state.cancelled === true) parts.push('*cancelled*');
  return `${label}${about} · ${parts.join(' · ')}`;
}

/** `/domain watch list` and `/tls watch list`: every watch with what its last look saw. */
export function listMessage(
  entries: readonly WatchedEntry[],
  limit: number,
  now: number,
  kind?: WatchItem['kind'],
): Message {
  const shown = kind === undefined ? entries : entries.filter((entry) => entry.item.kind === kind);
  const what =
    kind === 'certificate' ? 'certificates' : kind === 'domain' ? 'domains' : 'domains and certificates';
  const title = `Watched ${what} (${shown.length})`;
  if (shown.length === 0) {
    const add = kind === 'certificate' ? '`/tls watch add CERTIFICATE_ID`' : '`/domain watch add DOMAIN`';
    return { text: title, blocks: [header(title), section(`Nothing is watched yet. Add with ${add}.`)] };
  }
  const lines = shown.slice(0, MAX_LINES).map((entry) => stateLine(entry, now));
  return {
    text: title,
    blocks: [
      header(title),
      ...packLines(lines).slice(0, 45),
      context(
        `${entries.length} of ${limit} watches used in this workspace.${shown.length > MAX_LINES ? ` Showing the first ${MAX_LINES}.` : ''}`,
      ),
    ],
  };
}

function describeSettings(settings: DigestSettings | undefined, next: number | undefined): string {
  if (settings?.channel === undefined)
    return 'No digest channel: alerts go to the channel where each watch was added. Set one with `/domain watch settings`.';
  const when =
    settings.cadence === 'off'
      ? 'no scheduled digest'
      : `${settings.cadence === 'daily' ? 'daily' : `every ${settings.cadence}`} at ${String(settings.hour).padStart(2, '0')}:00 ${escapeMrkdwn(settings.timeZone)}`;
  const nextLine = next === undefined ? '' : ` (next ${slackDate(next)})`;
  return `Digest and alerts in <#${settings.channel}>: ${when}${nextLine}.`;
}

/** The digest: what expires within 60 days, soonest first; what changed since the last one; what could not be checked. */
export function digestMessage(
  coming: readonly WatchedEntry[],
  changes: readonly WatchChange[],
  failing: readonly WatchedEntry[],
  watched: number,
  now: number,
): Message {
  const title = 'Watch digest';
  const expiring = coming.slice(0, MAX_LINES).map((entry) => stateLine(entry, now));
  const blocks: KnownBlock[] = [
    header(title),
    section(`*Expiring in the next 60 days (${coming.length})*`),
    ...(expiring.length === 0
      ? [section('Nothing expires in the next 60 days.')]
      : packLines(expiring).slice(0, 20)),
    section(`*What changed (${changes.length})*`),
    ...(changes.length === 0
      ? [section('No changes since the last digest.')]
      : packLines(
          changes
            .slice(0, MAX_LINES)
            .map((change) => `${slackDate(change.at, '{date_short} {time}')} ${change.text}`),
        ).slice(0, 15)),
  ];
  if (failing.length > 0) {
    blocks.push(section(`*Could not be checked (${failing.length})*`));
    blocks.push(...packLines(failing.slice(0, MAX_LINES).map((entry) => stateLine(entry, now))).slice(0, 5));
  }
  blocks.push(
    context(`${watched} watched · as of ${slackDate(now)} · \`/domain watch list\` shows them all`),
  );
  return {
    text: `${title}: ${coming.length} expiring in the next 60 days, ${changes.length} change(s)`,
    blocks,
  };
}

/** App Home: the next expiries and the digest settings, with the settings and digest buttons. */
export function homeSection(
  coming: readonly WatchedEntry[],
  settings: DigestSettings | undefined,
  next: number | undefined,
  now: number,
): KnownBlock[] {
  return [
    header('Coming up'),
    section(
      coming.length === 0
        ? 'Nothing watched expires in the next 60 days. Watch more with `/domain watch add` and `/tls watch add`.'
        : coming
            .slice(0, 10)
            .map((entry) => stateLine(entry, now))
            .join('\n'),
    ),
    ...(coming.length > 10 ? [context(`…and ${coming.length - 10} more: \`/domain watch list\`.`)] : []),
    section(describeSettings(settings, next)),
    {
      type: 'actions',
      elements: [
        button('Digest settings', WATCH_IDS.openSettings, 'settings'),
        button('Post digest now', WATCH_IDS.digestNow, 'home'),
      ],
    },
    divider(),
  ];
}

const option = (text: string, value: string) => ({ text: { type: 'plain_text' as const, text }, value });
const cadenceLabel = (cadence: (typeof CADENCES)[number]) =>
  cadence === 'off'
    ? 'No scheduled digest'
    : cadence === 'daily'
      ? 'Every day'
      : `Every ${cadence[0]?.toUpperCase()}${cadence.slice(1)}`;

/** The settings modal: channel, cadence, hour and time zone (the opener's own time zone first). */
export function settingsModal(current: DigestSettings): View {
  const hours = Array.from({ length: 24 }, (_, hour) =>
    option(`${String(hour).padStart(2, '0')}:00`, String(hour)),
  );
  const cadences = CADENCES.map((cadence) => option(cadenceLabel(cadence), cadence));
  return formModal(WATCH_IDS.settingsModal, undefined, 'Watch digest', 'Save', [
    inputBlock(
      WATCH_IDS.channel,
      'Digest and alert channel',
      {
        type: 'conversations_select',
        filter: { include: ['public', 'private'], exclude_bot_users: true },
        ...(current.channel === undefined ? {} : { initial_conversation: current.channel }),
      },
      {
        optional: true,
        hint: 'Empty: alerts go where each watch was added, and no digest is posted. Invite Regdesk to a private channel first.',
      },
    ),
    inputBlock(WATCH_IDS.cadence, 'When', {
      type: 'static_select',
      options: cadences,
      initial_option: option(cadenceLabel(current.cadence), current.cadence),
    }),
    inputBlock(WATCH_IDS.hour, 'Hour', {
      type: 'static_select',
      options: hours,
      initial_option: hours[current.hour],
    }),
    inputBlock(
      WATCH_IDS.timeZone,
      'Time zone',
      { type: 'plain_text_input', initial_value: current.timeZone, max_length: 64 },
      { hint: 'An IANA time zone such as Europe/Berlin or America/New_York.' },
    ),
    { type: 'actions', elements: [button('Post digest now', WATCH_IDS.digestNow, 'modal')] },
  ]);
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
      : [
          `:eyes: Now watching ${added.map(name).join(', ')}: Regdesk looks within a minute and says here if anything is due.`,
        ]),
    ...(already.length === 0 ? [] : [`Already watched: ${already.map(name).join(', ')}.`]),
    ...refused,
  ];
  const text = lines.join('\n') || 'Nothing to add.';
  return { text, blocks: packLines(lines.length === 0 ? [text] : lines).slice(0, 45) };
}
