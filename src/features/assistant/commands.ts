import { randomUUID } from 'node:crypto';
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { dispatchOf } from '../../slack/dispatch.js';
import { replyForError } from '../../slack/error-reply.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { Asking, AskingDeps } from './asking.js';
import { cleanQuestion, MAX_QUESTION_LENGTH } from './service.js';

/**
 * `/ask QUESTION` posts "@user asked: …" publicly and answers in its thread; a mention of the bot in a
 * channel or thread is answered in that thread. Each is recorded before anything slow (`Asking`): the
 * command before its ack, so an acked question is never lost. The question is posted even where the
 * policy keeps answers private (`audienceOf`): it is the asker's own words, and its thread shows the
 * queue position, which no private message could (ephemerals cannot be edited later, and jobs hold no
 * response_url, docs/requirements.md R2). Only the answer carries account data. A person the
 * permission model refuses (a guest, an outsider, a deactivated account: R33, R43) or a question
 * beyond the asker's cap (R34) is refused privately before anything is posted.
 */
export function registerAssistantHandlers(app: App, deps: SlackDeps & AskingDeps, asking: Asking): void {
  deps.router.setFreeText('/ask', {
    usage: () => text.assistant.askUsage,
    summary: () => text.assistant.askSummary({ max: MAX_QUESTION_LENGTH }),
    run: async ({ ack, rest, bolt, respond, logger }) => {
      const question = cleanQuestion(rest); // refusals become the ack's usage text (router)
      const { channel_id: channel, user_id: user } = bolt.body;
      const refuse = async (error: unknown) => {
        await replyPrivately({ user, client: bolt.client, respond }, replyForError(error, logger), logger);
      };
      // Recorded before the ack (a failure to record is the ack's error reply, router.ts). Slack does
      // not redeliver a command, so each one is a question of its own.
      await asking.submit(
        {
          surface: '/ask',
          workspace: workspaceOf(bolt.body),
          user,
          client: bolt.client,
          dedupeId: `ask:${randomUUID()}`,
          question,
          // The answer needs a public thread: its job posts the question there (places.ts).
          channel,
          refuse,
        },
        () => ack(),
      );
    },
  });

  dispatchOf(app).event('app_mention', async ({ event, body, client }) => {
    const channel = event.channel;
    const user = event.user ?? '';
    const refuse = async (error: unknown) => {
      // Refusals included (a guest, an outsider, the cap): an ephemeral in the channel, else a DM.
      await replyPrivately({ user, client, channel }, replyForError(error, deps.logger), deps.logger);
    };
    try {
      await asking.submit({
        surface: 'mention',
        workspace: workspaceOf(body),
        user,
        client,
        // A redelivered event (same id) is the same question.
        dedupeId: `event:${body.event_id}`,
        question: cleanQuestion(event.text),
        channel,
        threadTs: event.thread_ts ?? event.ts,
        askTs: event.ts,
        refuse,
      });
    } catch (error) {
      await refuse(error);
    }
  });
}
