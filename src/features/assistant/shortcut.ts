import type { App, MessageShortcut } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { dispatchOf } from '../../slack/dispatch.js';
import { replyForError } from '../../slack/error-reply.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text, texts } from '../../text/index.js';
import type { Asking, AskingDeps } from './asking.js';
import { ASK_SHORTCUT } from './ids.js';
import { languageOf } from './locale.js';

/**
 * The message shortcut "Ask Regdesk about this": asks the registrar's assistant about a message,
 * sending its text as context. Answered in the message's thread, under a public line saying who
 * asked, when the bot can post there; otherwise privately, in the asker's DM with the bot (which
 * shows the queue position like any thread), and only where even that fails, ephemerally.
 */
export function registerAskShortcut(app: App, deps: SlackDeps & AskingDeps, asking: Asking): void {
  dispatchOf(app).shortcut<MessageShortcut>(ASK_SHORTCUT, async ({ ack, shortcut, client, respond }) => {
    const user = shortcut.user.id;
    const channel = shortcut.channel.id;
    const about = (shortcut.message.text ?? '').trim();
    let acked = false;
    const ackOnce = async () => {
      if (acked) return;
      acked = true;
      await ack();
    };
    const refuse = async (error: unknown) => {
      await replyPrivately(
        { user, client, respond, channel },
        replyForError(error, deps.logger),
        deps.logger,
      );
    };
    try {
      if (about === '') {
        await ackOnce();
        await respond({ response_type: 'ephemeral', text: text.assistant.shortcutNoText });
        return;
      }
      // What the shortcut asks, in the language of the message it is about.
      const question = texts(languageOf(about) ?? 'en').assistant.shortcutQuestion;
      // Recorded before the ack, within Slack's 3 s; its job posts in the message's thread (places.ts).
      await asking.submit(
        {
          surface: 'shortcut',
          workspace: workspaceOf(shortcut),
          user,
          client,
          // Slack does not redeliver a shortcut: the trigger id names this one.
          dedupeId: `shortcut:${shortcut.trigger_id}`,
          question,
          channel,
          threadTs: shortcut.message.thread_ts ?? shortcut.message.ts,
          languageHint: about,
          context: about,
          refuse,
        },
        ackOnce,
      );
    } catch (error) {
      // Not recorded (Redis down): acked now if it was not, and the asker told why by the response_url.
      await ackOnce();
      await refuse(error);
    }
  });
}
