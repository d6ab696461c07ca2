import type { Authorize, AuthorizeResult } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../shared/logger.js';

/**
 * Single-workspace authorization. Bolt's built-in one calls `auth.test` once at construction and caches
 * the promise, a failure included: a Slack blip at start-up would break every later request. Here a
 * success is cached and a failure is retried on the next request, while the request goes on with the
 * token alone (Bolt then cannot ignore the bot's own messages, which our listeners tolerate).
 */
export interface SingleWorkspaceAuth {
  authorize: Authorize<boolean>;
  /** At start-up: learn the identity with a few retries and backoff, without holding start-up up. */
  warmUp(): Promise<void>;
}

const WARM_UP_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

export function singleWorkspaceAuth(
  token: string,
  options: WebClientOptions,
  logger: Logger,
): SingleWorkspaceAuth {
  // Fail fast here: this runs inside the 3 s ack budget.
  const client = new WebClient(token, { ...options, timeout: 2_000, retryConfig: { retries: 0 } });
  let identity: AuthorizeResult | undefined;
  const identify = async (): Promise<AuthorizeResult> => {
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
  const warmUp = async () => {
    for (const delay of [0, ...WARM_UP_DELAYS_MS]) {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      await identify();
      if (identity !== undefined) return;
    }
  };
  return { authorize: identify, warmUp };
}
