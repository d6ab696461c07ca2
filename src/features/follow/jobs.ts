import { createHash } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { section } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';

export const FOLLOW_QUEUE = 'follow';
const FIRST_CHECK_MS = 2_000;
const MAX_INTERVAL_MS = 10 * 60 * 1000;

/** The check schedule: about 2 s after the start, doubling each time, capped at 10 minutes. */
export function followDelay(attempt: number): number {
  return Math.min(MAX_INTERVAL_MS, FIRST_CHECK_MS * 2 ** attempt);
}

/** One read of a followed resource: still pending, or what the thread is told and the settled card. */
export type FollowOutcome =
  | { settled: false }
  | { settled: true; text: string; card: { text: string; blocks: KnownBlock[] } };

/**
 * What a feature supplies to have its pending work followed (certificates by tls, transitions by
 * dnssec): following itself knows no feature.
 */
export interface Follower<Kind extends string = string> {
  kind: Kind;
  /** How long the work may stay pending before Regdesk stops following and says so. */
  deadlineMs: number;
  /** The command a person runs to look at the resource, for the deadline message. */
  showCommand(resource: string): string;
  /** Is it settled? One registrar read. */
  check(registrar: RegistrarClient, resource: string): Promise<FollowOutcome>;
}

/** Job data: ids and where to report; never a key, trigger_id or response_url. */
export interface FollowJob {
  teamId: string;
  enterpriseId?: string;
  kind: string;
  /** The domain (DNSSEC) or certificate id being followed. */
  resource: string;
  channel: string;
  /** The message that started it; the outcome is told in its thread. */
  threadTs: string;
  deadline: number;
  attempt: number;
}

export interface Origin {
  channel: string;
  threadTs: string;
}

/**
 * One follower per resource however often it is asked for: the job id is derived from the workspace,
 * kind and resource, so BullMQ keeps a single job (docs/requirements.md R16). Following is a chain of
 * delayed jobs, not an in-process timer, so it survives restarts.
 */
export async function follow(
  queue: Queue<FollowJob>,
  follower: Pick<Follower, 'kind' | 'deadlineMs'>,
  workspace: WorkspaceRef,
  resource: string,
  origin: Origin,
  now: number,
): Promise<string> {
  const jobId = `follow-${follower.kind}-${createHash('sha256')
    .update(`${workspace.enterpriseId ?? '-'}:${workspace.teamId}:${resource}`)
    .digest('hex')
    .slice(0, 24)}`;
  await queue.add(
    'follow',
    {
      teamId: workspace.teamId,
      ...(workspace.enterpriseId === undefined ? {} : { enterpriseId: workspace.enterpriseId }),
      kind: follower.kind,
      resource,
      channel: origin.channel,
      threadTs: origin.threadTs,
      deadline: now + follower.deadlineMs,
      attempt: 0,
    },
    // Removed once settled, so a later change of the same resource can be followed again.
    {
      jobId,
      delay: FIRST_CHECK_MS,
      removeOnComplete: true,
      attempts: 3,
      backoff: { type: 'exponential', delay: 5_000 },
    },
  );
  return jobId;
}

export interface FollowDeps {
  followers: readonly Follower[];
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  logger: Logger;
  now: () => number;
}

/** Checks once; reschedules itself with the backoff until settled or past the deadline. */
export function followProcessor(deps: FollowDeps) {
  const followers = new Map(deps.followers.map((follower) => [follower.kind, follower]));
  return async (job: Job<FollowJob>, token?: string): Promise<void> => {
    const data = job.data;
    const follower = followers.get(data.kind);
    if (follower === undefined) throw new Error(`nothing follows ${data.kind}`);
    const workspace =
      data.enterpriseId === undefined
        ? { teamId: data.teamId }
        : { teamId: data.teamId, enterpriseId: data.enterpriseId };
    const tell = async (text: string) => {
      const client = await deps.slackFor(workspace);
      await deps.poster.post(client, {
        channel: data.channel,
        thread_ts: data.threadTs,
        text,
        blocks: [section(text)],
      });
    };
    let outcome: FollowOutcome;
    try {
      outcome = await follower.check(deps.registrarFor(workspace), data.resource);
    } catch (error) {
      // Not found or a rejected key will not fix itself: stop and say so. Anything else: try later.
      if (error instanceof RegistrarError && [400, 401, 403, 404].includes(error.status)) {
        await tell(
          `:warning: Stopped following ${codeSpan(data.resource)}: ${escapeMrkdwn(error.userMessage)}`,
        );
        return;
      }
      deps.logger.warn(
        { resource: data.resource, err: error instanceof Error ? error.message : String(error) },
        'follow check failed',
      );
      outcome = { settled: false };
    }
    if (outcome.settled) {
      // The origin message becomes the resource's settled card; the thread hears the outcome.
      const client = await deps.slackFor(workspace);
      await deps.poster
        .update(client, { channel: data.channel, ts: data.threadTs, ...outcome.card })
        .catch((error: unknown) =>
          deps.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'origin update failed',
          ),
        );
      await tell(outcome.text);
      return;
    }
    const next = deps.now() + followDelay(data.attempt + 1);
    if (next > data.deadline) {
      await tell(
        `:alarm_clock: ${codeSpan(data.resource)} is still pending after the deadline; Regdesk stopped following it. Check it with \`${follower.showCommand(data.resource)}\`.`,
      );
      return;
    }
    await job.updateData({ ...data, attempt: data.attempt + 1 });
    await job.moveToDelayed(Date.now() + followDelay(data.attempt + 1), token);
    throw new DelayedError();
  };
}
