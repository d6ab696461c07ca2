import { randomUUID } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import { RegistrarError } from '../registrar/errors.js';
import { isAppError } from '../shared/app-error.js';
import type { Logger } from '../shared/logger.js';
import { RedisUnavailableError } from '../shared/redis.js';
import { markup, text } from '../text/index.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { adviceFor, slackRefusal } from './platform-errors.js';

export interface ErrorReply {
  text: string;
  blocks: KnownBlock[];
}

export interface ErrorContext {
  /**
   * Set only where the failure is known to have changed nothing (a read, or a step before any
   * registrar change): only then do the words say so (docs/requirements.md R31).
   */
  nothingChanged?: boolean;
}

/**
 * The one place a failure becomes words for a Slack user. Known errors carry a message the user
 * can act on (Slack refusals say what to do); anything else is logged with a reference the user can
 * quote to an operator.
 */
export function replyForError(error: unknown, logger: Logger, context: ErrorContext = {}): ErrorReply {
  const refusal = slackRefusal(error);
  if (refusal !== undefined) {
    logger.warn({ slackError: refusal }, 'slack refused');
    return plain(text.slack.warning({ message: markup(adviceFor(refusal)) }));
  }
  if (isRedisUnavailable(error)) {
    logger.warn({ err: (error as Error).message }, 'redis unavailable');
    return plain(text.slack.warning({ message: markup(new RedisUnavailableError().userMessage) }));
  }
  if (isAppError(error)) {
    logger.warn({ code: error.code, err: error.message }, 'request refused');
    // The registrar's errors quote what it said ("The registrar says: …"): inert like every registrar
    // string. Regdesk's own messages may carry mrkdwn on purpose (`<#C…>` channel links).
    const message = error instanceof RegistrarError ? escapeMrkdwn(error.userMessage) : error.userMessage;
    return plain(text.slack.warning({ message: markup(message) }));
  }
  const reference = randomUUID().slice(0, 8);
  logger.error(
    { reference, err: error instanceof Error ? error.message : String(error) },
    'unexpected error',
  );
  return plain(
    text.slack.unexpectedError({
      nothingChanged: context.nothingChanged === true,
      reference: escapeMrkdwn(reference),
    }),
  );
}

function plain(message: string): ErrorReply {
  return { text: message, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message } }] };
}

/**
 * ioredis fails fast on the request path (docs/requirements.md R22): offline queue disabled, one retry. Those
 * failures, and BullMQ's over the same connection, mean "the store is down", not a bug.
 */
function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof RedisUnavailableError ||
    error.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|Command timed out/.test(error.message)
  );
}
