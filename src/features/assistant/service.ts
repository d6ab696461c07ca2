import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { AppError } from '../../shared/app-error.js';
import { LuaScript } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import { currentLocale, type Locale, text } from '../../text/index.js';
import type { WorkspaceKeys } from '../keys/service.js';

export const ASSISTANT_QUEUE = 'assistant';
export const MAX_QUESTION_LENGTH = 1_000;
/** Questions one asker may have waiting or running per registrar account (docs/requirements.md R34). */
const MAX_WAITING_PER_ASKER = 3;
/**
 * A place taken whose question is not in the account's queue (still being posted, or its process
 * died before queueing it) counts this long: longer than a paced post can take.
 */
const UNQUEUED_PLACE_MS = 5 * 60_000;
/** The asker's places outlive every question they hold; the set goes when the asker is idle. */
const ASKER_TTL_MS = 24 * 60 * 60_000;

/**
 * Takes one of the asker's places: 1 taken, 2 already held by this question (a redelivered event),
 * 0 all taken. One script, so concurrent questions of one asker, from any process, never exceed the
 * cap. Places whose question left the account's queue are given back when the question settles
 * (`Outcomes`); those it cannot give back (a job that vanished) are dropped here once stale.
 */
const TAKE_PLACE = new LuaScript(`
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 2 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #held, 2 do
  if not redis.call('ZSCORE', KEYS[2], held[i]) and tonumber(held[i + 1]) < now - tonumber(ARGV[3]) then
    redis.call('ZREM', KEYS[1], held[i])
  end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`);

/** Job data: where to answer and what was asked; never a key, token, trigger_id or response_url. */
export interface AssistantJob {
  teamId: string;
  enterpriseId?: string;
  channel: string;
  threadTs: string;
  /**
   * `panel`: a thread in the bot's Messages tab (a DM), where the position and progress are the thread's
   * status (`assistant.threads.setStatus`) instead of a placeholder message.
   */
  surface?: 'panel';
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

export class AssistantKeys {
  constructor(private readonly keys: KeySpace) {}
  /** Every key of one account shares the tag `acct:<hash>`, so the scripts over them stay in one slot. */
  queue = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'queue');
  /** The asker's questions of this account, waiting or running (R34), by when each took its place. */
  asker = (account: string, user: string) => this.keys.key(`acct:${account}`, 'assistant', 'asker', user);
  inflight = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'inflight');
  /** How the question ended (answer or reason), kept so a re-run delivers it instead of asking again. */
  outcome = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'outcome', jobId);
  /** The question's placeholder: `ts`, `done` (to whom) and pending `progress` (placeholder.ts). */
  placeholder = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'placeholder', jobId);
  /** `posting` while one run posts the outcome (a lease), then `done`: one reply per question. */
  delivered = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'delivered', jobId);
  perKey = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-key');
  perAccount = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-account');
  history = (workspace: WorkspaceRef, channel: string, threadTs: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'thread', channel, threadTs);
  /** An assistant thread (`assistant_thread_started`): its user and the channel they were viewing. */
  panel = (workspace: WorkspaceRef, channel: string, threadTs: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'panel', channel, threadTs);
  /** The account's typical answer time in ms (running average), for estimates. */
  typical = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'typical-ms');
}

/** A question let in under the asker's cap: it holds one of their places until it settles. */
export interface Admission {
  workspace: WorkspaceRef;
  user: string;
  account: string;
  jobId: string;
}

/** Where the question is answered, and what it is. */
export interface AskInput {
  channel: string;
  threadTs: string;
  askTs?: string;
  question: string;
  surface?: 'panel';
  context?: string;
}

