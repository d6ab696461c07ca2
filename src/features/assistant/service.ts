import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import { AppError } from '../../shared/app-error.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { waitingMessage } from './blocks.js';

export const ASSISTANT_QUEUE = 'assistant';
export const MAX_QUESTION_LENGTH = 1_000;
/** Earlier questions and answers of a thread sent along with a follow-up (the assistant keeps no state). */
const CONTEXT_BUDGET = 1_500;
const HISTORY_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Job data: where to answer and what was asked; never a key, token, trigger_id or response_url. */
export interface AssistantJob {
  teamId: string;
  enterpriseId?: string;
  channel: string;
  threadTs: string;
  /** The placeholder reply that shows the queue position; deleted once the answer is posted below it. */
  statusTs: string;
  /** The asker's own message (mentions), for the working → answered reaction. */
  askTs?: string;
  user: string;
  question: string;
  locale?: string;
  /** Hash of the workspace's API key: questions of one registrar account are serialised on it. */
  account: string;
  enqueuedAt: number;
  attempts?: number;
  shownAhead?: number;
}

export function workspaceOfJob(job: AssistantJob): WorkspaceRef {
  return job.enterpriseId === undefined
    ? { teamId: job.teamId }
    : { teamId: job.teamId, enterpriseId: job.enterpriseId };
}

export class AssistantKeys {
  constructor(private readonly keys: KeySpace) {}
  /** Every key of one account shares the tag `acct:<hash>`, so the scripts over them stay in one slot. */
  queue = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'queue');
  inflight = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'inflight');
  /** How the question ended (answer or reason), kept so a re-run delivers it instead of asking again. */
  outcome = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'outcome', jobId);
  /** `posting` while one run posts the outcome (a lease), then `done`: one reply per question. */
  delivered = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'delivered', jobId);
  perKey = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-key');
  perAccount = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-account');
  history = (workspace: WorkspaceRef, channel: string, threadTs: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'thread', channel, threadTs);
}

export interface AskInput {
  workspace: WorkspaceRef;
  channel: string;
  threadTs: string;
  askTs?: string;
  user: string;
  question: string;
  /** Idempotency: the same delivery (event id, posted question) is queued once. */
  dedupeId: string;
}

export class QuestionRefused extends AppError {
  constructor(message: string) {
    super('regdesk_question_refused', message);
  }
}

/** Cleans a question; refuses empty or oversized ones with usage help. */
export function cleanQuestion(text: string): string {
  const question = text
    .replace(/<@[A-Z0-9]+(\|[^>]*)?>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (question === '')
    throw new QuestionRefused(
      'Ask a question after `/ask` or the mention, e.g. `/ask How do I enable DNSSEC?`',
    );
  if (question.length > MAX_QUESTION_LENGTH) {
    throw new QuestionRefused(
      `Questions are limited to ${MAX_QUESTION_LENGTH} characters; please shorten it.`,
    );
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
    private readonly poster: ChannelPoster,
    private readonly now: () => number,
  ) {
    this.redisKeys = new AssistantKeys(keys);
  }

  async accountOf(workspace: WorkspaceRef): Promise<string> {
    const apiKey = await this.workspaceKeys.apiKeyFor(workspace);
    return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  }

  /** Posts the placeholder in the thread and queues the question behind the account's others. */
  async ask(input: AskInput, client: WebClient, locale: string | undefined): Promise<void> {
    const account = await this.accountOf(input.workspace);
    const jobId = `q-${createHash('sha256').update(input.dedupeId).digest('hex').slice(0, 24)}`;
    if ((await this.queue.getJob(jobId)) !== undefined) return;
    const enqueuedAt = this.now();
    const ahead = await this.redis.zcard(this.redisKeys.queue(account));
    const statusTs = await this.poster.post(client, {
      channel: input.channel,
      thread_ts: input.threadTs,
      ...waitingMessage(ahead),
    });
    const data: AssistantJob = {
      teamId: input.workspace.teamId,
      ...(input.workspace.enterpriseId === undefined ? {} : { enterpriseId: input.workspace.enterpriseId }),
      channel: input.channel,
      threadTs: input.threadTs,
      statusTs,
      ...(input.askTs === undefined ? {} : { askTs: input.askTs }),
      user: input.user,
      question: input.question,
      ...(locale === undefined ? {} : { locale }),
      account,
      enqueuedAt,
      shownAhead: ahead,
    };
    // The job exists before its queue entry: a queue entry without a job is taken as stale and cleared.
    await this.queue.add('ask', data, { jobId });
    await this.redis.zadd(this.redisKeys.queue(account), 'NX', enqueuedAt, jobId);
  }

  /** The question to send: earlier exchanges of the thread first, within a size budget. */
  async withContext(job: AssistantJob): Promise<string> {
    const history = await this.redis.lrange(
      this.redisKeys.history(workspaceOfJob(job), job.channel, job.threadTs),
      0,
      -1,
    );
    let context = '';
    for (const entry of history.reverse()) {
      const { q, a } = JSON.parse(entry) as { q: string; a: string };
      const piece = `Q: ${q}\nA: ${a.slice(0, 600)}\n`;
      if (context.length + piece.length > CONTEXT_BUDGET) break;
      context = piece + context;
    }
    return context === ''
      ? job.question
      : `Earlier in this conversation:\n${context}\nFollow-up question: ${job.question}`;
  }

  async remember(job: AssistantJob, answer: string): Promise<void> {
    const key = this.redisKeys.history(workspaceOfJob(job), job.channel, job.threadTs);
    await this.redis
      .multi()
      .rpush(key, JSON.stringify({ q: job.question, a: answer.slice(0, 1_000) }))
      .ltrim(key, -3, -1)
      .expire(key, HISTORY_TTL_SECONDS)
      .exec();
  }
}
