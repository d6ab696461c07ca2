import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { context } from '../../slack/blocks.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { notifyByDm } from '../../slack/reply.js';
import { text } from '../../text/index.js';

export interface DeliverDeps {
  poster: ChannelPoster;
  logger: Logger;
}

/** Whom a message Slack refuses in its channel reaches by DM; a message about several items, each adder. */
const MAX_FALLBACK_DMS = 10;

/**
 * Posts in the channel (paced per channel); where Slack refuses (the bot is not a member, the
 * channel is archived or a DM with someone else) the people behind it hear it by DM, with what to
 * change (docs/requirements.md R30). Anything else (Slack down) is thrown, so the caller retries.
 * Returns where it went.
 */
export async function deliver(
  deps: DeliverDeps,
  client: WebClient,
  channel: string,
  fallback: string | readonly string[] | undefined,
  message: { text: string; blocks: KnownBlock[] },
): Promise<'channel' | 'dm' | 'nowhere'> {
  try {
    await deps.poster.post(client, { channel, ...message });
    return 'channel';
  } catch (error) {
    const refusal = slackRefusal(error);
    if (refusal === undefined || refusal === 'ratelimited') throw error;
    deps.logger.warn({ slackError: refusal }, 'watch message refused by the channel; telling by DM');
    const users = [...new Set(typeof fallback === 'string' ? [fallback] : (fallback ?? []))];
    const note = context(text.watches.deliveryRefused({ channel, refusal }));
    let sent = false;
    for (const user of users.slice(0, MAX_FALLBACK_DMS)) {
      const dm = { text: message.text, blocks: [...message.blocks, note] };
      if (await notifyByDm(client, user, dm, deps.logger)) sent = true;
    }
    return sent ? 'dm' : 'nowhere';
  }
}
