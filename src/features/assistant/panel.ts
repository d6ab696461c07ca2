import type { App } from '@slack/bolt';
import type { AssistantThreadsSetSuggestedPromptsArguments, WebClient } from '@slack/web-api';
import type { SlackDeps } from '../../slack/app.js';
import { dispatchOf } from '../../slack/dispatch.js';
import { replyForError } from '../../slack/error-reply.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Catalog, currentLocale, texts } from '../../text/index.js';
import { onAppHomeTab } from '../home/tabs.js';
import { PermissionRefused } from '../policy/permissions.js';
import type { Asking, AskingDeps } from './asking.js';
import { cleanQuestion } from './service.js';

/** The suggested prompts in one language: what a registrar's customers ask most. */
function promptsIn(t: Catalog) {
  return {
    title: t.assistant.promptsTitle,
    prompts: [
      { title: t.assistant.promptRenewalsTitle, message: t.assistant.promptRenewalsMessage },
      { title: t.assistant.promptDnssecTitle, message: t.assistant.promptDnssecMessage },
      { title: t.assistant.promptCertificatesTitle, message: t.assistant.promptCertificatesMessage },
      { title: t.assistant.promptTransfersTitle, message: t.assistant.promptTransfersMessage },
    ],
  };
}

/** Suggested prompts (`assistant.threads.setSuggestedPrompts`: at most four) in each language. */
export const SUGGESTED_PROMPTS = { en: promptsIn(texts('en')), de: promptsIn(texts('de')) } as const;

type MessageLike = {
  channel?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  bot_id?: string;
  subtype?: string;
  channel_type?: string;
};

/**
 * The registrar's assistant in Regdesk's Messages tab: Slack's agent messaging experience
 * (manifest.yml `features.agent_view`; docs.slack.dev "Migrating to the Agent messaging experience").
 * There is no side panel and no `assistant_thread_started` any more:
 * - Opening the Messages tab sends `app_home_opened` with `tab: "messages"`: Regdesk pins suggested
 *   prompts in the person's language (`assistant.threads.setSuggestedPrompts` with the DM's channel
 *   and no `thread_ts`: with one, Slack's docs say the call silently fails for an agent app).
 * - Every message to the bot (`message.im`) is a question, answered in its thread: a top-level message
 *   is the thread's root (Slack no longer creates an `assistant_app_thread` root), a reply continues
 *   it and carries the thread's earlier questions and answers. It goes through the same queue as
 *   `/ask` (`Asking`); while it waits or runs, the thread's status says so
 *   (`assistant.threads.setStatus` on the thread's root, Slack's documented loading state), and the
 *   thread's first question becomes its title in the tab's history (`assistant.threads.setTitle`).
 */
export function registerAgentMessages(app: App, deps: SlackDeps & AskingDeps, asking: Asking): void {
  onAppHomeTab(app, 'messages', async ({ event, body, client }) => {
    const workspace = workspaceOf(body);
    const user = event.user;
    // Nobody the permission model refuses is offered prompts (R33, R43). Nothing is posted either:
    // Slack sends this event every time the tab is opened; a question there is told why it is refused.
    try {
      await asking.mayAsk(client, workspace, user, 'dm');
    } catch (error) {
      if (error instanceof PermissionRefused) return;
      throw error;
    }
    // In the language Regdesk speaks to this person (src/slack/language.ts).
    const { title, prompts } = SUGGESTED_PROMPTS[currentLocale()];
    const pin: Omit<AssistantThreadsSetSuggestedPromptsArguments, 'thread_ts'> = {
      channel_id: event.channel,
      title,
      prompts: [...prompts],
    };
    await client.assistant.threads
      // @slack/web-api still types `thread_ts` as required; an agent app must leave it out.
      .setSuggestedPrompts(pin as AssistantThreadsSetSuggestedPromptsArguments)
      .catch((error: unknown) =>
        deps.logger.warn({ slackError: slackRefusal(error) }, 'suggested prompts not set'),
      );
  });

  // The bot's reply goes in the thread, where the asker is looking: refusals (a guest, an outsider,
  // the cap), empty questions and failures alike.
  const explain = async (client: WebClient, channel: string, threadTs: string, error: unknown) => {
    await deps.poster
      .post(client, { channel, thread_ts: threadTs, ...replyForError(error, deps.logger) })
      .catch((postError: unknown) =>
        deps.logger.warn({ slackError: slackRefusal(postError) }, 'could not explain a refused DM question'),
      );
  };

  dispatchOf(app).event('message', async ({ message, body, client }) => {
    const m = message as MessageLike;
    // Regdesk subscribes to `message.im` only. Slack sends edits, deletions and bot posts (Regdesk's
    // own replies included) as messages too: only people's new messages ask.
    if (m.channel_type !== 'im' || m.subtype !== undefined || m.bot_id !== undefined) return;
    const channel = m.channel ?? '';
    const threadTs = m.thread_ts ?? m.ts ?? '';
    const refuse = (error: unknown) => explain(client, channel, threadTs, error);
    try {
      await asking.submit({
        surface: 'dm',
        workspace: workspaceOf(body),
        user: m.user ?? '',
        client,
        dedupeId: `event:${body.event_id ?? `${channel}:${m.ts}`}`,
        question: cleanQuestion(m.text ?? ''),
        // Its place and progress are the thread's status, and its first question the thread's title,
        // once it is let in (places.ts: a refused one names nothing).
        channel,
        threadTs,
        refuse,
      });
    } catch (error) {
      await refuse(error);
    }
  });
}
