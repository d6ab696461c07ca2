import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { Policy } from '../policy/policy.js';

/** Who reads a question's outcome: everyone in its thread, or the asker alone. */
export type Audience = 'thread' | 'asker';

/**
 * Answers carry account data (billing, domains, certificates), so the workspace's policy
 * (`assistantAnswers`) decides who reads them:
 * - `channel`: the question's thread;
 * - `asker`: the asker alone;
 * - `shared-private` (the default): the asker alone in Slack Connect channels, where people of
 *   other organisations read along, who never act on the account (docs/requirements.md R33) and
 *   must not read its data either; the thread elsewhere.
 *
 * A DM with the bot (`D…`; the bot can post in no other DM) is the asker's alone: its thread always
 * takes the answer. Whether a channel is shared is asked of Slack (`conversations.info`) when the
 * outcome is delivered, since a channel can be shared while its question waits. When Slack cannot
 * tell (missing scope, error), the answer goes privately: a wrong guess must never publish.
 */
export async function audienceOf(
  client: WebClient,
  channel: string,
  rule: Policy['assistantAnswers'],
  logger: Logger,
): Promise<Audience> {
  if (rule === 'channel' || channel.startsWith('D')) return 'thread';
  if (rule === 'asker') return 'asker';
  try {
    const { channel: info } = await client.conversations.info({ channel });
    const shared = info === undefined || info.is_ext_shared === true || info.is_pending_ext_shared === true;
    return shared ? 'asker' : 'thread';
  } catch (error) {
    logger.warn(
      { slackError: slackRefusal(error), err: error instanceof Error ? error.message : String(error) },
      'cannot tell whether the channel is shared with other organisations; answering privately',
    );
    return 'asker';
  }
}
