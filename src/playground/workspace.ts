import { BOT_USER, type SlackStandIn, WORKSPACE } from './slack-standin.js';
import type { PlaygroundChannel, PlaygroundUser } from './web/protocol.js';

export const PLAYGROUND_WORKSPACE_NAME = 'Playground';
export const BOT_NAME = 'Regdesk';
export const GENERAL = 'C0GENERAL';
export const OPS = 'C0OPS';

/** The people one can act as: two admins (so approvals can be asked and given) and a plain member. */
export const PLAYGROUND_USERS: readonly PlaygroundUser[] = [
  {
    id: 'U0ADA',
    name: 'ada',
    realName: 'Ada Lovelace',
    isAdmin: true,
    isOwner: true,
    tz: 'Europe/Berlin',
    locale: 'en-GB',
  },
  {
    id: 'U0GRACE',
    name: 'grace',
    realName: 'Grace Hopper',
    isAdmin: true,
    isOwner: false,
    tz: 'America/New_York',
    locale: 'en-US',
  },
  {
    id: 'U0LINUS',
    name: 'linus',
    realName: 'Linus Member',
    isAdmin: false,
    isOwner: false,
    tz: 'UTC',
    locale: 'de-DE',
  },
];

/** The time zone's current offset in seconds, as Slack's `tz_offset` carries it. */
function tzOffset(tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(parts ?? '');
  if (match === null) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 3600 + Number(match[3]) * 60);
}

/**
 * Seeds the stand-in with the playground's workspace: #general with the bot, #ops without it (so the
 * page shows what Regdesk does where it cannot post), and each member's DM with the bot.
 */
export function seedWorkspace(slack: SlackStandIn): void {
  slack.workspaceName = PLAYGROUND_WORKSPACE_NAME;
  const everyone = PLAYGROUND_USERS.map((user) => user.id);
  slack.users.set(BOT_USER, {
    id: BOT_USER,
    name: 'regdesk',
    real_name: BOT_NAME,
    is_bot: true,
    team_id: WORKSPACE,
  });
  for (const user of PLAYGROUND_USERS) {
    slack.users.set(user.id, {
      id: user.id,
      name: user.name,
      real_name: user.realName,
      is_admin: user.isAdmin,
      is_owner: user.isOwner,
      is_primary_owner: user.isOwner,
      team_id: WORKSPACE,
      tz: user.tz,
      tz_offset: tzOffset(user.tz),
      locale: user.locale,
    });
    slack.conversation(`D${user.id}`, { kind: 'im', botMember: true, members: [user.id], name: user.name });
  }
  slack.conversation(GENERAL, { kind: 'public', botMember: true, members: everyone, name: 'general' });
  slack.conversation(OPS, { kind: 'public', botMember: false, members: everyone, name: 'ops' });
}

/** The seeded conversations in the page's shape, channels first. */
export function playgroundChannels(slack: SlackStandIn): PlaygroundChannel[] {
  return [...slack.conversations.entries()]
    .filter(([, conversation]) => conversation.name !== undefined)
    .map(([id, conversation]) => ({
      id,
      name: conversation.name ?? id,
      kind: conversation.kind,
      botMember: conversation.botMember,
      members: [...(conversation.members ?? [])],
    }))
    .sort((a, b) => Number(a.kind === 'im') - Number(b.kind === 'im') || a.name.localeCompare(b.name));
}
