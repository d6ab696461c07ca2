import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import type { AssistantAnswer } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { releaseOwn } from '../../shared/lua.js';
import type { Redis } from '../../shared/redis.js';
import { waitForReplicas } from '../../shared/redis-replicas.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { replyPrivately } from '../../slack/reply.js';
import { text } from '../../text/index.js';
import type { PolicyStore } from '../policy/policy.js';
import { AgentAnswers } from './agent-answers.js';
import type { Outcome } from './answer.js';
import { type Audience, audienceOf } from './audience.js';
import { privateReply, threadReply } from './blocks.js';
import { ThreadHistory } from './history.js';
import type { AssistantKeys } from './keys.js';
import { Placeholders, tidyPlaceholder } from './placeholder.js';
import { type AssistantJob, isReceived, type QueuedQuestion, withoutContext } from './service.js';

/** Outcomes and delivery marks outlive every re-run of a job (BullMQ keeps completed jobs 24 h). */
const KEEP_SECONDS = 24 * 60 * 60;
/**
 * A run posting an outcome holds this lease: longer than a paced post can take (up to 30 s waiting for
 * the channel, then Slack's 10 s timeout and retries), so a live poster is never raced. If its worker
 * dies, the lease lapses and the job's re-run posts: at least once rather than never.
 */
export const DELIVERY_LEASE_MS = 120_000;
/** Heads cleared per look; each clears one entry, so the loop ends even if entries keep coming. */
const MAX_STALE_HEADS = 20;

export interface OutcomeDeps {
  redis: Redis;
  keys: AssistantKeys;
  queue: Queue<AssistantJob>;
  poster: ChannelPoster;
  /** Who reads answers and where their links may go (`assistantAnswers`, `assistantLinkHosts`). */
  policies: PolicyStore;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  logger: Logger;
}

/**
 * The end of a question, on every path (answer, registrar refusal, Slack error, crash): its place in
 * the account's queue and its in-flight slot are freed, so it never holds up the account's later
 * questions (docs/requirements.md R13), and the asker hears the outcome once (R17).
 */
export class Outcomes {
  readonly #placeholders: Placeholders;
  readonly #history: ThreadHistory;
  readonly #agents: AgentAnswers;

  constructor(private readonly deps: OutcomeDeps) {
    this.#placeholders = new Placeholders(deps.redis, deps.keys);
    this.#history = new ThreadHistory(deps.redis, deps.keys);
    this.#agents = new AgentAnswers(deps.redis, deps.keys);
  }

  async of(job: QueuedQuestion, jobId: string): Promise<Outcome | undefined> {
    const raw = await this.deps.redis.get(this.deps.keys.outcome(job.account, jobId));
    return raw === null ? undefined : (JSON.parse(raw) as Outcome);
  }

  /**
   * Records the outcome (the first one wins), then frees the question's place and slot. The message a
   * shortcut asked about leaves the job here: it is not kept longer than its question lives (the
   * completed job itself stays 24 h, DEFAULT_JOB_OPTIONS, so a re-run delivers instead of asking).
   */
  async settle(job: QueuedQuestion, jobId: string, outcome: Outcome): Promise<void> {
    const key = this.deps.keys.outcome(job.account, jobId);
    const kept = outcome.ok ? { ...outcome, answer: shownPart(outcome.answer) } : outcome;
    await this.deps.redis.set(key, JSON.stringify(kept), 'EX', KEEP_SECONDS, 'NX');
    // Kept through a fail-over, so a re-run delivers this outcome instead of asking again.
    await waitForReplicas(this.deps.redis, key);
    await this.#release(job.account, jobId, job.user);
    if (job.context !== undefined) await this.forgetContext(jobId);
  }

  /** The message a question was about leaves its job once the question ends (settled or not let in). */
  async forgetContext(jobId: string): Promise<void> {
    // One job type for both stages (BullMQ's own type would split it in two, one per stage).
    const queued: Job<AssistantJob> | undefined = await this.deps.queue.getJob(jobId);
    if (queued?.data.context === undefined) return;
    await queued.updateData(withoutContext(queued.data));
  }

