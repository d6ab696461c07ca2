import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { SlackDeps } from '../../slack/app.js';
import { Assistant } from '../../slack/bolt-core.js';
import { dispatchOf } from '../../slack/dispatch.js';
import { replyForError } from '../../slack/error-reply.js';
import { truncate } from '../../slack/mrkdwn.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { Asking, AskingDeps } from './asking.js';
import { cleanQuestion } from './service.js';

/** An assistant thread is remembered as long as Slack keeps offering it in the panel's history. */
const PANEL_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Suggested prompts (`assistant.threads.setSuggestedPrompts`: at most four) in the asker's language:
 * what a registrar's customers ask most.
 */
export const SUGGESTED_PROMPTS = {
  en: {
    title: 'Ask the registrar’s assistant, for example:',
    prompts: [
      { title: 'Renewals', message: 'How does auto-renew work for my domains?' },
      { title: 'DNSSEC', message: 'How do I enable DNSSEC for my domain?' },
      { title: 'Certificates', message: 'How does certificate validation work?' },
      { title: 'Transfers', message: 'How does a domain transfer work?' },
    ],
  },
  de: {
    title: 'Frag den Assistenten des Registrars, zum Beispiel:',
    prompts: [
      { title: 'Verlängerung', message: 'Wie funktioniert die automatische Verlängerung meiner Domains?' },
      { title: 'DNSSEC', message: 'Wie aktiviere ich DNSSEC für meine Domain?' },
      { title: 'Zertifikate', message: 'Wie funktioniert die Validierung eines Zertifikats?' },
      { title: 'Transfers', message: 'Wie funktioniert ein Domain-Transfer?' },
    ],
  },
} as const;

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

/** Which DM threads are assistant threads (started from the panel), and what their user was viewing. */
class PanelThreads {
  constructor(
    private readonly redis: Redis,
    private readonly key: (workspace: WorkspaceRef, channel: string, threadTs: string) => string,
  ) {}

  async started(workspace: WorkspaceRef, channel: string, threadTs: string, user: string, context: unknown) {
    const key = this.key(workspace, channel, threadTs);
    await this.redis
      .multi()
      .hset(key, { user, context: JSON.stringify(context ?? {}) })
      .expire(key, PANEL_TTL_SECONDS)
      .exec();
  }

  async contextChanged(workspace: WorkspaceRef, channel: string, threadTs: string, context: unknown) {
    const key = this.key(workspace, channel, threadTs);
    await this.redis
      .multi()
      .hset(key, { context: JSON.stringify(context ?? {}) })
      .expire(key, PANEL_TTL_SECONDS)
      .exec();
  }

  async context(
    workspace: WorkspaceRef,
    channel: string,
    threadTs: string,
  ): Promise<Record<string, unknown>> {
    const raw = await this.redis.hget(this.key(workspace, channel, threadTs), 'context');
    return raw === null ? {} : (JSON.parse(raw) as Record<string, unknown>);
  }

  async isPanel(workspace: WorkspaceRef, channel: string, threadTs: string): Promise<boolean> {
    return (await this.redis.exists(this.key(workspace, channel, threadTs))) === 1;
  }

  /** True once per thread: its first question names it. */
  async firstQuestion(workspace: WorkspaceRef, channel: string, threadTs: string): Promise<boolean> {
    return (await this.redis.hsetnx(this.key(workspace, channel, threadTs), 'titled', '1')) === 1;
  }
}

/**
 * Regdesk as a Slack assistant app (docs/requirements.md C3): Bolt's `Assistant` for the side panel
 * and DM threads, plus top-level DMs. A new thread gets suggested prompts in the asker's language;
 * every question goes through the same queue as `/ask` (`Asking`), its place shown as the thread's
 * status in an assistant thread, and the answer is a reply in the thread. The thread context Slack
 * sends (the channel the user is viewing) is kept in Redis, so every process sees it and Bolt's
 * default store (process memory, and edits of the first bot message) is not used.
 */
