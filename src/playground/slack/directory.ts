import type { SlackState } from './state.js';
import { BOT_USER, WORKSPACE } from './types.js';

export function authTest(state: SlackState): unknown {
  return {
    ok: true,
    url: 'https://acme.slack.com/',
    team: state.workspaceName,
    user: 'regdesk',
    team_id: WORKSPACE,
    user_id: BOT_USER,
    bot_id: 'BBOT',
  };
}

/**
 * Slack sends a user's `locale` only to a call that asks for it (`include_locale`, users.info and
 * users.list): without it the field is absent, whatever the user's language.
 */
function withLocale(user: Record<string, unknown>, args: Record<string, unknown>): Record<string, unknown> {
  const { locale, ...rest } = user;
  const asked = args.include_locale === true || args.include_locale === 'true';
  return asked ? { ...rest, locale: locale ?? 'en-US' } : rest;
}

/** `users.info`: users a test did not define are plain members of the workspace. */
export function userInfo(state: SlackState, args: Record<string, unknown>): unknown {
  if (state.unknownUsers.has(String(args.user))) return { ok: false, error: 'user_not_found' };
  const user = state.users.get(String(args.user)) ?? { id: String(args.user) };
  return {
    ok: true,
    user: withLocale({ team_id: WORKSPACE, tz: 'Europe/Berlin', name: user.id, ...user }, args),
  };
}

/** Slack's pagination: `limit` members a page (at most 1000), `next_cursor` empty on the last. */
export function userList(state: SlackState, args: Record<string, unknown>): unknown {
  const limit = Math.min(Math.max(Number(args.limit ?? 1000) || 1000, 1), 1000);
  const start = Number(String(args.cursor ?? '').replace(/^page:/, '')) || 0;
  const all = [...state.users.values()].map((user) =>
    withLocale({ team_id: WORKSPACE, name: user.id, ...user }, args),
  );
  const next = start + limit < all.length ? `page:${start + limit}` : '';
  return { ok: true, members: all.slice(start, start + limit), response_metadata: { next_cursor: next } };
}

export function openConversation(state: SlackState, args: Record<string, unknown>): unknown {
  const user = String(args.users ?? '');
  if (state.users.get(user)?.deleted === true) return { ok: false, error: 'user_disabled' };
  return { ok: true, channel: { id: `D${user}` } };
}

export function conversationInfo(state: SlackState, channel: string): unknown {
  const conversation = state.conversation(channel);
  if (!conversation.botMember && conversation.kind !== 'public')
    return { ok: false, error: 'channel_not_found' };
  const shared = conversation.shared === true;
  return {
    ok: true,
    channel: {
      id: channel,
      ...(conversation.name === undefined ? {} : { name: conversation.name }),
      is_channel: conversation.kind === 'public',
      is_group: conversation.kind === 'private',
      is_im: conversation.kind === 'im',
      is_mpim: conversation.kind === 'mpim',
      is_private: conversation.kind !== 'public',
      is_archived: conversation.archived === true,
      is_shared: shared,
      is_ext_shared: shared,
      is_org_shared: false,
      is_pending_ext_shared: false,
    },
  };
}
