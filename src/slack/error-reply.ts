import { randomUUID } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import { isAppError } from '../shared/app-error.js';
import type { Logger } from '../shared/logger.js';
import { escapeMrkdwn } from './mrkdwn.js';

export interface ErrorReply {
  text: string;
  blocks: KnownBlock[];
}

/**
 * The one place a failure becomes words for a Slack user. Known errors carry a message the user
 * can act on; anything else is logged with a reference the user can quote to an operator.
 */
export function replyForError(error: unknown, logger: Logger): ErrorReply {
  if (isAppError(error)) {
    logger.warn({ code: error.code, err: error.message }, 'request refused');
    return plain(`:warning: ${error.userMessage}`);
  }
  const reference = randomUUID().slice(0, 8);
  logger.error(
    { reference, err: error instanceof Error ? error.message : String(error) },
    'unexpected error',
  );
  return plain(
    `:x: Something went wrong on Regdesk's side. Nothing was changed. ` +
      `If it keeps happening, give your Regdesk operator this reference: \`${escapeMrkdwn(reference)}\`.`,
  );
}

function plain(text: string): ErrorReply {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