/** The job of one question, queued or answered from the cache: the one place its data is assembled. */
export function assistantJob(
  asker: Pick<Admission, 'workspace' | 'user' | 'account'>,
  input: AskInput,
  locale: string | undefined,
  enqueuedAt: number,
): AssistantJob {
  return {
    ...workspaceFields(asker.workspace),
    channel: input.channel,
    threadTs: input.threadTs,
    ...(input.askTs === undefined ? {} : { askTs: input.askTs }),
    ...(input.surface === undefined ? {} : { surface: input.surface }),
    ...(input.context === undefined ? {} : { context: input.context }),
    user: asker.user,
    question: input.question,
    ...(locale === undefined ? {} : { locale }),
    speaks: currentLocale(),
    account: asker.account,
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
    private readonly now: () => number,
  ) {
    this.redisKeys = new AssistantKeys(keys);
  }

  async accountOf(workspace: WorkspaceRef): Promise<string> {
    // The key's keyed fingerprint (docs/requirements.md R18): the same name the availability quota uses.
    return this.workspaceKeys.keyHashFor(workspace);
  }

  /**
   * Before anything is posted: one of the asker's places for this question, so one person's flood of
   * questions cannot starve everyone else's (R34). `dedupeId` makes the same delivery (an event id)
   * one question: undefined when it already holds a place. Refused with words when all are taken.
   */
  async admit(workspace: WorkspaceRef, user: string, dedupeId: string): Promise<Admission | undefined> {
    const account = await this.accountOf(workspace);
    const jobId = jobIdOf(dedupeId);
    const taken = await TAKE_PLACE.run(
      this.redis,
      2,
      this.redisKeys.asker(account, user),
      this.redisKeys.queue(account),
      jobId,
      String(MAX_WAITING_PER_ASKER),
      String(UNQUEUED_PLACE_MS),
      String(ASKER_TTL_MS),
    );
    if (Number(taken) === 2) return undefined;
    if (Number(taken) === 0)
      throw new QuestionRefused(() => text.assistant.tooManyWaiting({ max: MAX_WAITING_PER_ASKER }));
    return { workspace, user, account, jobId };
  }

  /** Gives the place back when asking failed before the question was queued (e.g. the post failed). */
  async withdraw(admission: Admission): Promise<void> {
    if ((await this.queue.getJob(admission.jobId)) === undefined) await this.#giveBack(admission);
  }

  async #giveBack({ account, user, jobId }: Admission): Promise<void> {
    await this.redis.zrem(this.redisKeys.asker(account, user), jobId);
  }

  /**
   * Queues the admitted question behind the account's others, then shows where it stands (`opening`:
   * a placeholder reply or the assistant thread's status). Queued first: the placeholder's post is
   * paced behind the channel's answers, and the question's turn must not wait for it (issue #17);
   * `Placeholders` tidies one that comes after the outcome.
   */
  async ask(
    admission: Admission,
    input: AskInput,
    locale: string | undefined,
    opening: (ahead: number) => Promise<void>,
  ): Promise<void> {
    const { account, jobId } = admission;
    // A redelivery of a question that already settled (and gave its place back): nothing to do.
    if ((await this.queue.getJob(jobId)) !== undefined) return this.#giveBack(admission);
    const enqueuedAt = this.now();
    const ahead = await this.redis.zcard(this.redisKeys.queue(account));
    const data = {
      ...assistantJob(admission, input, locale, enqueuedAt),
      shownAhead: ahead,
      shownAt: enqueuedAt,
    };
    // The job exists before its queue entry: a queue entry without a job is taken as stale and cleared.
    // A shortcut's message text lives no longer than its question: settling removes it from the job
    // (`Outcomes.settle`), and a job BullMQ itself fails (stalled past its limit, so never settled
    // here) goes at once instead of being kept 7 days (DEFAULT_JOB_OPTIONS).
    await this.queue.add('ask', data, {
      jobId,
      ...(data.context === undefined ? {} : { removeOnFail: true }),
    });
    await this.redis.zadd(this.redisKeys.queue(account), 'NX', enqueuedAt, jobId);
    await opening(ahead);
  }
}
