import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { TlsCertificate } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { noticeModal } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { CannotPostHere, type Message, notifyByDm, postPublicly } from '../../slack/reply.js';
import { openModal, updateModal } from '../../slack/views.js';
import type { Origin } from '../follow/jobs.js';
import { announcement } from './blocks.js';
import { LOADING_VIEW } from './ids.js';
import type { CertificateOrders } from './order-service.js';
import type { TlsService } from './service.js';

/** Slack I/O shared by the TLS handlers, and what they are given (built in index.ts). */
export interface TlsHandlerDeps {
  service: TlsService;
  orders: CertificateOrders;
  poster: ChannelPoster;
  followCertificate(workspace: WorkspaceRef, id: string, origin: Origin): Promise<void>;
  logger: Logger;
}

/**
 * Opens a loading modal at once, because a trigger_id lasts 3 s (docs/requirements.md R2) and the
 * registrar may be slow, then replaces it with `fill`'s view or with the failure.
 */
export async function openThenFill(
  client: WebClient,
  triggerId: string,
  title: string,
  fill: () => Promise<View>,
  logger: Logger,
): Promise<void> {
  const opened = await openModal(
    client,
    triggerId,
    noticeModal(title, ':hourglass_flowing_sand: Loading…', LOADING_VIEW),
  );
  let view: View;
  try {
    view = await fill();
  } catch (error) {
    // `fill` only reads the registrar (a reissue draft is Regdesk's own), so nothing was changed.
    view = noticeModal(title, replyForError(error, logger, { nothingChanged: true }).text, LOADING_VIEW);
  }
  await updateModal(client, opened, view);
}

type Tell = (message: Message) => Promise<void>;

/**
 * The slow part of a submission, run after its ack (docs/requirements.md R1). Its outcome, a failure
 * included, is told to the person privately: ephemeral in the channel the modal came from, or their DM
 * with the bot when Regdesk cannot post there.
 */
export function afterAck(
  client: WebClient,
  where: { channel: string; user: string },
  logger: Logger,
  work: (tell: Tell) => Promise<void>,
): () => Promise<void> {
  const tell: Tell = async (message) => {
    try {
      await client.chat.postEphemeral({ ...where, ...message });
    } catch {
      await notifyByDm(client, where.user, message, logger);
    }
  };
  return async () => {
    try {
      await work(tell);
    } catch (error) {
      await tell(replyForError(error, logger));
    }
  };
}

/**
 * Posts an order or reissue in the channel; a pending one is then followed, with progress in that
 * message's thread (docs/requirements.md C4, "Following"). Where Regdesk cannot post, the certificate
 * is ordered all the same, so the person is told privately (docs/requirements.md R30).
 */
export async function announce(
  deps: TlsHandlerDeps,
  client: WebClient,
  workspace: WorkspaceRef,
  where: { channel: string; user: string },
  tell: Tell,
  verb: 'ordered' | 'reissued',
  cert: TlsCertificate,
): Promise<void> {
  const message = announcement(where.user, verb, cert);
  let ts: string;
  try {
    ts = await postPublicly(() => deps.poster.post(client, { channel: where.channel, ...message }));
  } catch (error) {
    if (!(error instanceof CannotPostHere)) throw error;
    await tell({
      text: `${message.text}. ${error.userMessage} \`/tls show ${cert.id}\` shows its progress.`,
    });
    return;
  }
  if (cert.status === 'pending') {
    await deps.followCertificate(workspace, cert.id, { channel: where.channel, threadTs: ts });
  }
}