  /**
   * Whether the question's outcome would go to its asker alone if delivered now (`audienceOf`): a
   * follow-up carries an earlier private exchange only then (history.ts).
   */
  async answeredPrivately(job: QueuedQuestion): Promise<boolean> {
    const client = await this.deps.slackFor(workspaceFields(job));
    return (await this.#audience(client, job)) === 'asker';
  }

  async #audience(client: WebClient, job: QueuedQuestion): Promise<Audience> {
    const policy = await this.deps.policies.get(workspaceFields(job));
    return audienceOf(client, job.channel, policy.assistantAnswers, this.deps.logger);
  }

  async releaseSlot(account: string, jobId: string): Promise<void> {
    await releaseOwn(this.deps.redis, this.deps.keys.inflight(account), jobId);
  }

  /**
   * Clears heads of the account's queue whose job was removed, failed (crashed past its stalled
   * re-runs, or failed outside this code) or completed: each would otherwise show every later question
   * "1 question ahead" forever. The asker of a failed one is told.
   */
  async clearStaleHeads(account: string, self: string): Promise<void> {
    for (let cleared = 0; cleared < MAX_STALE_HEADS; cleared++) {
      const [head] = await this.deps.redis.zrange(this.deps.keys.queue(account), '0', '0');
      if (head === undefined || head === self) return;
      const job = await this.deps.queue.getJob(head);
      const state = job === undefined ? 'missing' : await job.getState();
      if (state !== 'missing' && state !== 'failed' && state !== 'completed' && state !== 'unknown') return;
      this.deps.logger.warn({ jobId: head, state }, 'stale head of an assistant queue cleared');
      if (job === undefined || state !== 'failed' || isReceived(job.data)) {
        await this.#release(account, head, job?.data.user);
        continue;
      }
      await this.settle(job.data, head, { ok: false, reason: text.assistant.reasonLost });
      await this.deliver(job.data, head);
    }
  }

