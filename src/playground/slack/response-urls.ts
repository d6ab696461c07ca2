import { randomBytes } from 'node:crypto';
import { findMessage, removeAny } from './messages.js';
import { blocksRefusal } from './refusals.js';
import type { SlackState } from './state.js';
import type { Answer, ResponseContext, StandInMessage } from './types.js';

/** Slack allows five posts to a response_url within 30 minutes. */
const RESPONSE_URL_USES = 5;
const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;

/** A fresh response_url whose posts are only recorded, as method `response_url:<id>`. */
export function responseUrlFor(state: SlackState, id: string): string {
  return `${state.url}/response/${id}`;
}

/**
 * A response_url as Slack issues it with a slash command or a message action: posts to it become
 * ephemerals, in-channel messages, replacements or deletions of the originating message.
 */
export function issueResponseUrl(state: SlackState, context: ResponseContext): string {
  const now = Date.now();
  for (const [id, issued] of state.responseUrls) {
    if (now - issued.issued > RESPONSE_URL_LIFETIME_MS) state.responseUrls.delete(id);
  }
  const id = `r${randomBytes(12).toString('hex')}`;
  state.responseUrls.set(id, { ...context, issued: now, uses: 0 });
  return responseUrlFor(state, id);
}

/** A post to a response_url: Slack's rules for slash commands and message actions. */
export function respond(state: SlackState, id: string, args: Record<string, unknown>): Answer {
  const context = state.responseUrls.get(id);
  // Ids the stand-in did not issue (the tests' own) are only recorded.
  if (context === undefined) return { body: { ok: true } };
  if (Date.now() - context.issued > RESPONSE_URL_LIFETIME_MS) {
    state.responseUrls.delete(id);
    return { status: 404, body: { ok: false, error: 'expired_url' } };
  }
  if (++context.uses > RESPONSE_URL_USES) return { status: 404, body: { ok: false, error: 'used_url' } };
  return applyResponse(state, context, args);
}

/**
 * A slash command's acknowledgement body: Slack shows it like a first post to the command's
 * response_url (without using up one of its posts).
 */
export function answerAck(state: SlackState, responseUrl: string, args: Record<string, unknown>): void {
  const context = state.responseUrls.get(responseUrl.slice(responseUrl.lastIndexOf('/') + 1));
  if (context !== undefined) applyResponse(state, context, args);
}

/**
 * A message payload answering an interaction, by Slack's rules for response_urls: ephemeral to the
 * person by default, `in_channel` for everyone, or `replace_original` / `delete_original` of the
 * message the interaction came from.
 */
function applyResponse(state: SlackState, context: ResponseContext, args: Record<string, unknown>): Answer {
  const invalid = blocksRefusal(args, 'message');
  if (invalid !== undefined) return { status: 400, body: invalid };
  const original =
    context.messageTs === undefined ? undefined : findMessage(state, context.channel, context.messageTs);
  if (args.delete_original === true || args.delete_original === 'true') {
    // Nothing left to delete is no error: the person may have dismissed it already.
    if (original !== undefined) removeAny(state, original);
    return { body: { ok: true } };
  }
  // With nothing to replace (a command's first response), Slack posts the message instead.
  if ((args.replace_original === true || args.replace_original === 'true') && original !== undefined) {
    const replaced: StandInMessage = { ...original, text: args.text, blocks: args.blocks, edited: true };
    const map = original.ephemeralTo === undefined ? state.messages : state.ephemerals;
    map.set(`${original.channel}:${original.ts}`, replaced);
    state.emit({ type: 'message_changed', message: state.toPlayground(replaced) });
    return { body: { ok: true } };
  }
  const message: StandInMessage = {
    channel: context.channel,
    ts: state.nextTs(),
    text: args.text,
    blocks: args.blocks,
    viaResponseUrl: true,
  };
  const threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : context.threadTs;
  if (threadTs !== undefined) message.threadTs = threadTs;
  if (args.response_type === 'in_channel') state.store(message);
  else state.storeEphemeral({ ...message, ephemeralTo: context.user });
  if (context.latestIsOriginal === true) context.messageTs = message.ts;
  return { body: { ok: true } };
}
