import type { ChatPostMessageArguments, ChatUpdateArguments, WebClient } from '@slack/web-api';
import type { Limiter } from '../shared/limiter.js';
import type { KeySpace } from '../shared/redis.js';

/** Slack allows about one message per second per channel (docs/requirements.md R7). */
const PER_CHANNEL = { max: 1, windowMs: 1_000 };
/** Longer than this and the update is stale anyway; post it regardless rather than drop it. */
const MAX_WAIT_MS = 30_000;

/**
 * Posts and updates paced per channel across all processes, so bursts (a 50-name check updating one
 * message, approvals and follow-ups in one channel) never trip Slack's per-channel rate limit.
 */
export class ChannelPoster {
  constructor(
    private readonly limiter: Limiter,
    private readonly keys: KeySpace,
  ) {}

  async #pace(channel: string): Promise<void> {
    await this.limiter.acquireWithin(
      [{ key: this.keys.key(`ch:${channel}`, 'pace'), ...PER_CHANNEL }],
      MAX_WAIT_MS,
    );
  }

  async post(client: WebClient, args: ChatPostMessageArguments & { channel: string }): Promise<string> {
    await this.#pace(args.channel);
    const result = await client.chat.postMessage(args);
    return result.ts ?? '';
  }

  async update(client: WebClient, args: ChatUpdateArguments): Promise<void> {
    await this.#pace(args.channel);
    await client.chat.update(args);
  }
}