  /**
   * Posts the outcome once (R17), where the workspace's policy lets it be read (`audienceOf`): a reply
   * in the thread that mentions the asker, or privately. An outcome meant for the thread goes
   * privately too when the thread cannot take it (message deleted, channel archived, bot removed).
   * Then the placeholder goes, or says that the asker was answered privately.
   * Never throws: delivering one question's outcome must not fail another's run. `busy` when another
   * run holds the delivery lease.
   */
  async deliver(job: QueuedQuestion, jobId: string, settled?: Outcome): Promise<'done' | 'busy'> {
    const { redis, keys, logger } = this.deps;
    const mark = keys.delivered(job.account, jobId);
    try {
      // The stored outcome wins (the first one settled); the one just settled stands in when a Redis
      // fail-over lost the write, so the asker still hears it.
      const outcome = (await this.of(job, jobId)) ?? settled;
      if (outcome === undefined) return 'done';
      // An agent's question is delivered where the agent reads it: nothing goes to Slack.
      if (job.surface === 'agent') {
        await this.#agents.deliver(workspaceFields(job), jobId, outcome);
        return 'done';
      }
      if ((await redis.set(mark, 'posting', 'PX', DELIVERY_LEASE_MS, 'NX')) !== 'OK')
        return (await redis.get(mark)) === 'done' ? 'done' : 'busy';
      // The lease and, below, the mark must survive a fail-over, or a re-run posts a second answer.
      await waitForReplicas(redis, mark);
      const workspace = workspaceFields(job);
      const client = await this.deps.slackFor(workspace);
      const policy = await this.deps.policies.get(workspace);
      // An answer built on a private exchange stays private, even where the thread may read answers now.
      const audience: Audience =
        outcome.ok && outcome.confidential === true
          ? 'asker'
          : await audienceOf(client, job.channel, policy.assistantAnswers, logger);
      // Remembered for follow-ups before it is posted (nobody can follow up on it sooner), with who
      // read it: a private answer never becomes a public follow-up's context (history.ts).
      if (outcome.ok) await this.#history.remember(job, jobId, outcome.answer.answer, audience);
      if (!(await this.#tell(client, job, outcome, audience, policy.assistantLinkHosts))) return 'done'; // logged by replyPrivately
      await redis.set(mark, 'done', 'EX', KEEP_SECONDS);
      await waitForReplicas(redis, mark);
      await this.#tidy(client, job, jobId, outcome.ok, audience);
    } catch (error) {
      logger.error({ jobId, err: errorText(error) }, 'the asker could not be told the outcome');
    }
    return 'done';
  }

  /** In the thread, or privately: an ephemeral in the channel, else a DM (`replyPrivately`). */
  async #tell(
    client: WebClient,
    job: QueuedQuestion,
    outcome: Outcome,
    audience: Audience,
    linkHosts: readonly string[],
  ): Promise<boolean> {
    const { logger } = this.deps;
    const asker = { user: job.user, client, channel: job.channel };
    if (audience === 'asker')
      return replyPrivately(asker, privateReply(outcome, job.question, 'policy', linkHosts), logger);
    try {
      await this.deps.poster.post(client, {
        channel: job.channel,
        thread_ts: job.threadTs,
        ...threadReply(outcome, job.user, linkHosts),
      });
      return true;
    } catch (error) {
      logger.warn(
        { slackError: slackRefusal(error), err: errorText(error) },
        'the thread cannot take the outcome; telling the asker privately',
      );
      return replyPrivately(asker, privateReply(outcome, job.question, 'gone', linkHosts), logger);
    }
  }

  /**
   * Best-effort: the placeholder is tidied (placeholder.ts: one posted later tidies itself), or an
   * assistant thread's status cleared; a mention's reaction turns ✓ or ✗.
   */
  async #tidy(
    client: WebClient,
    job: QueuedQuestion,
    jobId: string,
    answered: boolean,
    audience: Audience,
  ): Promise<void> {
    const ignore = () => undefined;
    // An assistant thread shows a status, not a placeholder: a reply clears it, a failure must too.
    if (job.surface === 'panel')
      await client.assistant.threads
        .setStatus({ channel_id: job.channel, thread_ts: job.threadTs, status: '' })
        .catch(ignore);
    else {
      const posted = await this.#placeholders.close(job.account, jobId, audience);
      if (posted !== undefined)
        await tidyPlaceholder(client, this.deps.poster, job.channel, posted, audience, job.user);
    }
    if (job.askTs === undefined) return;
    const reaction = { channel: job.channel, timestamp: job.askTs };
    // Decoration: skipped, not waited for, when the workspace's reaction budget is spent (poster.ts).
    const { poster } = this.deps;
    await poster
      .tier3(
        client,
        'reactions.remove',
        () => client.reactions.remove({ ...reaction, name: 'hourglass_flowing_sand' }),
        'progress',
      )
      .catch(ignore);
    await poster
      .tier3(
        client,
        'reactions.add',
        () => client.reactions.add({ ...reaction, name: answered ? 'white_check_mark' : 'x' }),
        'progress',
      )
      .catch(ignore);
  }

  /**
   * Frees the place, the asker's share of the cap (R34; a question whose job is gone, asker unknown,
   * leaves it to lapse, `AssistantService.admit`) and the slot, and starts the account's next question
   * now instead of at its next poll.
   */
  async #release(account: string, jobId: string, user: string | undefined): Promise<void> {
    const { redis, keys, queue } = this.deps;
    // A question answered from the cache in its intake was still arriving.
    await redis.multi().zrem(keys.queue(account), jobId).zrem(keys.arriving(account), jobId).exec();
    if (user !== undefined) await redis.zrem(keys.asker(account, user), jobId);
    await this.releaseSlot(account, jobId);
    const [next] = await redis.zrange(keys.queue(account), '0', '0');
    const job = next === undefined ? undefined : await queue.getJob(next);
    if (job !== undefined && (await job.isDelayed())) await job.promote().catch(() => undefined);
  }
}

/**
 * What of an answer is shown (blocks.ts), and so kept with the outcome. Not the registrar's echo of
 * the question it was sent (`question`), which carries the message a shortcut asked about and a
 * follow-up's earlier exchanges, nor fields Regdesk does not know.
 */
function shownPart(answer: AssistantAnswer): AssistantAnswer {
  return {
    answer: answer.answer,
    truncated: answer.truncated,
    sources: answer.sources,
    ...(answer.dashboard_url === undefined ? {} : { dashboard_url: answer.dashboard_url }),
  };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
