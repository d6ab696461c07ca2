import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import type { Logger } from '../../shared/logger.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import { replyPrivately } from '../../slack/reply.js';
import { inLanguage, text } from '../../text/index.js';
import { AgentAnswers } from './agent-answers.js';
import type { Asking } from './asking.js';
import { privateReply, type Reply } from './blocks.js';
import type { Outcomes } from './outcome.js';
import { type PlaceDeps, placeQuestion } from './places.js';
import {
  type AssistantJob,
  type AssistantService,
  isReceived,
  type QueuedQuestion,
  queuedQuestion,
  type ReceivedQuestion,
} from './service.js';

/** Arriving questions looked at per question taken in (`clearStaleArrivals`). */
const ARRIVALS_LOOKED_AT = 5;

export interface IntakeDeps extends PlaceDeps {
  asking: Asking;
  service: AssistantService;
  queue: Queue<AssistantJob>;
  outcomes: Outcomes;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  logger: Logger;
}

/**
 * A received question's first steps, in its job (issue #41: nothing of them runs only in the memory
 * of the process that acked it). Each step can run again after a crash without a second effect: the
 * decision finds the place it took, the thread is recorded in the job once posted, the queue entry
 * and a cached outcome are written once. The placeholder follows beside the question's runs
 * (progress.ts `openPlaceholder`).
 */
export class Intake {
  readonly #agents: AgentAnswers;

  constructor(private readonly deps: IntakeDeps) {
    this.#agents = new AgentAnswers(deps.redis, deps.service.redisKeys);
  }

  /**
   * Lets the question in (or refuses it: thrown, for `end`), makes its thread ready, then queues it
   * behind the account's others, or settles it from the answer cache for its run to deliver. Returns
   * the queued question, which its job holds from then on.
   */
  async take(job: Job<AssistantJob>, received: ReceivedQuestion): Promise<QueuedQuestion> {
    const { asking, service, outcomes } = this.deps;
    const jobId = job.id ?? '';
    const client = await this.deps.slackFor(workspaceFields(received));
    const verdict = await asking.decide(received, jobId, client);
    await this.#clearStaleArrivals(verdict.account, jobId);
    const thread = received.placed ?? (await this.#place(job, received, client, jobId));
    const queued = queuedQuestion(received, thread, verdict.account, verdict.locale, service.now());
    if (verdict.cached === undefined) return service.enqueue(job, queued);
    // Settled like an answered question (once, remembered for follow-ups, its place given back if it
    // held one), then delivered by the run that follows, with no slot, quota or registrar call.
    const { answer, at } = verdict.cached;
    await outcomes.settle(queued, jobId, { ok: true, answer, cachedAt: at });
    await job.updateData(queued);
    return queued;
  }

  async #place(job: Job<AssistantJob>, received: ReceivedQuestion, client: WebClient, jobId: string) {
    const thread = await placeQuestion(this.deps, client, received, jobId);
    await job.updateData({ ...received, placed: thread });
    return thread;
  }

  /**
   * A question that ends in its intake (refused, its thread impossible, an error): its place is given
   * back and its asker told why (`#tell`).
   */
  async end(received: ReceivedQuestion, jobId: string, error: unknown): Promise<void> {
    await this.#giveUp(received, jobId);
    if (received.surface === 'agent')
      return this.#agents.refused(workspaceFields(received), jobId, error, this.deps.logger);
    await this.#tell(received, jobId, replyForError(error, this.deps.logger));
  }

  /**
   * Questions of the account let in whose jobs died in their intake beyond Regdesk's reach (a process
   * crashing on them past BullMQ's stalled limit) or vanished: their places are given back, and the
   * asker of a dead one told it is lost. Looked at as each new question of the account is taken in:
   * the oldest few only, so a burst costs a few look-ups per question (the living ones soon leave).
   */
  async #clearStaleArrivals(account: string, self: string): Promise<void> {
    const { redis, service, queue, logger } = this.deps;
    const arriving = service.redisKeys.arriving(account);
    for (const jobId of await redis.zrange(arriving, '0', String(ARRIVALS_LOOKED_AT - 1))) {
      const state = jobId === self ? 'self' : await queue.getJobState(jobId);
      if (state !== 'failed' && state !== 'completed' && state !== 'unknown') continue;
      // Whoever takes it off the list clears it: its asker is told once.
      if ((await redis.zrem(arriving, jobId)) === 0) continue;
      logger.warn({ jobId, state }, 'a question that died before the assistant queue is cleared');
      const job: Job<AssistantJob> | undefined = state === 'failed' ? await queue.getJob(jobId) : undefined;
      // Gone, or ended without giving back its place: that lapses (`AssistantService.admit`).
      if (job === undefined || !isReceived(job.data)) continue;
      const received = job.data;
      await this.#giveUp(received, jobId);
      const lost = { ok: false as const, reason: text.assistant.reasonLost };
      if (received.surface === 'agent') await this.#agents.deliver(workspaceFields(received), jobId, lost);
      else
        await inLanguage(received.speaks, () =>
          this.#tell(received, jobId, privateReply(lost, received.question, 'policy', [])),
        );
    }
  }

  /** Its place given back, and the message it was about forgotten. */
  async #giveUp(received: ReceivedQuestion, jobId: string): Promise<void> {
    const { service, outcomes } = this.deps;
    const account = await service.accountOf(workspaceFields(received)).catch(() => undefined);
    if (account !== undefined) await service.giveBack({ account, user: received.user, jobId });
    await outcomes.forgetContext(jobId);
  }

  /**
   * Privately where they asked (an ephemeral, else a DM; a job holds no response_url,
   * docs/requirements.md R2), or in a Messages-tab thread, in that thread.
   */
  async #tell(received: ReceivedQuestion, jobId: string, reply: Reply): Promise<void> {
    const { poster, logger } = this.deps;
    const client = await this.deps.slackFor(workspaceFields(received)).catch((error: unknown) => {
      logger.warn({ jobId, err: String(error) }, 'the asker of a question not let in cannot be told');
      return undefined;
    });
    if (client === undefined) return;
    if (received.surface !== 'dm') {
      await replyPrivately({ user: received.user, client, channel: received.channel }, reply, logger);
      return;
    }
    await poster
      .post(client, { channel: received.channel, thread_ts: received.threadTs ?? '', ...reply })
      .catch((postError: unknown) =>
        logger.warn({ slackError: slackRefusal(postError) }, 'could not explain a refused DM question'),
      );
  }
}
