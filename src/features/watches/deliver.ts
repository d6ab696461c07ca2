import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { context } from '../../slack/blocks.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { notifyByDm } from '../../slack/reply.js';

export interface DeliverDeps {
  poster: ChannelPoster;
  logger: Logger;
}

/**
 * Posts in the channel (paced per channel); where Slack refuses (the bot is not a member, the
 * channel is archived or a DM with someone else) the person behind it hears it by DM, with what to
 * change (docs/requirements.md R30). Anything else (Slack down) is thrown, so the caller retries.
 * Returns where it went.
 */
export async function deliver(
  deps: DeliverDeps,
  client: WebClient,
  channel: string,
  fallbackUser: string | undefined,
  message: { text: string; blocks: KnownBlock[] },
): Promise<'channel' | 'dm' | 'nowhere'> {
  try {
    await deps.poster.post(client, { channel, ...message });
    return 'channel';
  } catch (error) {
    const refusal = slackRefusal(error);
    if (refusal === undefined || refusal === 'ratelimited') throw error;
    deps.logger.warn({ slackError: refusal }, 'watch message refused by the channel; telling by DM');
    if (fallbackUser === undefined) return 'nowhere';
    const note = context(
      `Regdesk could not post this in <#${channel}> (${refusal}): invite it with \`/invite @Regdesk\`, or choose a channel it is in with \`/domain watch settings\`.`,
    );
    const sent = await notifyByDm(
      client,
      fallbackUser,
      { text: message.text, blocks: [...message.blocks, note] },
      deps.logger,
    );
    return sent ? 'dm' : 'nowhere';
  }
}
