import { z } from 'zod';
import type { Redis } from '../../shared/redis.js';
import { workspaceFields } from '../../shared/workspace.js';
import type { Audience } from './audience.js';
import type { AssistantKeys } from './keys.js';
import type { QueuedQuestion } from './service.js';

/** Earlier questions and answers of a thread sent along with a follow-up (the assistant keeps no state). */
const CONTEXT_BUDGET = 1_500;
const HISTORY_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Exchanges kept per thread: the budget above takes about this many. */
const KEPT = 3;

/**
 * One exchange of a thread, as delivered. `privateTo` names the asker when the answer went to them
 * alone (`assistantAnswers` 'asker', or 'shared-private' in a Slack Connect channel), else null.
 * An entry without it (written before answers were marked) does not parse and is never sent: whether
 * it was private cannot be told.
 */
const HistoryEntry = z.lazy(() =>
  z.object({
    id: z.string(),
    q: z.string(),
    a: z.string(),
    privateTo: z.string().nullable(),
  }),
);
type HistoryEntry = z.infer<typeof HistoryEntry>;

/** The thread's earlier exchanges a follow-up may carry, and whether any of them was private. */
export interface ThreadContext {
  text: string;
  /** Set when a privately delivered exchange is included: the follow-up's answer must go privately too. */
  confidential: boolean;
}

/**
 * A thread's questions and answers, for follow-ups (docs/requirements.md C3: follow-ups carry the
 * thread's earlier questions and answers). An answer given to its asker alone never flows into an
 * answer the thread reads, nor to another asker: only its own asker's follow-ups, themselves answered
 * privately, carry it.
 */
export class ThreadHistory {
  constructor(
    private readonly redis: Redis,
    private readonly keys: AssistantKeys,
  ) {}

  #key(job: QueuedQuestion): string {
    return this.keys.history(workspaceFields(job), job.channel, job.threadTs);
  }

  /**
   * Records a delivered answer with who it was delivered to. Called by the one run holding the
   * delivery lease (outcome.ts); a re-run after a crash finds its entry by job id and adds none.
   */
  async remember(job: QueuedQuestion, jobId: string, answer: string, audience: Audience): Promise<void> {
    const key = this.#key(job);
    if ((await this.#entries(key)).some((entry) => entry.id === jobId)) return;
    const entry: HistoryEntry = {
      id: jobId,
      q: job.question,
      a: answer.slice(0, 1_000),
      privateTo: audience === 'asker' ? job.user : null,
    };
    await this.redis
      .multi()
      .rpush(key, JSON.stringify(entry))
      .ltrim(key, -KEPT, -1)
      .expire(key, HISTORY_TTL_SECONDS)
      .exec();
  }

  /**
   * The earlier exchanges for `job`, newest kept within the budget. Exchanges answered to the thread
   * always count; one answered privately only to this same asker, and only when `answeredPrivately`
   * says this follow-up's answer goes to them alone too (asked only then, as it may ask Slack).
   */
  async context(job: QueuedQuestion, answeredPrivately: () => Promise<boolean>): Promise<ThreadContext> {
    const entries = await this.#entries(this.#key(job));
    const mine = entries.some((entry) => entry.privateTo === job.user);
    const withPrivate = mine && (await answeredPrivately());
    const usable = entries.filter(
      (entry) => entry.privateTo === null || (withPrivate && entry.privateTo === job.user),
    );
    let text = '';
    let confidential = false;
    for (const entry of usable.reverse()) {
      const piece = `Q: ${entry.q}\nA: ${entry.a.slice(0, 600)}\n`;
      if (text.length + piece.length > CONTEXT_BUDGET) break;
      text = piece + text;
      if (entry.privateTo !== null) confidential = true;
    }
    return { text, confidential };
  }

  async #entries(key: string): Promise<HistoryEntry[]> {
    return (await this.redis.lrange(key, 0, -1)).flatMap((raw) => {
      try {
        const parsed = HistoryEntry.safeParse(JSON.parse(raw));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }
}

/** What is sent to the registrar for a question, and how it may be used afterwards. */
export interface QuestionText {
  text: string;
  /** Nothing was added: only such questions are cached, since an answer given with context answers that context. */
  bare: boolean;
  /** A privately delivered exchange is in it: its answer goes to the asker alone (outcome.ts). */
  confidential: boolean;
}

/**
 * The question to send: the message it is about (shortcut), or the thread's earlier exchanges
 * (`ThreadHistory.context`), within a size budget.
 */
export async function questionFor(
  job: QueuedQuestion,
  history: ThreadHistory,
  answeredPrivately: () => Promise<boolean>,
): Promise<QuestionText> {
  if (job.context !== undefined) {
    const about = job.context.slice(0, CONTEXT_BUDGET);
    return {
      text: `About this Slack message:\n${about}\n\nQuestion: ${job.question}`,
      bare: false,
      confidential: false,
    };
  }
  const earlier = await history.context(job, answeredPrivately);
  return earlier.text === ''
    ? { text: job.question, bare: true, confidential: false }
    : {
        text: `Earlier in this conversation:\n${earlier.text}\nFollow-up question: ${job.question}`,
        bare: false,
        confidential: earlier.confidential,
      };
}
