import { createHash } from 'node:crypto';
import { z } from 'zod';
// The registrar client's own schema: a cached answer is checked as strictly as a fresh one.
import { AssistantAnswer } from '../../registrar/schemas/assistant.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** A cached answer and when the registrar gave it (to say how old it is). */
export const CachedAnswer = z.lazy(() => z.object({ answer: AssistantAnswer, at: z.number() }));
export type CachedAnswer = z.infer<typeof CachedAnswer>;

/** What makes two questions "the same" (docs/requirements.md C3): workspace, key, locale, text. */
export interface CacheQuery {
  workspace: WorkspaceRef;
  /** The key's keyed fingerprint (never the key itself). */
  account: string;
  locale: string | undefined;
  question: string;
}

/**
 * Case, runs of whitespace and trailing punctuation do not make a question different:
 * "How do I renew?" and "how do i  renew" are one question.
 */
export function normaliseQuestion(question: string): string {
  return question
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?!.,;:…]+$/u, '')
    .trim();
}

/**
 * Successful answers of the registrar's assistant, kept `ttlMs` so a repeated question costs no quota
 * (docs/requirements.md C3, `ASSISTANT_CACHE_TTL_MS`; `0` keeps nothing). The Redis key hashes
 * workspace, key fingerprint, locale and normalised text, under the workspace's own hash tag: a
 * cached answer never crosses workspaces, nor keys within one (a new key may see other data).
 */
export class AnswerCache {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  #key({ workspace, account, locale, question }: CacheQuery): string {
    const digest = createHash('sha256')
      .update(JSON.stringify([account, locale ?? '', normaliseQuestion(question)]))
      .digest('hex');
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'cache', digest);
  }

  async get(query: CacheQuery): Promise<CachedAnswer | undefined> {
    if (!this.enabled) return undefined;
    const raw = await this.redis.get(this.#key(query));
    if (raw === null) return undefined;
    const parsed = CachedAnswer.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async put(query: CacheQuery, answer: AssistantAnswer): Promise<void> {
    if (!this.enabled) return;
    const entry: CachedAnswer = { answer, at: this.now() };
    await this.redis.set(this.#key(query), JSON.stringify(entry), 'PX', this.ttlMs);
  }
}
