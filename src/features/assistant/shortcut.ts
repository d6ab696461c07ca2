import type { App, MessageShortcut } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { SlackDeps } from '../../slack/app.js';
import { dispatchOf } from '../../slack/dispatch.js';
import { replyForError } from '../../slack/error-reply.js';
import { escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { cannotPostHere } from '../../slack/platform-errors.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text, texts } from '../../text/index.js';
import type { Asking, AskingDeps } from './asking.js';
import { ASK_SHORTCUT } from './ids.js';
import { languageOf } from './locale.js';
import type { AskInput } from './service.js';

/** How much of the message is quoted back to the asker where it is answered privately. */
const QUOTE_LENGTH = 300;

/**
 * The message shortcut "Ask Regdesk about this": asks the registrar's assistant about a message,
 * sending its text as context. Answered in the message's thread, under a public line saying who
 * asked, when the bot can post there; otherwise privately, in the asker's DM with the bot (which
 * shows the queue position like any thread), and only where even that fails, ephemerally.
 */
export function registerAskShortcut(app: App, deps: SlackDeps & AskingDeps, asking: Asking): void {
  dispatchOf(app).shortcut<MessageShortcut>(ASK_SHORTCUT, async ({ ack, shortcut, client, respond }) => {
    await ack(); // within Slack's 3 s; the question is queued after it
    const user = shortcut.user.id;
    const channel = shortcut.channel.id;
    const about = (shortcut.message.text ?? '').trim();
    try {
      if (about === '') {
        await respond({
          response_type: 'ephemeral',
          text: text.assistant.shortcutNoText,
        });
        return;
      }
      const workspace = workspaceOf(shortcut);
      // What the shortcut asks, in the language of the message it is about.
      const question = texts(languageOf(about) ?? 'en').assistant.shortcutQuestion;
      const threadTs = shortcut.message.thread_ts ?? shortcut.message.ts;
      await asking.submit({
        surface: 'shortcut',
        workspace,
        user,
        client,
        // Slack does not redeliver a shortcut: the trigger id names this one.
        dedupeId: `shortcut:${shortcut.trigger_id}`,
        question,
        languageHint: about,
        context: about,
        place: () =>
          placeQuestion(client, (args) => deps.poster.post(client, args), {
            user,
            channel,
            threadTs,
            question,
            text: about,
          }),
      });
    } catch (error) {
      await replyPrivately(
        { user, client, respond, channel },
        replyForError(error, deps.logger),
        deps.logger,
      );
    }
  });
}

/**
 * The message's thread when the bot can post there (a public line says who asked: the thread's
 * readers see why Regdesk answers); else the asker's DM with the bot, quoting the message.
 */
async function placeQuestion(
  client: WebClient,
  post: (args: { channel: string; text: string; thread_ts?: string }) => Promise<string>,
  q: { user: string; channel: string; threadTs: string; question: string; text: string },
): Promise<AskInput> {
  const ask = { question: q.question, context: q.text };
  try {
    await post({
      channel: q.channel,
      thread_ts: q.threadTs,
      text: text.assistant.shortcutAskedPublicly({ user: q.user }),
    });
    return { channel: q.channel, threadTs: q.threadTs, ...ask };
  } catch (error) {
    if (!cannotPostHere(error)) throw error;
  }
  const dm = await client.conversations.open({ users: q.user });
  const channel = dm.channel?.id;
  if (channel === undefined) throw new Error('conversations.open returned no channel');
  const quote = escapeMrkdwn(truncate(q.text, QUOTE_LENGTH)).replace(/^/gm, '> ');
  const threadTs = await post({
    channel,
    text: text.assistant.shortcutAskedPrivately({ channel: q.channel, quote }),
  });
  return { channel, threadTs, ...ask };
}
