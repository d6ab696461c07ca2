import type { SlackState } from './state.js';
import type { StandInAssistantThread, StandInSuggestedPrompts } from './types.js';

/** Longest assistant thread status the stand-in accepts (Slack shows it on one line). */
const ASSISTANT_STATUS_MAX = 100;

/**
 * `assistant.threads.setStatus`: Slack takes an empty status (it clears it); its status line holds one
 * short sentence, and at most 10 loading messages (reference/methods/assistant.threads.setStatus).
 * A status may be set in channels too (changelog 2026-03-05, chat:write).
 */
export function setStatus(state: SlackState, args: Record<string, unknown>): unknown {
  return agentThread(state, args, 'any', (thread) => {
    const status = args.status;
    const loading = args.loading_messages;
    if (typeof status !== 'string' || status.length > ASSISTANT_STATUS_MAX) return 'invalid_arguments';
    if (loading !== undefined && (!Array.isArray(loading) || loading.length > 10)) return 'invalid_arguments';
    thread.status = status;
    state.emit({
      type: 'thread_status',
      channel: String(args.channel_id),
      threadTs: String(args.thread_ts),
      status,
    });
    return undefined;
  });
}

/** `assistant.threads.setTitle`: a title shows in the DM history (reference/methods/assistant.threads.setTitle). */
export function setTitle(state: SlackState, args: Record<string, unknown>): unknown {
  return agentThread(state, args, 'dm', (thread) => {
    if (typeof args.title !== 'string' || args.title.trim() === '') return 'invalid_arguments';
    thread.title = args.title;
    return undefined;
  });
}

/**
 * `assistant.threads.setStatus` / `setTitle`: a conversation the bot is in (`dm`: a DM with it), and a
 * `thread_ts` naming a thread's root message there.
 */
function agentThread(
  state: SlackState,
  args: Record<string, unknown>,
  where: 'any' | 'dm',
  change: (thread: StandInAssistantThread) => string | undefined,
): unknown {
  const channel = String(args.channel_id ?? '');
  const conversation = state.conversation(channel);
  if (channel === '' || !conversation.botMember || (where === 'dm' && conversation.kind !== 'im'))
    return { ok: false, error: 'channel_not_found' };
  const key = `${channel}:${String(args.thread_ts ?? '')}`;
  const root = state.messages.get(key);
  if (root === undefined || (root.threadTs !== undefined && root.threadTs !== root.ts))
    return { ok: false, error: 'invalid_thread_ts' };
  const thread = state.assistantThreads.get(key) ?? {};
  const error = change(thread);
  if (error !== undefined) return { ok: false, error };
  state.assistantThreads.set(key, thread);
  return { ok: true };
}

/**
 * `assistant.threads.setSuggestedPrompts` for an agent app: pinned to the top of the person's
 * Messages tab, so the channel must be a DM with the bot; one to four prompts, each with a title and
 * a message. With a `thread_ts` (the retired assistant experience's form) Slack's reference says the
 * call silently fails for an agent app: answered `ok`, nothing shown.
 */
export function pinPrompts(state: SlackState, args: Record<string, unknown>): unknown {
  const channel = String(args.channel_id ?? '');
  const conversation = state.conversation(channel);
  if (channel === '' || conversation.kind !== 'im' || !conversation.botMember)
    return { ok: false, error: 'channel_not_found' };
  const prompts = args.prompts;
  const valid = (p: unknown) =>
    typeof (p as { title?: unknown }).title === 'string' &&
    typeof (p as { message?: unknown }).message === 'string' &&
    (p as { message: string }).message !== '';
  if (!Array.isArray(prompts) || prompts.length < 1 || prompts.length > 4 || !prompts.every(valid))
    return { ok: false, error: 'invalid_arguments' };
  if (args.title !== undefined && typeof args.title !== 'string')
    return { ok: false, error: 'invalid_arguments' };
  if (args.thread_ts !== undefined) return { ok: true };
  const pinned: StandInSuggestedPrompts = {
    ...(typeof args.title === 'string' ? { title: args.title } : {}),
    prompts: (prompts as Array<{ title: string; message: string }>).map(({ title, message }) => ({
      title,
      message,
    })),
  };
  state.suggestedPrompts.set(channel, pinned);
  state.emit({ type: 'prompts', channel, prompts: pinned });
  return { ok: true };
}
