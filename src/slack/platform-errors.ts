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

const ADVICE: Record<SlackRefusal, string> = {
  not_in_channel:
    'Regdesk is not in this channel: invite it with `/invite @Regdesk`, or set an approvals channel in `/domain policy`.',
  channel_not_found:
    'Regdesk cannot post in this conversation (a private channel or DM it is not part of): invite it with `/invite @Regdesk`, or set an approvals channel in `/domain policy`.',
  is_archived: 'This channel is archived, so Regdesk cannot post in it; use another channel.',
  message_not_found: 'The message this belonged to was deleted.',
  expired_trigger_id: 'Slack allows a dialog to open only within 3 seconds; run the command again.',
  user_not_in_channel: 'You are not a member of that channel.',
  ratelimited: 'Slack is limiting how fast Regdesk may post right now; try again in a minute.',
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
  return ADVICE[refusal];
}
