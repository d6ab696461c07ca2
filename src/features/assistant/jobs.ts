import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
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
import { DelayedError } from '../../shared/bullmq.js';
import { type Limiter, withLatencyMargin } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import { LuaScript } from '../../shared/lua.js';
import type { Redis } from '../../shared/redis.js';
import { waitForReplicas } from '../../shared/redis-replicas.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { inLanguage, localeOfSlack, text } from '../../text/index.js';
import type { PolicyStore } from '../policy/policy.js';
import type { Outcome } from './answer.js';
import type { Asking } from './asking.js';
import type { AnswerCache } from './cache.js';
import type { Estimator } from './estimate.js';
import { questionFor, ThreadHistory } from './history.js';
import { Intake } from './intake.js';
import { DELIVERY_LEASE_MS, errorText, Outcomes } from './outcome.js';
import { Placeholders } from './placeholder.js';
import { openPlaceholder, progressView } from './progress.js';
import { type AssistantJob, type AssistantService, isReceived, type QueuedQuestion } from './service.js';

export { progressView } from './progress.js';

/** Busy (503) and rate-limited (429) answers are retried this many times, then the asker is told. */
const MAX_ATTEMPTS = 8;
/** How long one question may hold its account's single slot; longer than any registrar timeout. */
const INFLIGHT_LEASE_MS = 45_000;
/** Waiting questions look again this often, so positions move and the head starts promptly. */
const POLL_MS = 750;
/** Rate-window waits up to this long are slept through in the job instead of re-delaying it. */
const SLEEP_THROUGH_MS = 250;
/** Slack drops an assistant thread's status after two minutes without a message: renew it sooner. */
const STATUS_RENEW_MS = 90_000;

export interface AssistantWorkerDeps {
  /** Decides about a received question again in its job: the process that acked it may have died. */
  asking: Asking;
  service: AssistantService;
  queue: Queue<AssistantJob>;
  redis: Redis;
  limiter: Limiter;
  limits: RegfishLimits;
  poster: ChannelPoster;
  policies: PolicyStore;
  cache: AnswerCache;
  estimator: Estimator;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  logger: Logger;
}

