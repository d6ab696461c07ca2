import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { replyForError } from '../../slack/error-reply.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { userLocale } from '../../slack/roles.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type AssistantService, cleanQuestion, MAX_QUESTION_LENGTH } from './service.js';

/**
 * `/ask QUESTION` posts "@user asked: …" publicly and answers in its thread; a mention of the bot in a
 * channel or thread is answered in that thread. Both are acked at once and queued.
 */
export function registerAssistantHandlers(
  app: App,
  deps: SlackDeps & { assistant: AssistantService; poster: ChannelPoster },
): void {
  deps.router.setFreeText('/ask', {
    usage: 'QUESTION',
    summary: `ask the registrar's assistant (up to ${MAX_QUESTION_LENGTH} characters); the answer arrives in a thread`,
    run: async ({ ack, rest, bolt, respond, logger }) => {
      const question = cleanQuestion(rest); // refusals become the ack's usage text (router)
      await ack();
      const { channel_id: channel, user_id: user } = bolt.body;
      try {
        const workspace = workspaceOf(bolt.body);
        // Fail early (no key) before anything is posted publicly.
        await deps.assistant.accountOf(workspace);
        const questionTs = await deps.poster.post(bolt.client, {
          channel,
          text: `<@${user}> asked: ${escapeMrkdwn(question)}`,
        });
        const locale = await userLocale(bolt.client, user).catch(() => undefined);
        await deps.assistant.ask(
          {
            workspace,
            channel,
            threadTs: questionTs,
            user,
            question,
            dedupeId: `ask:${channel}:${questionTs}`,
          },
          bolt.client,
          locale,
        );
      } catch (error) {
        await respond({ response_type: 'ephemeral', text: replyForError(error, logger).text });
      }
    },
  });

  app.event('app_mention', async ({ event, body, client }) => {
    const channel = event.channel;
    const user = event.user ?? '';
    let question: string;
    try {
      question = cleanQuestion(event.text);
    } catch (error) {
      await client.chat
        .postEphemeral({ channel, user, text: replyForError(error, deps.logger).text })
        .catch(() => undefined);
      return;
    }
    const workspace = workspaceOf(body);
    try {
      await client.reactions
        .add({ channel, timestamp: event.ts, name: 'hourglass_flowing_sand' })
        .catch(() => undefined);
      const locale = await userLocale(client, user).catch(() => undefined);
      await deps.assistant.ask(
        {
          workspace,
          channel,
          threadTs: event.thread_ts ?? event.ts,
          askTs: event.ts,
          user,
          question,
          dedupeId: `event:${body.event_id}`,
        },
        client,
        locale,
      );
    } catch (error) {
      await client.chat
        .postMessage({
          channel,
          thread_ts: event.thread_ts ?? event.ts,
          text: replyForError(error, deps.logger).text,
        })
        .catch(() => undefined);
    }
  });
}
