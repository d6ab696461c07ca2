import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../shared/logger.js';
import { text } from '../text/index.js';
import { noticeModal } from './blocks.js';
import { replyForError } from './error-reply.js';
import { type Message, replyPrivately } from './reply.js';
import { openModal, updateModal } from './views.js';

/** The callback id of the loading modal: nothing handles it, it is only replaced. */
const LOADING_VIEW = 'regdesk.loading';

/**
 * Opens a loading modal at once, because a trigger_id lasts 3 s (docs/requirements.md R2) and the
 * registrar may be slow, then replaces it with `fill`'s view or with the failure. A view the user
 * closed meanwhile is left alone (`updateModal`).
 */
export async function openThenFill(
  client: WebClient,
  triggerId: string,
  title: string,
  fill: () => Promise<View>,
  logger: Logger,
): Promise<void> {
  const opened = await openModal(client, triggerId, noticeModal(title, text.slack.loading, LOADING_VIEW));
  let view: View;
  try {
    view = await fill();
  } catch (error) {
    // `fill` only reads the registrar (a reissue draft is Regdesk's own), so nothing was changed.
    view = noticeModal(title, replyForError(error, logger, { nothingChanged: true }).text, LOADING_VIEW);
  }
  await updateModal(client, opened, view);
}

/** Who submitted a modal, and the conversation it was opened from. */
export interface Submitter {
  client: WebClient;
  user: string;
  channel: string;
}

type Tell = (message: Message) => Promise<void>;

/**
 * The slow part of a submission, run after its ack (docs/requirements.md R1). What it tells, a
 * failure included, reaches the person privately (slack/reply.ts: ephemeral in the channel the modal
 * came from, else their DM with the bot).
 */
export function afterAck(
  who: Submitter,
  logger: Logger,
  work: (tell: Tell) => Promise<void>,
): () => Promise<void> {
  const tell: Tell = async (message) => {
    await replyPrivately(who, message, logger);
  };
  return async () => {
    try {
      await work(tell);
    } catch (error) {
      await tell(replyForError(error, logger));
    }
  };
}
