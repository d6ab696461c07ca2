import { createHash } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { section } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { WorkspaceRef } from '../../vault/store.js';
import { dnssecCard } from '../dnssec/blocks.js';
import { displayName } from '../domains/names.js';
import { certificateCard } from '../tls/blocks.js';

export const FOLLOW_QUEUE = 'follow';
export type FollowKind = 'dnssec' | 'certificate';

/** Deadlines: DNSSEC converges within 48 h; certificate validation may take up to 30 days. */
export const FOLLOW_DEADLINES_MS: Record<FollowKind, number> = {
  dnssec: 48 * 60 * 60 * 1000,
  certificate: 30 * 24 * 60 * 60 * 1000,
};
const FIRST_CHECK_MS = 2_000;
const MAX_INTERVAL_MS = 10 * 60 * 1000;

/** The check schedule: about 2 s after the start, doubling each time, capped at 10 minutes. */
export function followDelay(attempt: number): number {
  return Math.min(MAX_INTERVAL_MS, FIRST_CHECK_MS * 2 ** attempt);
}

/** Job data: ids and where to report; never a key, trigger_id or response_url. */
export interface FollowJob {
  teamId: string;
  enterpriseId?: string;
  kind: FollowKind;
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
 * kind and resource, so BullMQ keeps a single job (docs/requirements.md R16). Following is a chain of delayed
 * jobs, not an in-process timer, so it survives restarts.
 */
export async function follow(
  queue: Queue<FollowJob>,
  workspace: WorkspaceRef,
  kind: FollowKind,
  resource: string,
  origin: Origin,
  now: number,
): Promise<string> {
  const jobId = `follow-${kind}-${createHash('sha256')
    .update(`${workspace.enterpriseId ?? '-'}:${workspace.teamId}:${resource}`)
    .digest('hex')
    .slice(0, 24)}`;
  await queue.add(
    'follow',
    {
      teamId: workspace.teamId,
      ...(workspace.enterpriseId === undefined ? {} : { enterpriseId: workspace.enterpriseId }),
      kind,
      resource,
      channel: origin.channel,
      threadTs: origin.threadTs,
      deadline: now + FOLLOW_DEADLINES_MS[kind],
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

/** When settled: what the thread is told, and the resource's current card for the origin message. */
type Outcome =
  | { settled: false }
  | { settled: true; text: string; card: { text: string; blocks: KnownBlock[] } };

async function check(registrar: RegistrarClient, job: FollowJob): Promise<Outcome> {
  if (job.kind === 'dnssec') {
    const state = await registrar.dnssec.get(job.resource);
    const pending =
      state.dnssec_state === 'pending' || (state.pending_job !== undefined && state.pending_job !== null);
    if (pending) return { settled: false };
    const icon = state.dnssec_state === 'active' ? ':lock:' : ':unlock:';
    return {
      settled: true,
      card: dnssecCard(job.resource, state),
      text: `${icon} DNSSEC for ${codeSpan(displayName(job.resource))} is now *${escapeMrkdwn(state.dnssec_state)}* (mode ${codeSpan(state.mode ?? 'none')}).`,
    };
  }
  const cert = await registrar.tls.get(job.resource);
  if (cert.status === 'pending') return { settled: false };
  if (cert.status === 'issued') {
    return {
      settled: true,
      card: certificateCard(cert),
      text: `:white_check_mark: Certificate ${codeSpan(cert.id)} for ${codeSpan(cert.common_name)} is issued. Download it with \`/tls download ${cert.id} pem\` or \`zip\`.`,
    };
  }
  return {
    settled: true,
    card: certificateCard(cert),
    text: `:x: Certificate ${codeSpan(cert.id)} ended as *${escapeMrkdwn(cert.status)}*${cert.pending_message ? `: ${escapeMrkdwn(cert.pending_message)}` : ''}.`,
  };
}

export interface FollowDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  logger: Logger;
  now: () => number;
}

/** Checks once; reschedules itself with the backoff until settled or past the deadline. */
export function followProcessor(deps: FollowDeps) {
  return async (job: Job<FollowJob>, token?: string): Promise<void> => {
    const data = job.data;
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
    let outcome: Outcome;
    try {
      outcome = await check(deps.registrarFor(workspace), data);
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
        `:alarm_clock: ${codeSpan(data.resource)} is still pending after the deadline; Regdesk stopped following it. Check it with \`/${data.kind === 'dnssec' ? 'dns dnssec' : 'tls show'} ${data.resource}\`.`,
      );
      return;
    }
    await job.updateData({ ...data, attempt: data.attempt + 1 });
    await job.moveToDelayed(Date.now() + followDelay(data.attempt + 1), token);
    throw new DelayedError();
  };
}
