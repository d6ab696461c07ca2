import type { AnyMiddlewareArgs, Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../shared/logger.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import { text } from '../text/index.js';

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

/**
 * docs/requirements.md R33: the person acting belongs to the workspace whose token and registrar key
 * are used. Interactions name the presser's home team (`user.team_id`) next to the workspace
 * (`team.id`); events name `user_team`. In a Slack Connect channel an outsider's press or mention
 * differs and is refused here, before any listener runs. Slash commands carry no such field: the
 * features check the person (Slack directory) where it matters.
 */
export function membersOnly(logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as {
      type?: string;
      team?: { id?: string } | null;
      team_id?: string;
      user?: { id?: string; team_id?: string } | null;
      event?: { user?: string; user_team?: string };
    };
    const workspace = body.team?.id ?? body.team_id;
    const actingTeam = body.user?.team_id ?? body.event?.user_team;
    if (workspace === undefined || actingTeam === undefined || actingTeam === workspace) {
      await args.next();
      return;
    }
    logger.warn({ kind: body.type ?? 'event' }, 'refused an outsider');
    if ('ack' in args && typeof args.ack === 'function') await (args.ack as () => Promise<void>)();
    if ('respond' in args && typeof args.respond === 'function' && body.type === 'block_actions') {
      await (args.respond as (message: unknown) => Promise<unknown>)({
        response_type: 'ephemeral',
        replace_original: false,
        // No detail about the workspace or what they tried.
        text: text.slack.outsiderRefusal,
      }).catch(() => undefined);
    }
  };
}
