import { createHash } from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { AppError } from '../../shared/app-error.js';
import { LuaScript } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { type Locale, text } from '../../text/index.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { AssistantKeys } from './keys.js';

export const ASSISTANT_QUEUE = 'assistant';
export const MAX_QUESTION_LENGTH = 1_000;
/** Questions one asker may have waiting or running per registrar account (docs/requirements.md R34). */
const MAX_WAITING_PER_ASKER = 3;
/**
 * A place taken whose question is neither queued nor arriving (its job gone, or taken by an older
 * version before its thread was posted) counts this long: longer than a paced post can take.
 */
const UNQUEUED_PLACE_MS = 5 * 60_000;
/**
 * A question is recorded as a job delayed this long (`record`): the process that acked it decides at
 * once whether it is let in (refusals then go through the response_url, and nothing stays queued) and
 * starts it; if that process dies first, the job wakes anyway and a worker decides (intake.ts).
 */
const INTAKE_GRACE_MS = 10_000;
/** The acking process stops deciding after this long, well inside the grace: a worker takes over. */
export const DECIDE_BUDGET_MS = INTAKE_GRACE_MS / 2;
/** The asker's places outlive every question they hold; the set goes when the asker is idle. */
const ASKER_TTL_MS = 24 * 60 * 60_000;

/**
 * Takes one of the asker's places: 1 taken, 2 already held by this question (decided before by the
 * acking process, or a re-run), 0 all taken. One script, so concurrent questions of one asker, from
 * any process, never exceed the cap. A place taken is noted among the account's arriving questions
 * (its job still taking it in) until it joins the account's queue. Places are given back when their
 * question settles or ends in its intake (`Outcomes`, `Intake`), or its job is found dead
 * (`Intake.clearStaleArrivals`); one neither queued nor arriving (a job that vanished) is dropped
 * here once stale.
 */
const TAKE_PLACE = new LuaScript(`
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 2 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #held, 2 do
  if not redis.call('ZSCORE', KEYS[2], held[i]) and not redis.call('ZSCORE', KEYS[3], held[i])
    and tonumber(held[i + 1]) < now - tonumber(ARGV[3]) then
    redis.call('ZREM', KEYS[1], held[i])
  end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1])
return 1`);

/** The surfaces a question comes from, as its audit entry names them (`agent`: MCP, agent.ts). */
export type Surface = '/ask' | 'mention' | 'dm' | 'shortcut' | 'agent';

/**
 * A question as it was acknowledged, before anything slow was done about it (issue #41): recorded
 * first, so a process that dies after the ack loses nothing. Its intake (intake.ts) decides whether
 * it is let in, finds its locale and the answer cache, and posts its thread, each step once.
 */
export interface ReceivedQuestion {
  stage: 'intake';
  teamId: string;
  enterpriseId?: string;
  surface: Surface;
  user: string;
  question: string;
  /** Where it was asked (`''` for an agent), and the thread if there is one (a mention's, a DM's…). */
  channel: string;
  threadTs?: string;
  /** The asker's own message (mentions), for the working → answered reaction. */
  askTs?: string;
  /** Text the question is about (a shortcut's message): never answered from the cache. */
  context?: string;
  /** Text whose language decides the locale, when not the question's own (a shortcut's message). */
  languageHint?: string;
  /** The language Regdesk speaks to the asker, as the request that brought the question found it. */
  speaks: Locale;
  /** Its thread once posted (`/ask`'s public question, the shortcut's line): a re-run posts it no more. */
  placed?: { channel: string; threadTs: string };
}

