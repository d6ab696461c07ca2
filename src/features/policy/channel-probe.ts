import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { type SlackRefusal, slackRefusal } from '../../slack/platform-errors.js';
import { text } from '../../text/index.js';

/** A view submission is answered within Slack's 3 s; a probe Slack has not answered by then counts as failed. */
const PROBE_DEADLINE_MS = 2_000;

/** Why a probe failed: what Slack refused, where the admin can act on it. */
function probeFailure(refusal: SlackRefusal | undefined): string {
  switch (refusal) {
    case 'not_in_channel':
      return text.policy.probeNotInChannel;
    case 'channel_not_found':
      return text.policy.probeChannelNotFound;
    case 'is_archived':
      return text.policy.probeArchived;
    default:
      return text.policy.probeFailed;
  }
}

/**
 * Why Regdesk could not post approval requests in `channel`, or undefined when it can: a short test
 * post, deleted again, so a policy never names a channel where requests would fail
 * (docs/requirements.md R30). Returns the text for the field's inline error.
 */
export async function cannotPostIn(
  client: WebClient,
  channel: string,
  logger: Logger,
): Promise<string | undefined> {
  if (channel.startsWith('D')) return text.policy.probeChooseChannel;
  const post = client.chat.postMessage({ channel, text: text.policy.probeText });
  // Whenever the probe lands, even after the answer was sent, it is deleted again.
  void post
    .then(
      async ({ ts }) => {
        if (ts !== undefined) await client.chat.delete({ channel, ts });
      },
      () => undefined, // a refused probe is answered below
    )
    .catch((error: unknown) =>
      logger.warn({ slackError: slackRefusal(error) }, 'could not delete the approvals channel probe'),
    );
  try {
    await withDeadline(post, PROBE_DEADLINE_MS);
    return undefined;
  } catch (error) {
    const refusal = slackRefusal(error);
    logger.warn({ slackError: refusal }, 'approvals channel probe failed');
    return probeFailure(refusal);
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