// Take the account's single in-flight slot, or keep it when this same job already holds it (a re-run
// after its worker died: the crashed run's lease must not block it).
const TAKE_SLOT = new LuaScript(`
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function backoff(attempt: number): number {
  // 2 s, 4 s, 8 s … capped at 60 s, with up to 30 % jitter so retries from many processes spread out.
  const base = Math.min(60_000, 2_000 * 2 ** (attempt - 1));
  return base + Math.random() * base * 0.3;
}

const isRetryable = (error: unknown) =>
  error instanceof AssistantBusyError ||
  error instanceof RateLimitedError ||
  (error instanceof RegistrarError && (error.status === 0 || error.status >= 500));

function reasonFor(error: unknown, attempts: number): string {
  if (error instanceof ForbiddenError) return text.assistant.reasonNotAvailable;
  if (error instanceof BadRequestError) return text.assistant.reasonRejected;
  if (isRetryable(error)) return text.assistant.reasonStayedBusy({ attempts });
  if (error instanceof AppError) return error.userMessage;
  return text.assistant.reasonInternal;
}

/**
 * One question at a time per registrar account across every process (docs/requirements.md R13):
 * questions of an account are answered in arrival order; only the oldest may run, and only with the
 * account's slot in Redis and room in both rate windows (R14). Waiting is a delayed job, never a
 * failure (R15). Every way a question ends, errors included, settles it (`Outcomes`): its place and
 * slot are freed and the asker is told once, so one failure never holds up the account. Re-runs are
 * harmless (R17): a settled question is delivered, never asked again, and never posted twice.
 */
export function assistantProcessor(deps: AssistantWorkerDeps) {
  const { redis, service, logger } = deps;
  const keys = service.redisKeys;
  const placeholders = new Placeholders(redis, keys);
  const history = new ThreadHistory(redis, keys);
  const outcomes = new Outcomes({
    redis,
    keys,
    queue: deps.queue,
    poster: deps.poster,
    policies: deps.policies,
    slackFor: deps.slackFor,
    logger,
  });
  const intake = new Intake({ ...deps, outcomes, panelKey: keys.panel });

  const run = async (
    job: Job<AssistantJob>,
    data: QueuedQuestion,
    jobId: string,
    token: string | undefined,
  ): Promise<void> => {
    const later = async (
      ms: number,
      patch: Partial<QueuedQuestion> = {},
      waitingForTurn = false,
    ): Promise<never> => {
      if (Object.keys(patch).length > 0) await job.updateData({ ...data, ...patch });
      await job.moveToDelayed(Date.now() + ms, token);
      // The question ahead may have finished between this one's look at the queue and the move: its
      // hand-over (outcome.ts `#release`) then found nothing delayed to promote. Looking again after
      // the move closes that gap, so the turn is not lost to a poll interval.
      if (waitingForTurn && (await redis.zrank(keys.queue(data.account), jobId)) === 0)
        await job.promote().catch(() => undefined);
      throw new DelayedError();
    };
    // A run that finds another still posting looks again once that one's lease may have lapsed.
    const deliver = async (settled?: Outcome) => {
      if ((await outcomes.deliver(data, jobId, settled)) === 'busy') await later(DELIVERY_LEASE_MS / 4);
    };
    if ((await outcomes.of(data, jobId)) !== undefined) return deliver();

    const workspace = workspaceFields(data);
    const client = await deps.slackFor(workspace);
    const show = progressView(data, jobId, client, deps.poster, placeholders, (error: unknown) =>
      logger.info({ jobId, slackError: slackRefusal(error), err: errorText(error) }, 'progress edit failed'),
    );
    // Beside this run, not awaited: the post waits behind the channel's answers, the turn must not.
    // A Messages-tab thread shows a status instead, an agent's question nothing (progress.ts).
    if (data.surface === undefined)
      void openPlaceholder(data, jobId, client, deps.poster, placeholders, (ahead) =>
        deps.estimator.estimate(data.account, ahead),
      ).catch((error: unknown) =>
        logger.info(
          { jobId, slackError: slackRefusal(error), err: errorText(error) },
          'placeholder not posted',
        ),
      );
    // A panel's status lapses after two minutes; a placeholder message does not.
    const stale = data.surface === 'panel' && Date.now() - (data.shownAt ?? 0) > STATUS_RENEW_MS;

    const queue = keys.queue(data.account);
    await redis.zadd(queue, 'NX', data.enqueuedAt, jobId);
    let ahead = (await redis.zrank(queue, jobId)) ?? 0;
    if (ahead > 0) {
      await outcomes.clearStaleHeads(data.account, jobId);
      ahead = (await redis.zrank(queue, jobId)) ?? 0;
    }
    if (ahead > 0) {
      // Positions near the front are shown exactly; further back in steps of five, so a long queue
      // does not flood Slack with edits. The next question is promoted when one finishes, so polling
      // only has to catch up positions: the further back, the less often.
      const shown = data.shownAhead ?? -1;
      const worthShowing = ahead <= 3 || ahead % 5 === 0 || shown < 0 || ahead > shown;
      const showing = (ahead !== shown && worthShowing) || stale;
      if (showing)
        await show({ kind: 'waiting', ahead, waitMs: await deps.estimator.estimate(data.account, ahead) });
      await later(
        POLL_MS * Math.min(ahead, 8) + Math.random() * 250,
        { shownAhead: showing ? ahead : shown, ...(showing ? { shownAt: Date.now() } : {}) },
        true,
      );
    }

    const slot = await TAKE_SLOT.run(redis, 1, keys.inflight(data.account), jobId, String(INFLIGHT_LEASE_MS));
    if (Number(slot) !== 1) await later(POLL_MS);
    // The slot must outlive a fail-over, or another process asks while this one does (R13).
    await waitForReplicas(redis, keys.inflight(data.account));
    let outcome: Outcome;
    let bookkeeping: (() => Promise<void>) | undefined;
    try {
      const takeQuota = () =>
        deps.limiter.take([
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
      let quota = await takeQuota();
      // The last stretch of a wait is slept through here: a delayed job's round trip (moved out,
      // woken, fetched, run up to here again) costs tens of ms on a busy machine, and each ms is
      // quota left unused (issue #17). The head holds the account's slot meanwhile; it is its turn.
      for (let naps = 0; !quota.ok && quota.retryAfterMs <= SLEEP_THROUGH_MS && naps < 3; naps++) {
        await sleep(quota.retryAfterMs);
        quota = await takeQuota();
      }
      if (!quota.ok) {
        // Waiting for a rate window: the head's estimate is that wait plus an answer's time.
        if (data.shownAhead !== 0 || stale)
          await show({ kind: 'waiting', ahead: 0, waitMs: await deps.estimator.estimate(data.account, 0) });
        // No jitter: only the account's head waits for the window (the others wait for their turn),
        // so nothing else wakes with it. It wakes a little early and sleeps the rest (above).
        await later(Math.max(0, quota.retryAfterMs - SLEEP_THROUGH_MS / 2), {
          shownAhead: 0,
          shownAt: Date.now(),
        });
      }
      // Settled once, on every path: a question that fails before it is sent frees its slot too.
      let settling: Promise<void> | undefined;
      const settle = () => (settling ??= quota.ok ? quota.settle() : Promise.resolve());
      try {
        // The question leaves the queue for the registrar: "is looking it up…".
        if (data.shownAhead !== 0 || data.surface === 'panel') await show({ kind: 'working' });
        // A privately answered exchange of the thread is carried only into its asker's private answers.
        const question = await questionFor(data, history, () => outcomes.answeredPrivately(data));
        // The quota slot is in flight from its taking until the answer, and counts from the answer
        // (limiter.ts `take`): the registrar counted the question on arrival, before its answer, so
        // the account's next question arrives a whole window later however long the way took (R44).
        const started = Date.now();
        const answer = await deps
          .registrarFor(workspace)
          .assistant.ask({ q: question.text, locale: data.locale })
          .finally(settle);
        outcome = { ok: true, answer, ...(question.confidential ? { confidential: true as const } : {}) };
        const tookMs = Date.now() - started;
        // Written once the outcome is settled, which hands the account to its next question: these
        // writes are not on that question's path.
        bookkeeping = async () => {
          await deps.estimator.record(data.account, tookMs);
          // Only a question asked without context is the same question when asked again.
          if (question.bare)
            await deps.cache.put(
              { workspace, account: data.account, locale: data.locale, question: data.question },
              answer,
            );
        };
      } catch (error) {
        await settle();
        const attempts = (data.attempts ?? 0) + 1;
        if (isRetryable(error) && attempts < MAX_ATTEMPTS) {
          // Free the account before the (paced) edit: the wait is this question's, not the account's.
          await outcomes.releaseSlot(data.account, jobId);
          await show({
            kind: 'retrying',
            reason:
              error instanceof RateLimitedError
                ? text.assistant.retryReasonRateLimit
                : text.assistant.retryReasonBusy,
          });
          const wait =
            error instanceof RateLimitedError && error.retryAfterMs !== undefined
              ? error.retryAfterMs
              : backoff(attempts);
          await later(wait, { attempts, shownAhead: -1 });
        }
        outcome = { ok: false, reason: reasonFor(error, attempts) };
      }
    } finally {
      // Released on every path, delays included: the next look decides afresh.
      await outcomes.releaseSlot(data.account, jobId);
    }
    await outcomes.settle(data, jobId, outcome);
    await bookkeeping?.();
    await deliver(outcome);
  };

  // Everything the asker reads — position, progress, the answer's card — in their language (service.ts).
  return (job: Job<AssistantJob>, token?: string): Promise<void> => {
    const { data } = job;
    const speaks = isReceived(data) ? data.speaks : (data.speaks ?? localeOfSlack(data.locale));
    return inLanguage(speaks, () => handle(job, token));
  };

  async function handle(job: Job<AssistantJob>, token?: string): Promise<void> {
    const jobId = job.id ?? '';
    try {
      const data = isReceived(job.data) ? await intake.take(job, job.data) : job.data;
      await run(job, data, jobId, token);
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      // Still being taken in: it ends before its queue, its place given back.
      if (isReceived(job.data)) return intake.end(job.data, jobId, error);
      // Slack refused, the workspace was uninstalled, its key removed…: the question ends here rather
      // than failing with its place still at the head of the account's queue.
      logger.error({ jobId, err: errorText(error) }, 'assistant question failed; its place is freed');
      await outcomes.settle(job.data, jobId, { ok: false, reason: reasonFor(error, job.data.attempts ?? 1) });
      await outcomes.deliver(job.data, jobId);
    }
  }
}
