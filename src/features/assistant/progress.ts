// How a waiting question shows its progress: a Slack-facing concern apart from the job's queueing.
import type { WebClient } from '@slack/web-api';
import type { ChannelPoster } from '../../slack/poster.js';
import { panelStatus, retryingMessage, waitingMessage } from './blocks.js';
import type { Placeholders, PlaceholderView } from './placeholder.js';
import type { QueuedQuestion } from './service.js';

/** Where a question stands, as the asker is shown it. */
export type Progress =
  | { kind: 'waiting'; ahead: number; waitMs: number }
  | { kind: 'working' }
  | { kind: 'retrying'; reason: string };

/**
 * Shows a question's progress where its asker looks: the placeholder reply (a progress edit of the
 * poster: coalesced, behind every final), or in an assistant thread its status, which Slack shows
 * as "Regdesk is looking it up…" and clears when the answer is posted. Best-effort: a deleted
 * placeholder or an archived channel must not fail the question, which still gets its reply.
 */
export function progressView(
  job: QueuedQuestion,
  jobId: string,
  client: WebClient,
  poster: ChannelPoster,
  placeholders: Placeholders,
  onFailure: (error: unknown) => void,
): (progress: Progress) => Promise<void> {
  // An agent reads its position off the account's queue when it asks (agent.ts): nothing to show.
  if (job.surface === 'agent') return async () => {};
  if (job.surface === 'panel') {
    return (progress) => {
      const status =
        progress.kind === 'waiting'
          ? panelStatus.waiting(progress.ahead, progress.waitMs)
          : progress.kind === 'working'
            ? panelStatus.working()
            : panelStatus.retrying();
      return client.assistant.threads
        .setStatus({ channel_id: job.channel, thread_ts: job.threadTs, status })
        .then(() => undefined, onFailure);
    };
  }
  return async (progress) => {
    const view: PlaceholderView =
      progress.kind === 'waiting'
        ? waitingMessage(progress.ahead, progress.waitMs)
        : progress.kind === 'working'
          ? waitingMessage(0)
          : retryingMessage(progress.reason);
    // Not posted yet (it waits behind the channel's answers): it shows this view once it is.
    const ts = await placeholders.progress(job.account, jobId, view).catch(onFailure);
    if (ts === undefined) return;
    return poster
      .update(client, { channel: job.channel, ts, ...view }, { urgency: 'progress' })
      .catch(onFailure);
  };
}

/**
 * The question's placeholder, its position as last shown with an estimate (placeholder.ts `open`: once
 * across every run). Started beside the run, never before it: the post waits behind the channel's
 * answers, and the question's turn must not (issue #17).
 */
export function openPlaceholder(
  job: QueuedQuestion,
  jobId: string,
  client: WebClient,
  poster: ChannelPoster,
  placeholders: Placeholders,
  estimate: (ahead: number) => Promise<number>,
): Promise<void> {
  const ahead = Math.max(0, job.shownAhead ?? 0);
  const place = { account: job.account, jobId, channel: job.channel, threadTs: job.threadTs, user: job.user };
  const view = async () => waitingMessage(ahead, ahead > 0 ? await estimate(ahead) : undefined);
  return placeholders.open(place, view, client, poster);
}
