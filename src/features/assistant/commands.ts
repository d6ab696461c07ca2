import { randomUUID } from 'node:crypto';
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { SlackDeps } from '../../slack/app.js';
import { replyForError } from '../../slack/error-reply.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { postPublicly, replyPrivately } from '../../slack/reply.js';
import type { SlackDirectory } from '../../slack/users.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Admission, type AssistantService, cleanQuestion, MAX_QUESTION_LENGTH } from './service.js';

/**
 * `/ask QUESTION` posts "@user asked: …" publicly and answers in its thread; a mention of the bot in a
 * channel or thread is answered in that thread. Both are acked at once and queued. The question is
 * posted even where the policy keeps answers private (`audienceOf`): it is the asker's own words, and
 * its thread shows the queue position, which no private message could (ephemerals cannot be edited
 * later, and jobs hold no response_url, docs/requirements.md R2). Only the answer carries account
 * data. A question beyond the asker's cap is refused before anything is posted (R34).
 */
export function registerAssistantHandlers(
  app: App,
  deps: SlackDeps & { assistant: AssistantService; poster: ChannelPoster; directory: SlackDirectory },
): void {
  // The assistant answers in the asker's language when Slack tells it (cached, shared by processes).
  const localeOf = (client: WebClient, workspace: WorkspaceRef, user: string) =>
    deps.directory.user(client, workspace, user).then(
      (profile) => profile.locale,
      () => undefined,
    );

  // A question that failed before it was queued gives its place back at once (else it lapses later).
  const withdraw = (admission: Admission | undefined) =>
    admission === undefined ? undefined : deps.assistant.withdraw(admission).catch(() => undefined);

  deps.router.setFreeText('/ask', {
    usage: 'QUESTION',
    summary: `ask the registrar's assistant (up to ${MAX_QUESTION_LENGTH} characters); the answer arrives in a thread`,
    run: async ({ ack, rest, bolt, respond, logger }) => {
      const question = cleanQuestion(rest); // refusals become the ack's usage text (router)
      await ack();
      const { channel_id: channel, user_id: user } = bolt.body;
      let admission: Admission | undefined;
      try {
        const workspace = workspaceOf(bolt.body);
        // Fails early (no key, cap reached) before anything is posted publicly. Slack does not
        // redeliver a command, so each one is a question of its own.
        admission = await deps.assistant.admit(workspace, user, `ask:${randomUUID()}`);
        if (admission === undefined) return;
        // The answer needs a public thread. Where the bot cannot post (a DM with someone else, a private
        // channel without it, an archived channel) the asker gets the advice privately, nothing queued.
        const questionTs = await postPublicly(() =>
          deps.poster.post(bolt.client, { channel, text: `<@${user}> asked: ${escapeMrkdwn(question)}` }),
        );
        await deps.assistant.ask(
          admission,
          { channel, threadTs: questionTs, question },
          bolt.client,
          await localeOf(bolt.client, workspace, user),
        );
      } catch (error) {
        await withdraw(admission);
        await replyPrivately({ user, client: bolt.client, respond }, replyForError(error, logger), logger);
      }
    },
  });

  app.event('app_mention', async ({ event, body, client }) => {
    const channel = event.channel;
    const user = event.user ?? '';
    const workspace = workspaceOf(body);
    let admission: Admission | undefined;
    try {
      const question = cleanQuestion(event.text);
      // A redelivered event (same id) is the same question: it already holds its place.
      admission = await deps.assistant.admit(workspace, user, `event:${body.event_id}`);
      if (admission === undefined) return;
      await client.reactions
        .add({ channel, timestamp: event.ts, name: 'hourglass_flowing_sand' })
        .catch(() => undefined);
      await deps.assistant.ask(
        admission,
        { channel, threadTs: event.thread_ts ?? event.ts, askTs: event.ts, question },
        client,
        await localeOf(client, workspace, user),
      );
    } catch (error) {
      await withdraw(admission);
      await replyPrivately({ user, client, channel }, replyForError(error, deps.logger), deps.logger);
    }
  });
}
