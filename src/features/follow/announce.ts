import type { Logger } from '../../shared/logger.js';
import { context } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import {
  CannotPostHere,
  type Message,
  type Person,
  postPublicly,
  replyPrivately,
} from '../../slack/reply.js';
import { text } from '../../text/index.js';
import type { Origin } from './jobs.js';

export interface AnnounceDeps {
  poster: ChannelPoster;
  logger: Logger;
}

/** Following the changed resource: how to start it, and the command that shows it meanwhile. */
export interface Following {
  start(origin: Origin): Promise<void>;
  showCommand: string;
}

/**
 * The outcome of a registrar change that succeeded (its card: id, state, next steps): posted in the
 * channel it was asked in, its thread then followed. Where Slack refuses the post (a DM, a private
 * channel without the bot, an archived one), the change happened all the same, so the card goes to
 * the person privately and following reports in their DM with the bot (docs/requirements.md R30,
 * C4 "Following"). Never throws for Slack's sake: the caller must not tell of a failure.
 */
export async function announceChange(
  deps: AnnounceDeps,
  person: Person & { channel: string },
  message: Message & { blocks: NonNullable<Message['blocks']> },
  following?: Following,
): Promise<void> {
  let origin: Origin;
  try {
    const note = following === undefined ? [] : [context(text.workspace.followNote)];
    const ts = await postPublicly(() =>
      deps.poster.post(person.client, {
        channel: person.channel,
        text: message.text,
        blocks: [...message.blocks, ...note],
      }),
    );
    origin = { channel: person.channel, threadTs: ts, ownCard: true, startedBy: person.user };
  } catch (error) {
    deps.logger.warn({ slackError: slackRefusal(error) }, 'outcome not posted publicly; telling privately');
    const why = error instanceof CannotPostHere ? error.userMessage : text.workspace.followNotPosted;
    const told = text.workspace.followToldPrivately({ why, following: following !== undefined });
    await replyPrivately(
      person,
      { text: message.text, blocks: [...message.blocks, context(told)] },
      deps.logger,
    );
    // A user id as the channel is the person's DM with the bot; no thread there, so no card to replace.
    origin = { channel: person.user, startedBy: person.user };
  }
  if (following === undefined) return;
  try {
    await following.start(origin);
  } catch (error) {
    // The change stands; only the follow-up is missing (so nothing here says nothing changed, R31).
    const reason = replyForError(error, deps.logger).text;
    await replyPrivately(
      person,
      {
        text: text.workspace.followNotStarted({ reason, command: following.showCommand }),
      },
      deps.logger,
    );
  }
}
