import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { AppError } from '../shared/app-error.js';
import type { Logger } from '../shared/logger.js';
import { text } from '../text/index.js';
import { adviceFor, cannotPostHere, slackRefusal } from './platform-errors.js';

/**
 * Where a reply goes, decided in this one place (features do not choose):
 * - tied to a command or button press: the interaction's response_url first — it works wherever the
 *   person typed, DMs and private channels without the bot included — then (for a modal opened from
 *   a conversation) an ephemeral there, then the DM with the bot;
 * - a notification (approval asked of you, the outcome of your request): the DM with the bot, since
 *   DMs notify and survive a reload while ephemerals vanish;
 * - a public message (approval request, assistant question): the channel, or a clear refusal that
 *   says how to make it possible.
 */
export interface Message {
  text: string;
  blocks?: KnownBlock[];
}

export type Respond = (message: Message & { response_type?: 'ephemeral' | 'in_channel' }) => Promise<unknown>;

export interface Person {
  user: string;
  client: WebClient;
  /** The interaction's response_url (commands and buttons; good for 5 uses within 30 minutes). */
  respond?: Respond;
  /** The conversation a modal was opened from: an ephemeral there comes before the DM. */
  channel?: string;
}

/** Tells the person privately; false when no way worked (already logged). */
export async function replyPrivately(person: Person, message: Message, logger: Logger): Promise<boolean> {
  if (person.respond !== undefined) {
    try {
      await person.respond({ response_type: 'ephemeral', ...message });
      return true;
    } catch (error) {
      logger.warn({ err: errorText(error) }, 'response_url failed; trying another way');
    }
  }
  if (person.channel !== undefined) {
    try {
      await person.client.chat.postEphemeral({ channel: person.channel, user: person.user, ...message });
      return true;
    } catch (error) {
      logger.warn({ slackError: slackRefusal(error) }, 'ephemeral failed; trying a DM');
    }
  }
  return notifyByDm(person.client, person.user, message, logger);
}

/** A DM from the bot to `user` (opened if needed); false when Slack refuses it (logged). */
export async function notifyByDm(
  client: WebClient,
  user: string,
  message: Message,
  logger: Logger,
): Promise<boolean> {
  try {
    const dm = await client.conversations.open({ users: user });
    const channel = dm.channel?.id;
    if (channel === undefined) return false;
    await client.chat.postMessage({ channel, ...message });
    return true;
  } catch (error) {
    logger.warn({ err: errorText(error), slackError: slackRefusal(error) }, 'could not DM the user');
    return false;
  }
}

/** The bot cannot post publicly where it was asked to; the message says what to do. */
export class CannotPostHere extends AppError {
  constructor(cause: unknown) {
    const refusal = slackRefusal(cause);
    super('regdesk_cannot_post_here', () =>
      refusal === undefined ? text.slack.cannotPostHere : adviceFor(refusal),
    );
  }
}

/** Runs a public post; Slack's "not here" refusals become `CannotPostHere` with advice. */
export async function postPublicly<T>(post: () => Promise<T>): Promise<T> {
  try {
    return await post();
  } catch (error) {
    if (cannotPostHere(error)) throw new CannotPostHere(error);
    throw error;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
