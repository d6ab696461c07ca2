import type { SlackCall } from '../../src/playground/slack-standin.js';

/**
 * Reading the paced Slack stand-in's call log. It records every call with its answer, the 429s of its
 * pacing included; a figure counts only what Slack took.
 */

/** The text of a recorded message (fallback text only; enough to tell answers from placeholders). */
export function textOf(call: SlackCall): string {
  return typeof call.args.text === 'string' ? call.args.text : '';
}

/** True when Slack took the call (answered `ok: true`): a refused post reached nobody. */
export function delivered(call: SlackCall): boolean {
  return (call.result as { ok?: unknown } | undefined)?.ok === true;
}

/** True when the call was answered 429 by the stand-in's pacing (Slack's rate limits). */
export function rateLimited(call: SlackCall): boolean {
  return (call.result as { error?: unknown } | undefined)?.error === 'ratelimited';
}