/** A question let in and on its way to the registrar (or answered from the cache). */
export interface QueuedQuestion {
  teamId: string;
  enterpriseId?: string;
  channel: string;
  threadTs: string;
  /**
   * `panel`: a thread in the bot's Messages tab (a DM), where the position and progress are the thread's
   * status (`assistant.threads.setStatus`) instead of a placeholder message. `agent`: no thread at all;
   * the agent reads position and outcome from Redis (agent.ts).
   */
  surface?: 'panel' | 'agent';
  /**
   * Text the question is about (a message shortcut's message), sent ahead of the question. Someone
   * else's words: removed from the job once the question settles (`Outcomes.settle`).
   */
  context?: string;
  /** The asker's own message (mentions), for the working → answered reaction. */
  askTs?: string;
  user: string;
  question: string;
  /** The registrar's answer language (asking.ts `localeFor`). */
  locale?: string;
  /**
   * The language Regdesk speaks to the asker (their Slack locale or the workspace's fixed one) when
   * the question was asked; the worker's placeholder, status and answer card use it. A job of an
   * older version has none: it follows `locale`.
   */
  speaks?: Locale;
  /** Hash of the workspace's API key: questions of one registrar account are serialised on it. */
  account: string;
  enqueuedAt: number;
  attempts?: number;
  shownAhead?: number;
  /** When the position was last shown (ms): a panel's status is renewed before Slack drops it. */
  shownAt?: number;
}

/**
 * Job data: where to answer and what was asked; never a key, token, trigger_id or response_url. A
 * job of an older version has no `stage`: it is a queued question.
 */
export type AssistantJob = ReceivedQuestion | QueuedQuestion;

export const isReceived = (data: AssistantJob): data is ReceivedQuestion => 'stage' in data;

/** The job's data without the message a shortcut asked about: someone else's words, kept no longer. */
export function withoutContext(data: AssistantJob): AssistantJob {
  if (isReceived(data)) {
    const { context: _dropped, ...received } = data;
    return received;
  }
  const { context: _dropped, ...queued } = data;
  return queued;
}

/** One of the asker's places, held by the question `jobId` until it settles. */
export interface Place {
  account: string;
  user: string;
  jobId: string;
}

/** The queued form of a received question, once let in and its thread posted. */
export function queuedQuestion(
  received: ReceivedQuestion,
  thread: { channel: string; threadTs: string },
  account: string,
  locale: string | undefined,
  enqueuedAt: number,
): QueuedQuestion {
  return {
    ...workspaceFields(received),
    channel: thread.channel,
    threadTs: thread.threadTs,
    ...(received.askTs === undefined ? {} : { askTs: received.askTs }),
    // In the Messages tab the question's place and progress are its thread's status, not a placeholder.
    ...(received.surface === 'dm' ? { surface: 'panel' as const } : {}),
    ...(received.surface === 'agent' ? { surface: 'agent' as const } : {}),
    ...(received.context === undefined ? {} : { context: received.context }),
    user: received.user,
    question: received.question,
    ...(locale === undefined ? {} : { locale }),
    speaks: received.speaks,
    account,
    enqueuedAt,
  };
}

/** One question per delivery: the job id derives from what identifies it (an event id, a command). */
export function jobIdOf(dedupeId: string): string {
  return `q-${createHash('sha256').update(dedupeId).digest('hex').slice(0, 24)}`;
}

export class QuestionRefused extends AppError {
  constructor(message: string | (() => string)) {
    super('regdesk_question_refused', message);
  }
}

