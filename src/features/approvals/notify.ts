import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { cannotPostHere, slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { inLanguage, type Locale } from '../../text/index.js';
import { approvalMessage } from './blocks.js';
import type { ApprovalRequest, MessageCopy } from './record.js';

/** Tries per message update; a refusal that cannot change (deleted message, archived channel) stops at once. */
const UPDATE_ATTEMPTS = 3;
const RETRY_DELAY_MS = 1_000;

/**
 * Sends each approver a copy of the request in their DM, with the same buttons (docs/requirements.md
 * C3: approvers are told of new requests). Best-effort: an approver Slack refuses is skipped and
 * logged. Returns the copies that were posted, so later steps update them too.
 */
export async function sendApproverCopies(
  client: WebClient,
  poster: ChannelPoster,
  request: ApprovalRequest,
  approvers: readonly string[],
  logger: Logger,
  languageOf: (user: string) => Promise<Locale>,
): Promise<MessageCopy[]> {
  const copies = await Promise.all(
    approvers.map(async (user): Promise<MessageCopy | undefined> => {
      try {
        const dm = await client.conversations.open({ users: user });
        const channel = dm.channel?.id;
        if (channel === undefined) return undefined;
        // A copy is for one person: in their language (the channel's message is in the workspace's).
        const message = inLanguage(await languageOf(user), () => approvalMessage(request, 'approver'));
        return { user, channel, ts: await poster.post(client, { channel, ...message }) };
      } catch (error) {
        logger.warn(
          { requestId: request.id, user, slackError: slackRefusal(error) },
          'could not ask approver',
        );
        return undefined;
      }
    }),
  );
  return copies.filter((copy): copy is MessageCopy => copy !== undefined);
}

/** How a best-effort update ended: `gone` means the message or its channel cannot be updated ever again. */
export type UpdateResult = 'updated' | 'gone' | 'failed';

/**
 * A message update that must never block a state transition (docs/requirements.md R30): retried a
 * few times, given up at once when the message or channel is gone.
 */
export async function updateBestEffort(
  update: () => Promise<void>,
  logger: Logger,
  context: Record<string, string>,
): Promise<UpdateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      await update();
      return 'updated';
    } catch (error) {
      const refusal = slackRefusal(error);
      const gone = cannotPostHere(error) || refusal === 'message_not_found';
      if (gone || attempt >= UPDATE_ATTEMPTS) {
        logger.warn(
          { ...context, slackError: refusal, err: error instanceof Error ? error.message : String(error) },
          'message not updated',
        );
        return gone ? 'gone' : 'failed';
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * 2 ** (attempt - 1)));
    }
  }
}
