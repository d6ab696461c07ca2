import { BOT_USER, type SlackStandIn } from './slack-standin.js';
import type { Notice } from './web/notices.js';
import type { ApiResult } from './web/protocol.js';
import { BOT_NAME, PLAYGROUND_USERS } from './workspace.js';

/** Slack's built-in commands that add someone to the channel or take them out (`/kick` is `/remove`). */
export const MEMBERSHIP_COMMANDS: ReadonlySet<string> = new Set(['/invite', '/remove', '/kick']);

/**
 * `/invite @Regdesk` and `/remove @Regdesk` (or a member) in the composer, as Slack handles them: the
 * stand-in changes the channel's members and posts Slack's `channel_join` / `channel_leave` message.
 * Regdesk is not told (its manifest subscribes to no membership event); it finds out, as in Slack,
 * when it next posts there.
 */
export function changeMembership(
  slack: SlackStandIn,
  user: { id: string },
  channel: { id: string; name: string; kind: string },
  command: string,
  text: string,
): ApiResult {
  if (channel.kind === 'im' || channel.kind === 'mpim') return refused({ kind: 'membershipInDm', command });
  const named = text.split(/[\s,]+/).filter((token) => token !== '');
  if (named.length === 0) return refused({ kind: 'membershipUsage', command });
  const members: string[] = [];
  for (const token of named) {
    const id = memberId(token);
    if (id === undefined) return refused({ kind: 'unknownMember', handle: token.replace(/^@/, '') });
    members.push(id);
  }
  const join = command === '/invite';
  for (const member of members) {
    if (!slack.setMembership(channel.id, member, join, user.id)) {
      const kind = join ? 'alreadyIn' : 'notIn';
      return { ok: true, notice: { kind, member: displayName(member), channel: channel.name } };
    }
  }
  return { ok: true };
}

function refused(notice: Notice): ApiResult {
  return { ok: false, error: 'invalid_arguments', notice };
}

/** `@Regdesk`, `@ada` or a mention token `<@U0ADA>`, as Slack's composer accepts them. */
function memberId(token: string): string | undefined {
  const mention = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(token);
  const handle = token.replace(/^@/, '').toLowerCase();
  if (mention?.[1] !== undefined)
    return mention[1] === BOT_USER || PLAYGROUND_USERS.some((u) => u.id === mention[1])
      ? mention[1]
      : undefined;
  if (handle === BOT_NAME.toLowerCase()) return BOT_USER;
  return PLAYGROUND_USERS.find((u) => u.name === handle)?.id;
}

function displayName(member: string): string {
  return member === BOT_USER ? BOT_NAME : (PLAYGROUND_USERS.find((u) => u.id === member)?.realName ?? member);
}
