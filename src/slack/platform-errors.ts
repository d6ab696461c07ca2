import { text } from '../text/index.js';

/**
 * Slack platform errors Regdesk meets in real workspaces, and what the person should do about each.
 * The Web API client throws them with `code: 'slack_webapi_platform_error'` and the error name in
 * `data.error`; a 429 the client was told not to wait for comes as `slack_webapi_rate_limited_error`.
 */
export type SlackRefusal =
  | 'not_in_channel'
  | 'channel_not_found'
  | 'is_archived'
  | 'message_not_found'
  | 'expired_trigger_id'
  | 'user_not_in_channel'
  | 'ratelimited';

/** What to do about each refusal, said in the language of the moment. */
const ADVICE: Record<SlackRefusal, () => string> = {
  not_in_channel: () => text.slack.notInChannel,
  channel_not_found: () => text.slack.channelNotFound,
  is_archived: () => text.slack.channelArchived,
  message_not_found: () => text.slack.messageDeleted,
  expired_trigger_id: () => text.slack.triggerExpired,
  user_not_in_channel: () => text.slack.userNotInChannel,
  ratelimited: () => text.slack.slackRateLimited,
};

/** The Slack refusal behind `error`, or undefined when it is something else. */
export function slackRefusal(error: unknown): SlackRefusal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: { error?: unknown } };
  if (code === 'slack_webapi_rate_limited_error') return 'ratelimited';
  if (code !== 'slack_webapi_platform_error') return undefined;
  const name = data?.error;
  return typeof name === 'string' && name in ADVICE ? (name as SlackRefusal) : undefined;
}

/** True when Slack said the bot cannot post in the conversation at all. */
export function cannotPostHere(error: unknown): boolean {
  const refusal = slackRefusal(error);
  return refusal === 'not_in_channel' || refusal === 'channel_not_found' || refusal === 'is_archived';
}

export function adviceFor(refusal: SlackRefusal): string {
  return ADVICE[refusal]();
}
