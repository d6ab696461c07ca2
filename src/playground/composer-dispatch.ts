// What the page's composer sends: slash commands, messages, mentions and DMs, as Slack would deliver them.
import { failed, type Json } from './interaction-payloads.js';
import type { PlaygroundManifest } from './manifest.js';
import { changeMembership, MEMBERSHIP_COMMANDS } from './membership.js';
import { ackJson, type SlackEventSender } from './slack-events.js';
import { BOT_USER, type SlackStandIn, WORKSPACE } from './slack-standin.js';
import type { ApiResult } from './web/protocol.js';
import { BOT_NAME, PLAYGROUND_USERS } from './workspace.js';

/** The playground's Slack and its line to Regdesk (PlaygroundActions). */
export interface ComposerContext {
  slack: SlackStandIn;
  sender: SlackEventSender;
  manifest: PlaygroundManifest;
}

export async function sendCommand(
  context: ComposerContext,
  user: { id: string; name: string },
  channel: { id: string; name: string; kind: string },
  command: string,
  text: string,
): Promise<ApiResult> {
  // Slack's own commands for channel membership, which Regdesk's answers advise (`/invite @Regdesk`).
  if (MEMBERSHIP_COMMANDS.has(command)) return changeMembership(context.slack, user, channel, command, text);
  if (!context.manifest.commands.some((known) => known.command === command))
    return { ok: false, error: 'invalid_command', notice: { kind: 'unknownCommand', command } };
  const responseUrl = context.slack.issueResponseUrl({
    channel: channel.id,
    user: user.id,
    latestIsOriginal: true,
  });
  const delivery = await context.sender.command({
    command,
    text,
    user,
    channel,
    responseUrl,
    triggerId: context.slack.issueTrigger(user.id),
    teamName: context.slack.workspaceName,
  });
  if (!delivery.ok) return failed({ step: 'command', name: command }, delivery);
  const ack = ackJson(delivery);
  if (ack !== undefined) context.slack.answerAck(responseUrl, ack);
  return { ok: true };
}

export async function sendMessage(
  context: ComposerContext,
  user: { id: string; name: string },
  channel: { id: string; name: string; kind: string; botMember: boolean },
  typed: string,
  threadTs?: string,
): Promise<ApiResult> {
  const toBot = channel.kind === 'im' && channel.botMember;
  if (toBot && !context.manifest.messagesTab)
    return { ok: false, error: 'messages_off', notice: { kind: 'messagesOff' } };
  const text = encodeMentions(typed);
  const posted = context.slack.postAsUser(user.id, channel.id, text, threadTs);
  if (!posted.ok) return { ok: false, error: posted.error };
  const message = posted.message;
  const event: Json = {
    user: user.id,
    text,
    ts: message.ts,
    channel: channel.id,
    team: WORKSPACE,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
  };
  if (toBot) {
    if (!context.manifest.botEvents.includes('message.im')) return { ok: true };
    const delivery = await context.sender.event({ type: 'message', channel_type: 'im', ...event });
    return delivery.ok ? { ok: true } : failed({ step: 'message' }, delivery);
  }
  if (!text.includes(`<@${BOT_USER}>`) || !context.manifest.botEvents.includes('app_mention'))
    return { ok: true };
  if (!channel.botMember) return { ok: true, notice: { kind: 'mentionedOutside', channel: channel.name } };
  const delivery = await context.sender.event({ type: 'app_mention', ...event });
  return delivery.ok ? { ok: true } : failed({ step: 'mention' }, delivery);
}

/** `@Regdesk` and `@handle` become Slack's `<@U…>` tokens, as Slack's composer does. */
function encodeMentions(text: string): string {
  const handles = new Map<string, string>([[BOT_NAME.toLowerCase(), BOT_USER]]);
  for (const user of PLAYGROUND_USERS) handles.set(user.name.toLowerCase(), user.id);
  return text.replace(/(^|[\s(])@([A-Za-z][\w.-]*)/g, (whole, lead: string, name: string) => {
    const id = handles.get(name.toLowerCase());
    return id === undefined ? whole : `${lead}<@${id}>`;
  });
}
