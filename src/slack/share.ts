import { randomBytes } from 'node:crypto';
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { Logger } from '../shared/logger.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../shared/workspace.js';
import { text } from '../text/index.js';
import { button, context } from './blocks.js';
import { onAction } from './handlers.js';
import { workspaceOf } from './workspace.js';

/** A stored card: what the person saw. */
const SharedCard = z.lazy(() =>
  z.object({
    text: z.string(),
    blocks: z.array(z.custom<KnownBlock>((value) => typeof value === 'object' && value !== null)),
  }),
);

/** Action id of every "Share in channel" button. */
export const SHARE_ACTION = 'share.channel';

/** Shared cards are kept a day: long enough to decide to share, short enough to hold nothing stale. */
const CARD_TTL_SECONDS = 24 * 60 * 60;

/**
 * Look-ups answer ephemerally; "Share in channel" reposts the same card publicly. The card is kept in
 * Redis under a random id (a button value holds at most 2000 characters, a card far more), so the
 * public post is exactly what the user saw, with who shared it.
 */
export class ShareableCards {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, id: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'card', id);
  }

  async withShareButton(
    workspace: WorkspaceRef,
    cardText: string,
    blocks: KnownBlock[],
  ): Promise<KnownBlock[]> {
    const id = randomBytes(8).toString('hex');
    await this.redis.set(
      this.#key(workspace, id),
      JSON.stringify({ text: cardText, blocks }),
      'EX',
      CARD_TTL_SECONDS,
    );
    return [...blocks, { type: 'actions', elements: [button(text.slack.shareButton, SHARE_ACTION, id)] }];
  }

  /**
   * Shares through the action's response_url with `in_channel`: Slack posts it in the conversation
   * the card was shown in, DMs and private channels without the bot included, where a bot post would
   * fail. The ephemeral original is then removed.
   */
  register(app: App, logger: Logger): void {
    onAction<BlockAction<ButtonAction>>(app, SHARE_ACTION, logger, async ({ body, action, respond }) => {
      const raw = await this.redis.get(this.#key(workspaceOf(body), action.value ?? ''));
      const card = raw === null ? undefined : SharedCard.safeParse(JSON.parse(raw)).data;
      if (card === undefined) {
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          text: text.slack.cardExpired,
        });
        return;
      }
      await respond({
        response_type: 'in_channel',
        replace_original: false,
        text: card.text,
        blocks: [...card.blocks, context(text.slack.sharedBy({ user: body.user.id }))],
      });
      await respond({ delete_original: true });
    });
  }
}