/** Cleans a question; refuses empty or oversized ones with usage help. */
export function cleanQuestion(raw: string): string {
  const question = raw
    .replace(/<@[A-Z0-9]+(\|[^>]*)?>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (question === '') throw new QuestionRefused(() => text.assistant.emptyQuestion);
  if (question.length > MAX_QUESTION_LENGTH) {
    throw new QuestionRefused(() => text.assistant.questionTooLong({ max: MAX_QUESTION_LENGTH }));
  }
  return question;
}

export class AssistantService {
  readonly redisKeys: AssistantKeys;

  constructor(
    private readonly redis: Redis,
    keys: KeySpace,
    private readonly queue: Queue<AssistantJob>,
    private readonly workspaceKeys: WorkspaceKeys,
    readonly now: () => number,
  ) {
    this.redisKeys = new AssistantKeys(keys);
  }

  async accountOf(workspace: WorkspaceRef): Promise<string> {
    // The key's keyed fingerprint (docs/requirements.md R18): the same name the availability quota uses.
    return this.workspaceKeys.keyHashFor(workspace);
  }

  /**
   * The question as acked, recorded before anything slow (issue #41): a job delayed by the grace, so
   * the acking process may decide about it first (`Asking`) and a worker takes it up if it dies. The
   * same delivery (an event id) is one job. A shortcut's message text lives no longer than its
   * question: settling removes it from the job (`Outcomes.settle`), and a job BullMQ itself fails
   * (stalled past its limit, so never settled here) goes at once instead of being kept 7 days.
   */
  async record(received: ReceivedQuestion, dedupeId: string): Promise<Job<AssistantJob>> {
    return this.queue.add('ask', received, {
      jobId: jobIdOf(dedupeId),
      delay: INTAKE_GRACE_MS,
      ...(received.context === undefined ? {} : { removeOnFail: true }),
    });
  }

  /**
   * One of the asker's places for the question, so one person's flood of questions cannot starve
   * everyone else's (R34): `taken` now, or `held` already (decided before, by the acking process or
   * a run that died). Refused with words when all are taken. Taken only once the question is
   * recorded, so a place never outlives its question: settling gives it back (`Outcomes`).
   */
  async admit(workspace: WorkspaceRef, user: string, jobId: string): Promise<'taken' | 'held'> {
    const account = await this.accountOf(workspace);
    const taken = await TAKE_PLACE.run(
      this.redis,
      3,
      this.redisKeys.asker(account, user),
      this.redisKeys.queue(account),
      this.redisKeys.arriving(account),
      jobId,
      String(MAX_WAITING_PER_ASKER),
      String(UNQUEUED_PLACE_MS),
      String(ASKER_TTL_MS),
    );
    if (Number(taken) === 0)
      throw new QuestionRefused(() => text.assistant.tooManyWaiting({ max: MAX_WAITING_PER_ASKER }));
    return Number(taken) === 2 ? 'held' : 'taken';
  }

  /**
   * Puts a question let in, its thread posted, behind the account's others (R13). The job holds its
   * queued form first: a queue entry without a job is taken as stale and cleared. In the Messages tab
   * the position is the thread's status, which its first run shows (`shownAhead` unknown); elsewhere
   * the placeholder posted beside that run shows it.
   */
  async enqueue(job: Job<AssistantJob>, queued: QueuedQuestion): Promise<QueuedQuestion> {
    const { account, enqueuedAt } = queued;
    const queue = this.redisKeys.queue(account);
    const ahead = await this.redis.zcard(queue);
    const data = { ...queued, shownAhead: queued.surface === 'panel' ? -1 : ahead, shownAt: enqueuedAt };
    await job.updateData(data);
    const jobId = job.id ?? '';
    await this.redis
      .multi()
      .zadd(queue, 'NX', enqueuedAt, jobId)
      .zrem(this.redisKeys.arriving(account), jobId)
      .exec();
    return data;
  }

  /**
   * Starts a recorded question the acking process let in, without waiting out the grace. A job no
   * longer waiting (a worker took it up, or it is a redelivery of one settled long ago) is not
   * started again; a place `took` for one that ended is given back.
   */
  async start(job: Job<AssistantJob>, took: Place | undefined): Promise<void> {
    try {
      await job.promote();
    } catch {
      const state = await job.getState();
      if (took !== undefined && (state === 'completed' || state === 'failed' || state === 'unknown'))
        await this.giveBack(took);
    }
  }

  /** Gives the place back: the question ended before it was queued (refused, failed, or long settled). */
  async giveBack({ account, user, jobId }: Place): Promise<void> {
    await this.redis
      .multi()
      .zrem(this.redisKeys.asker(account, user), jobId)
      .zrem(this.redisKeys.arriving(account), jobId)
      .exec();
  }
}
