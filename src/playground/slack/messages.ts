import type { PlaygroundMessage } from '../web/protocol.js';
import { blocksRefusal } from './refusals.js';
import type { SlackState } from './state.js';
import { BOT_USER, type StandInMessage } from './types.js';

/** `chat.postMessage`: a user id as channel posts to that person's DM with the bot. */
export function postMessage(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel ?? '');
  const target = channel.startsWith('U') ? `D${channel}` : channel;
  const refusal = state.postRefusal(target);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const invalid = blocksRefusal(args, 'message');
  if (invalid !== undefined) return invalid;
  const message: StandInMessage = {
    channel: target,
    ts: state.nextTs(),
    text: args.text,
    blocks: args.blocks,
  };
  if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
  state.store(message);
  return {
    ok: true,
    channel: target,
    ts: message.ts,
    message: { text: args.text, blocks: args.blocks },
  };
}

export function updateMessage(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel ?? '');
  const refusal = state.postRefusal(channel);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const key = `${channel}:${String(args.ts)}`;
  const message = state.messages.get(key);
  // Messages a test did not post through the stand-in (ts "1.1" …) are taken as existing.
  if (message === undefined && state.posted(String(args.ts)))
    return { ok: false, error: 'message_not_found' };
  if (message?.user !== undefined) return { ok: false, error: 'cant_update_message' };
  const invalid = blocksRefusal(args, 'message');
  if (invalid !== undefined) return invalid;
  if (message !== undefined) {
    const updated: StandInMessage = { ...message, text: args.text, blocks: args.blocks, edited: true };
    state.messages.set(key, updated);
    state.emit({ type: 'message_changed', message: state.toPlayground(updated) });
  }
  return { ok: true, channel, ts: args.ts, text: args.text };
}

/** `chat.delete`: the bot may delete its own messages only. */
export function deleteMessageCall(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel ?? '');
  const ts = String(args.ts);
  const message = state.messages.get(`${channel}:${ts}`);
  if (message?.user !== undefined) return { ok: false, error: 'cant_delete_message' };
  if (message === undefined) {
    return state.posted(ts) ? { ok: false, error: 'message_not_found' } : { ok: true, channel, ts: args.ts };
  }
  deleteMessage(state, channel, ts);
  return { ok: true, channel, ts: args.ts };
}

export function postEphemeral(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel ?? '');
  const refusal = state.postRefusal(channel);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const user = String(args.user);
  if (!state.isMember(channel, user)) return { ok: false, error: 'user_not_in_channel' };
  const invalid = blocksRefusal(args, 'message');
  if (invalid !== undefined) return invalid;
  const message: StandInMessage = {
    channel,
    ts: state.nextTs(),
    text: args.text,
    blocks: args.blocks,
    ephemeralTo: user,
  };
  if (typeof args.thread_ts === 'string') message.threadTs = args.thread_ts;
  state.storeEphemeral(message);
  return { ok: true, message_ts: message.ts };
}

/** `reactions.add` / `reactions.remove` by the bot. */
export function react(state: SlackState, args: Record<string, unknown>, add: boolean): unknown {
  const channel = String(args.channel ?? '');
  const refusal = state.postRefusal(channel);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const message = state.messages.get(`${channel}:${String(args.timestamp ?? '')}`);
  if (message === undefined) return { ok: true };
  const name = String(args.name ?? '');
  const reactions = message.reactions ?? [];
  const existing = reactions.find((reaction) => reaction.name === name);
  const mine = existing?.users.includes(BOT_USER) === true;
  if (add && mine) return { ok: false, error: 'already_reacted' };
  if (!add && !mine) return { ok: false, error: 'no_reaction' };
  if (add && existing !== undefined) existing.users.push(BOT_USER);
  else if (add) reactions.push({ name, users: [BOT_USER] });
  else if (existing !== undefined) existing.users = existing.users.filter((user) => user !== BOT_USER);
  message.reactions = reactions.filter((reaction) => reaction.users.length > 0);
  state.emit({ type: 'message_changed', message: state.toPlayground(message) });
  return { ok: true };
}

/** A person's message, as Slack stores it when they send it. */
export function postAsUser(
  state: SlackState,
  user: string,
  channel: string,
  text: string,
  threadTs?: string,
): { ok: true; message: StandInMessage } | { ok: false; error: string } {
  const conversation = state.conversation(channel);
  if (conversation.archived === true) return { ok: false, error: 'is_archived' };
  if (!state.isMember(channel, user)) return { ok: false, error: 'not_in_channel' };
  const message: StandInMessage = { channel, ts: state.nextTs(), text, user };
  if (threadTs !== undefined) message.threadTs = threadTs;
  state.store(message);
  return { ok: true, message };
}

/** A person adds a reaction, or takes theirs back (the page's emoji button). */
export function toggleReaction(
  state: SlackState,
  user: string,
  channel: string,
  ts: string,
  name: string,
): { ok: boolean; error?: string } {
  const message = state.messages.get(`${channel}:${ts}`);
  if (message === undefined) return { ok: false, error: 'message_not_found' };
  if (!state.isMember(channel, user)) return { ok: false, error: 'not_in_channel' };
  const reactions = message.reactions ?? [];
  const existing = reactions.find((reaction) => reaction.name === name);
  if (existing?.users.includes(user) === true) existing.users = existing.users.filter((u) => u !== user);
  else if (existing !== undefined) existing.users.push(user);
  else reactions.push({ name, users: [user] });
  message.reactions = reactions.filter((reaction) => reaction.users.length > 0);
  state.emit({ type: 'message_changed', message: state.toPlayground(message) });
  return { ok: true };
}

/** A message deleted by a person or a retention policy: updates of it fail `message_not_found`. */
export function deleteMessage(state: SlackState, channel: string, ts: string): void {
  if (state.messages.delete(`${channel}:${ts}`)) state.emit({ type: 'message_deleted', channel, ts });
}

/** Removes a message or an ephemeral (a response_url's `delete_original`). */
export function removeAny(state: SlackState, message: StandInMessage): void {
  const key = `${message.channel}:${message.ts}`;
  if (message.ephemeralTo === undefined) {
    deleteMessage(state, message.channel, message.ts);
  } else if (state.ephemerals.delete(key)) {
    state.emit({ type: 'message_deleted', channel: message.channel, ts: message.ts });
  }
}

/** A stored message (ephemerals included) by channel and ts. */
export function findMessage(state: SlackState, channel: string, ts: string): StandInMessage | undefined {
  return state.messages.get(`${channel}:${ts}`) ?? state.ephemerals.get(`${channel}:${ts}`);
}

/** Every message and ephemeral, oldest first, in the page's shape. */
export function allMessages(state: SlackState): PlaygroundMessage[] {
  return [...state.messages.values(), ...state.ephemerals.values()]
    .sort((a, b) => Number(a.ts) - Number(b.ts))
    .map((message) => state.toPlayground(message));
}
