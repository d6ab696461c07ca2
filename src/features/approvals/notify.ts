import type { WebClient } from '@slack/web-api';
import { AppError } from '../../shared/app-error.js';
import type { Logger } from '../../shared/logger.js';
import type { ApprovalRequest } from './store.js';

/** Tells the requester how their request went (ephemeral in its channel); a failure is only logged. */
export async function notifyRequester(
  client: WebClient,
  request: ApprovalRequest,
  logger: Logger,
  text: string,
): Promise<void> {
  try {
    await client.chat.postEphemeral({ channel: request.channel, user: request.requester, text });
  } catch (error) {
    logger.warn(
      { requestId: request.id, err: error instanceof Error ? error.message : String(error) },
      'could not notify requester',
    );
  }
}

/** docs/requirements.md R28: a secret goes to the requester alone: ephemeral, or by DM when that fails. */
export async function tellRequesterPrivately(
  client: WebClient,
  request: ApprovalRequest,
  text: string,
): Promise<void> {
  try {
    await client.chat.postEphemeral({ channel: request.channel, user: request.requester, text });
  } catch {
    const dm = await client.conversations.open({ users: request.requester });
    const channel = dm.channel?.id;
    if (channel === undefined)
      throw new AppError('regdesk_dm_failed', 'could not reach the requester privately');
    await client.chat.postMessage({ channel, text });
  }
}
