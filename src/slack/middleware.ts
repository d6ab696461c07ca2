import type { AnyMiddlewareArgs, Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../shared/logger.js';
import type { KeySpace, Redis } from '../shared/redis.js';

/** Slack retries an event three times within about an hour; remember ids a little longer. */
const EVENT_ID_TTL_SECONDS = 2 * 60 * 60;

/**
 * docs/requirements.md R5: an Events API delivery and its retries (`X-Slack-Retry-Num`) share one `event_id`;
 * the first to claim it in Redis is processed, every later copy is dropped. Bolt has already acked.
 */
export function dedupeEvents(redis: Redis, keys: KeySpace, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as Partial<SlackEventMiddlewareArgs['body']>;
    const eventId = body.type === 'event_callback' ? body.event_id : undefined;
    if (typeof eventId !== 'string') {
      await args.next();
      return;
    }
    const claimed = await redis.set(
      keys.key(`evt:${eventId}`, 'seen'),
      '1',
      'EX',
      EVENT_ID_TTL_SECONDS,
      'NX',
    );
    if (claimed === null) {
      logger.info({ eventId }, 'dropped a redelivered Slack event');
      return;
    }
    await args.next();
  };
}
