// What the page's composer sends: slash commands, messages, mentions and DMs, as Slack would deliver them.
import type { Json } from './interaction-payloads.js';
import type { PlaygroundManifest } from './manifest.js';
import { ackJson, type Delivery, type SlackEventSender } from './slack-events.js';
import { BOT_USER, type SlackStandIn, WORKSPACE } from './slack-standin.js';
import type { ApiResult } from './web/protocol.js';
import { BOT_NAME, PLAYGROUND_USERS } from './workspace.js';

/** The playground's Slack, its line to Regdesk, and how a failed delivery is told (PlaygroundActions). */
export interface ComposerContext {
  slack: SlackStandIn;
  sender: SlackEventSender;
  manifest: PlaygroundManifest;
  failed(user: string, what: string, delivery: Delivery & { ok: false }): ApiResult;
}

export async function sendCommand(
  context: ComposerContext,
  user: { id: string; name: string },
  channel: { id: string; name: string },
  command: string,
  text: string,
): Promise<ApiResult> {
  if (!context.manifest.commands.some((known) => known.command === command)) {
    const notice = `${command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`;
    context.slack.notice(user.id, notice);
    return { ok: false, error: notice };
  }
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
  if (!delivery.ok) return context.failed(user.id, command, delivery);
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
  if (toBot && !context.manifest.messagesTab) {
    const notice = `Sending messages to ${BOT_NAME} has been turned off.`;
    context.slack.notice(user.id, notice);
    return { ok: false, error: notice };
  }
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
    return delivery.ok ? { ok: true } : context.failed(user.id, 'Your message', delivery);
  }
  if (!text.includes(`<@${BOT_USER}>`) || !context.manifest.botEvents.includes('app_mention'))
    return { ok: true };
  if (!channel.botMember) {
    context.slack.notice(user.id, `You mentioned @${BOT_NAME}, but they’re not in #${channel.name}.`);
    return { ok: true };
  }
  const delivery = await context.sender.event({ type: 'app_mention', ...event });
  return delivery.ok ? { ok: true } : context.failed(user.id, 'Your mention', delivery);
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
