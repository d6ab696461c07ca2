import type { WebClient } from '@slack/web-api';
import type { Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { cannotPostHere } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { postPublicly } from '../../slack/reply.js';
import { markup, text } from '../../text/index.js';
import type { ReceivedQuestion } from './service.js';

/** A thread is remembered (titled or not) as long as Slack keeps it in the Messages tab's history. */
const THREAD_TTL_SECONDS = 30 * 24 * 60 * 60;
/** How much of the message is quoted back to the asker where it is answered privately. */
const QUOTE_LENGTH = 300;

/** Where a question's answer goes: its thread. */
export interface Thread {
  channel: string;
  threadTs: string;
}

export interface PlaceDeps {
  poster: ChannelPoster;
  redis: Redis;
  /** The key of a Messages-tab thread's record (`AssistantKeys.panel`). */
  panelKey(workspace: WorkspaceRef, channel: string, threadTs: string): string;
}

/**
 * The question's thread, made ready once it is let in (a refused one names nothing), as a step of its
 * job (intake.ts): `/ask` posts the question publicly, where the answer's thread starts; a mention
 * gets the working reaction; a Messages-tab thread its title; the shortcut a line saying who asked.
 * The job records the thread, so a re-run does not post it again; a run that dies while Slack takes
 * the post leaves one the next run cannot see, and posts it again (at least once: the answer needs it).
 */
export async function placeQuestion(
  deps: PlaceDeps,
  client: WebClient,
  q: ReceivedQuestion,
  jobId: string,
): Promise<Thread> {
  const { poster } = deps;
  const here = { channel: q.channel, threadTs: q.threadTs ?? '' };
  switch (q.surface) {
    case '/ask': {
      // Where the bot cannot post (a DM with someone else, a private channel without it, an archived
      // channel) this refuses with advice, and the asker is told it privately.
      const questionTs = await postPublicly(() =>
        poster.post(client, {
          channel: q.channel,
          text: text.assistant.askedPublicly({ user: q.user, question: escapeMrkdwn(q.question) }),
        }),
      );
      return { channel: q.channel, threadTs: questionTs };
    }
    case 'mention': {
      const { askTs } = q;
      if (askTs !== undefined) {
        const working = () =>
          client.reactions.add({ channel: q.channel, timestamp: askTs, name: 'hourglass_flowing_sand' });
        await poster.tier3(client, 'reactions.add', working, 'progress').catch(() => undefined);
      }
      return here;
    }
    case 'dm': {
      // The thread's first question becomes its title in the tab's history.
      if (await firstOf(deps, q, jobId))
        await client.assistant.threads
          .setTitle({ channel_id: q.channel, thread_ts: here.threadTs, title: truncate(q.question, 60) })
          .catch(() => undefined);
      return here;
    }
    case 'shortcut':
      return placeShortcut(client, poster, q, here);
    case 'agent':
      // Nothing in Slack: its own id stands for its thread, so it shares no history or placeholder.
      return { channel: q.channel, threadTs: jobId };
  }
}

/**
 * Whether `jobId` is its Messages-tab thread's first question, across processes: the thread's record
 * names the first one, so a re-run of that question still titles the thread.
 */
async function firstOf(deps: PlaceDeps, q: ReceivedQuestion, jobId: string): Promise<boolean> {
  const key = deps.panelKey(workspaceFields(q), q.channel, q.threadTs ?? '');
  const replies = await deps.redis
    .multi()
    .hsetnx(key, 'titled', jobId)
    .hget(key, 'titled')
    .expire(key, THREAD_TTL_SECONDS)
    .exec();
  return replies?.[1]?.[1] === jobId;
}

/**
 * The message's thread when the bot can post there (a public line says who asked: the thread's
 * readers see why Regdesk answers); else the asker's DM with the bot, quoting the message.
 */
async function placeShortcut(
  client: WebClient,
  poster: ChannelPoster,
  q: ReceivedQuestion,
  message: Thread,
): Promise<Thread> {
  try {
    await poster.post(client, {
      channel: message.channel,
      thread_ts: message.threadTs,
      text: text.assistant.shortcutAskedPublicly({ user: q.user }),
    });
    return message;
  } catch (error) {
    if (!cannotPostHere(error)) throw error;
  }
  const dm = await client.conversations.open({ users: q.user });
  const channel = dm.channel?.id;
  if (channel === undefined) throw new Error('conversations.open returned no channel');
  const quote = escapeMrkdwn(truncate(q.context ?? '', QUOTE_LENGTH)).replace(/^/gm, '> ');
  const threadTs = await poster.post(client, {
    channel,
    text: text.assistant.shortcutAskedPrivately({ channel: message.channel, quote: markup(quote) }),
  });
  return { channel, threadTs };
}