export function registerAssistantPanel(app: App, deps: SlackDeps & AskingDeps, asking: Asking): void {
  const threads = new PanelThreads(deps.redis, deps.assistant.redisKeys.panel);

  // A DM with the bot takes the bot's reply in the thread, where the asker is looking: refusals
  // (a guest, an outsider, the cap), empty questions and failures alike.
  const explain = async (client: WebClient, channel: string, threadTs: string, error: unknown) => {
    await deps.poster
      .post(client, { channel, thread_ts: threadTs, ...replyForError(error, deps.logger) })
      .catch((postError: unknown) =>
        deps.logger.warn({ slackError: slackRefusal(postError) }, 'could not explain a refused DM question'),
      );
  };

  const ask = async (
    client: WebClient,
    body: { event_id?: string },
    message: MessageLike,
    panel?: { setTitle(title: string): Promise<unknown> },
  ) => {
    // Slack sends edits, deletions and bot posts as messages too: only people's new messages ask.
    if (message.subtype !== undefined || message.bot_id !== undefined) return;
    const workspace = workspaceOf(body);
    const channel = message.channel ?? '';
    const user = message.user ?? '';
    const threadTs = message.thread_ts ?? message.ts ?? '';
    try {
      const question = cleanQuestion(message.text ?? '');
      await asking.submit({
        surface: panel === undefined ? 'dm' : 'panel',
        workspace,
        user,
        client,
        dedupeId: `event:${body.event_id ?? `${channel}:${message.ts}`}`,
        question,
        thread: { channel, threadTs },
        place: async () => {
          if (panel === undefined) return { channel, threadTs, askTs: message.ts ?? threadTs, question };
          // The panel's history lists threads by title: the first question's first words (once the
          // question is let in: a refused one names nothing).
          if (await threads.firstQuestion(workspace, channel, threadTs))
            await panel.setTitle(truncate(question, 60)).catch(() => undefined);
          return { channel, threadTs, question, surface: 'panel' as const };
        },
      });
    } catch (error) {
      await explain(client, channel, threadTs, error);
    }
  };

  const assistant = new Assistant({
    threadContextStore: {
      get: async ({ payload, body }) => {
        const { channel, threadTs } = threadOf(payload);
        return threads.context(workspaceOf(body), channel, threadTs);
      },
      save: async ({ payload, body }) => {
        const { channel, threadTs, context } = threadOf(payload);
        await threads.contextChanged(workspaceOf(body), channel, threadTs, context);
      },
    },
    threadStarted: async ({ event, body, client, setSuggestedPrompts }) => {
      const { channel_id: channel, thread_ts: threadTs, user_id: user, context } = event.assistant_thread;
      const workspace = workspaceOf(body);
      await threads.started(workspace, channel, threadTs, user, context);
      // Nobody the permission model refuses is offered prompts: they are told why instead (R33, R43).
      try {
        await asking.mayAsk(client, workspace, user, 'panel');
      } catch (error) {
        await explain(client, channel, threadTs, error);
        return;
      }
      const locale = await asking.localeFor(client, workspace, user, '');
      const language = (locale ?? '').toLowerCase().startsWith('de') ? 'de' : 'en';
      const { title, prompts } = SUGGESTED_PROMPTS[language];
      await setSuggestedPrompts({ title, prompts: [...prompts] }).catch((error: unknown) =>
        deps.logger.warn({ slackError: slackRefusal(error) }, 'suggested prompts not set'),
      );
    },
    threadContextChanged: async ({ event, body }) => {
      const { channel_id: channel, thread_ts: threadTs, context } = event.assistant_thread;
      await threads.contextChanged(workspaceOf(body), channel, threadTs, context);
    },
    userMessage: async ({ message, body, client, setTitle }) => {
      const m = message as MessageLike;
      const workspace = workspaceOf(body);
      // Bolt hands over every threaded DM message; only threads started in the panel have a status.
      const panel = await threads.isPanel(workspace, m.channel ?? '', m.thread_ts ?? '');
      await ask(client, body, m, panel ? { setTitle } : undefined);
    },
  });
  app.assistant(assistant);

  // A top-level DM with the bot (the Messages tab) is a question too, answered in its thread.
  dispatchOf(app).event('message', async ({ message, body, client }) => {
    const m = message as MessageLike;
    if (m.channel_type !== 'im' || m.thread_ts !== undefined) return;
    await ask(client, body, m);
  });
}

/** Channel and thread of an assistant event or message (Bolt's own `extractThreadInfo` rules). */
function threadOf(payload: unknown): { channel: string; threadTs: string; context: unknown } {
  const p = payload as {
    assistant_thread?: { channel_id?: string; thread_ts?: string; context?: unknown };
    channel?: string;
    thread_ts?: string;
  };
  return {
    channel: p.assistant_thread?.channel_id ?? p.channel ?? '',
    threadTs: p.assistant_thread?.thread_ts ?? p.thread_ts ?? '',
    context: p.assistant_thread?.context ?? {},
  };
}
