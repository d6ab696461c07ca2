import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { RegfishLimits } from '../../config.js';
import {
  AssistantBusyError,
  BadRequestError,
  ForbiddenError,
  RateLimitedError,
  type RegistrarClient,
  RegistrarError,
} from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import { type Limiter, withLatencyMargin } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { answerMessage, failedMessage, retryingMessage, waitingMessage } from './blocks.js';
import { type AssistantJob, type AssistantService, workspaceOfJob } from './service.js';

/** Busy (503) and rate-limited (429) answers are retried this many times, then the asker is told. */
const MAX_ATTEMPTS = 8;
/** How long one question may hold its account's single slot; longer than any registrar timeout. */
const INFLIGHT_LEASE_MS = 45_000;
/** Waiting questions look again this often, so positions move and the head starts promptly. */
const POLL_MS = 750;

export interface AssistantWorkerDeps {
  service: AssistantService;
  queue: Queue<AssistantJob>;
  redis: Redis;
  limiter: Limiter;
  limits: RegfishLimits;
  poster: ChannelPoster;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  logger: Logger;
}

// Take the account's single in-flight slot, or keep it when this same job already holds it (a re-run
// after its worker died: the crashed run's lease must not block it).
const TAKE_SLOT = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;
const RELEASE_SLOT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

function backoff(attempt: number): number {
  // 2 s, 4 s, 8 s … capped at 60 s, with up to 30 % jitter so retries from many processes spread out.
  const base = Math.min(60_000, 2_000 * 2 ** (attempt - 1));
  return base + Math.random() * base * 0.3;
}

/**
 * One question at a time per registrar account across every process (docs/requirements.md R13): questions of
 * an account are answered in arrival order; only the oldest may run, and only with the account's
 * slot in Redis and room in both rate windows (docs/requirements.md R14). Waiting is a delayed job, never a
 * failure (docs/requirements.md R15). Re-runs are harmless (docs/requirements.md R17): the answer replaces the same
 * placeholder message, and a question already answered is not asked again.
 */
export function assistantProcessor(deps: AssistantWorkerDeps) {
  const { redis, service } = deps;
  const keys = service.redisKeys;

  /** Start the account's next question now instead of at its next poll: no idle gap between answers. */
  const promoteNext = async (account: string) => {
    const [next] = await redis.zrange(keys.queue(account), '0', '0');
    if (next === undefined) return;
    const job = await deps.queue.getJob(next);
    if (job !== undefined && (await job.isDelayed())) await job.promote().catch(() => undefined);
  };

  return async (job: Job<AssistantJob>, token?: string): Promise<void> => {
    const data = job.data;
    const jobId = job.id ?? '';
    if ((await redis.exists(keys.answered(data.account, jobId))) === 1) return;
    const workspace = workspaceOfJob(data);
    const client = await deps.slackFor(workspace);
    const update = (message: { text: string; blocks: KnownBlock[] }) =>
      deps.poster.update(client, { channel: data.channel, ts: data.statusTs, ...message });
    const later = async (ms: number, patch: Partial<AssistantJob> = {}) => {
      if (Object.keys(patch).length > 0) await job.updateData({ ...data, ...patch });
      await job.moveToDelayed(Date.now() + ms, token);
      throw new DelayedError();
    };

    await redis.zadd(keys.queue(data.account), 'NX', data.enqueuedAt, jobId);
    const ahead = (await redis.zrank(keys.queue(data.account), jobId)) ?? 0;
    if (ahead > 0) {
      // Positions near the front are shown exactly; further back in steps of five, so a long queue
      // does not flood Slack with edits. The next question is promoted when one finishes, so polling
      // only has to catch up positions: the further back, the less often.
      const shown = data.shownAhead ?? -1;
      const worthShowing = ahead <= 3 || ahead % 5 === 0 || shown < 0 || ahead > shown;
      if (ahead !== shown && worthShowing) await update(waitingMessage(ahead));
      await later(POLL_MS * Math.min(ahead, 8) + Math.random() * 250, {
        shownAhead: worthShowing ? ahead : shown,
      });
    }
    const slot = keys.inflight(data.account);
    const releaseSlot = () => redis.eval(RELEASE_SLOT, 1, slot, jobId);
    if (Number(await redis.eval(TAKE_SLOT, 1, slot, jobId, String(INFLIGHT_LEASE_MS))) !== 1)
      await later(POLL_MS);

    try {
      const quota = await deps.limiter.acquire([
        {
          key: keys.perKey(data.account),
          max: deps.limits.assistantKey.max,
          windowMs: withLatencyMargin(deps.limits.assistantKey.windowMs),
        },
        {
          key: keys.perAccount(data.account),
          max: deps.limits.assistantAccount.max,
          windowMs: withLatencyMargin(deps.limits.assistantAccount.windowMs),
        },
      ]);
      if (!quota.ok) {
        if (data.shownAhead !== 0) await update(waitingMessage(0));
        await later(quota.retryAfterMs + Math.random() * 200, { shownAhead: 0 });
      }
      const question = await service.withContext(data);
      let answer: Awaited<ReturnType<RegistrarClient['assistant']['ask']>>;
      try {
        answer = await deps.registrarFor(workspace).assistant.ask({ q: question, locale: data.locale });
      } catch (error) {
        await releaseSlot();
        const attempts = (data.attempts ?? 0) + 1;
        const retryable =
          error instanceof AssistantBusyError ||
          error instanceof RateLimitedError ||
          (error instanceof RegistrarError && (error.status === 0 || error.status >= 500));
        if (retryable && attempts < MAX_ATTEMPTS) {
          const wait =
            error instanceof RateLimitedError && error.retryAfterMs !== undefined
              ? error.retryAfterMs
              : backoff(attempts);
          await update(retryingMessage(error instanceof RateLimitedError ? 'rate limit' : 'busy'));
          await later(wait, { attempts, shownAhead: -1 });
        }
        const reason =
          error instanceof ForbiddenError
            ? "the assistant is not available for this workspace's key."
            : error instanceof BadRequestError
              ? 'the assistant could not take this question; try rephrasing it.'
              : retryable
                ? `the assistant stayed busy after ${attempts} tries; please ask again later.`
                : error instanceof AppError
                  ? error.userMessage
                  : 'something went wrong.';
        await finish(failedMessage(reason), false);
        return;
      }
      // The registrar is done: free the account's slot before the (paced) Slack update.
      await releaseSlot();
      await service.remember(data, answer.answer);
      await finish(answerMessage(answer), true);
    } finally {
      // Released on every path, delays included: the next look decides afresh.
      await releaseSlot();
    }

    async function finish(
      message: { text: string; blocks: KnownBlock[] } | undefined,
      answered: boolean,
    ): Promise<void> {
      await redis.set(keys.answered(data.account, jobId), '1', 'EX', 24 * 60 * 60);
      await redis.zrem(keys.queue(data.account), jobId);
      await promoteNext(data.account);
      if (message !== undefined) await update(message);
      if (data.askTs !== undefined) {
        await client.reactions
          .remove({ channel: data.channel, timestamp: data.askTs, name: 'hourglass_flowing_sand' })
          .catch(() => undefined);
        await client.reactions
          .add({ channel: data.channel, timestamp: data.askTs, name: answered ? 'white_check_mark' : 'x' })
          .catch(() => undefined);
      }
    }
  };
}
