import type { Authorize, AuthorizeResult } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../shared/logger.js';

/**
 * Single-workspace authorization. Bolt's built-in one calls `auth.test` once at construction and caches
 * the promise, a failure included: a Slack blip at start-up would break every later request. Here a
 * success is cached and a failure is retried on the next request, while the request goes on with the
 * token alone (Bolt then cannot ignore the bot's own messages, which our listeners tolerate).
 */
export function singleWorkspaceAuthorize(
  token: string,
  options: WebClientOptions,
  logger: Logger,
): Authorize<boolean> {
  // Fail fast here: this runs inside the 3 s ack budget.
  const client = new WebClient(token, { ...options, timeout: 2_000, retryConfig: { retries: 0 } });
  let identity: AuthorizeResult | undefined;
  return async () => {
    if (identity !== undefined) return identity;
    try {
      const auth = await client.auth.test();
      identity = {
        botToken: token,
        ...(auth.bot_id === undefined ? {} : { botId: auth.bot_id }),
        ...(auth.user_id === undefined ? {} : { botUserId: auth.user_id }),
        ...(auth.team_id === undefined ? {} : { teamId: auth.team_id }),
        ...(auth.enterprise_id === undefined ? {} : { enterpriseId: auth.enterprise_id }),
      };
      return identity;
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'auth.test failed; will retry',
      );
      return { botToken: token };
    }
  };
}
