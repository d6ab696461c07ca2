import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { type SlackRefusal, slackRefusal } from '../../slack/platform-errors.js';

const PROBE_TEXT =
  ':wave: Regdesk is checking that it can post approval requests here. This message removes itself.';
/** A view submission is answered within Slack's 3 s; a probe Slack has not answered by then counts as failed. */
const PROBE_DEADLINE_MS = 2_000;

const REFUSALS: Partial<Record<SlackRefusal, string>> = {
  not_in_channel:
    'Regdesk is not in this channel: invite it with `/invite @Regdesk` there, or choose another.',
  channel_not_found:
    'Regdesk cannot post in this conversation (a private channel it is not in): invite it with `/invite @Regdesk`, or choose another.',
  is_archived: 'This channel is archived; choose another.',
};

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
  if (channel.startsWith('D'))
    return 'Choose a channel: approval requests are posted where approvers can see them.';
  const post = client.chat.postMessage({ channel, text: PROBE_TEXT });
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
    return (
      (refusal === undefined ? undefined : REFUSALS[refusal]) ??
      'Regdesk could not check that it can post here; try again in a moment.'
    );
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
