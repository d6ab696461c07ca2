import type { SlackState } from './state.js';
import { BOT_USER } from './types.js';

/**
 * `member` joins `channel` (added by `by`) or leaves it, as Slack's `/invite` and `/remove` do: the
 * conversation's members change (the bot's membership is what Slack's `not_in_channel` checks), and
 * Slack posts its `channel_join` or `channel_leave` message. False when nothing changes.
 */
export function setMembership(
  state: SlackState,
  channel: string,
  member: string,
  join: boolean,
  by: string,
): boolean {
  const conversation = state.conversations.get(channel);
  if (conversation === undefined || conversation.kind === 'im') return false;
  const members = conversation.members ?? [];
  const isIn = member === BOT_USER ? conversation.botMember : members.includes(member);
  if (isIn === join) return false;
  const changed =
    member === BOT_USER
      ? { ...conversation, botMember: join }
      : { ...conversation, members: join ? [...members, member] : members.filter((id) => id !== member) };
  state.conversations.set(channel, changed);
  state.emit({
    type: 'channel',
    channel: {
      id: channel,
      name: changed.name ?? channel,
      kind: changed.kind,
      botMember: changed.botMember,
      members: [...(changed.members ?? [])],
    },
  });
  state.store({
    channel,
    ts: state.nextTs(),
    user: member,
    subtype: join ? 'channel_join' : 'channel_leave',
    text: `<@${member}> has ${join ? 'joined' : 'left'} the channel`,
    ...(join ? { inviter: by } : {}),
  });
  return true;
}
