import { z } from 'zod';
import { isAppError } from '../../shared/app-error.js';
import type { Logger } from '../../shared/logger.js';
import type { Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { Outcome } from './answer.js';
import type { AssistantKeys } from './keys.js';

/** An agent's question and its outcome live this long: as long as the queue keeps its job. */
const KEEP_SECONDS = 24 * 60 * 60;
/**
 * What of an answer is kept for an agent: the whole result (escaped into JSON, which may double a
 * character) stays well within the MCP guard's 24,000 characters.
 */
export const MAX_AGENT_ANSWER = 6_000;
const MAX_SOURCES = 10;
const MAX_SOURCE_TITLE = 150;
const MAX_SOURCE_URL = 300;
const MAX_REASON = 500;

/** An outcome as an agent may read it: bounded, the registrar's Markdown as a plain string. */
export const AgentOutcome = z.lazy(() =>
  z.discriminatedUnion('ok', [
    z.object({
      ok: z.literal(true),
      answer: z.string(),
      truncated: z.boolean(),
      sources: z.array(z.object({ title: z.string(), url: z.string().optional() })),
      dashboardUrl: z.string().optional(),
      /** When the registrar gave it, for an answer from the cache. */
      cachedAt: z.number().optional(),
    }),
    z.object({ ok: z.literal(false), reason: z.string() }),
  ]),
);
export type AgentOutcome = z.infer<typeof AgentOutcome>;

/** Who asked and which account's queue holds it, as `open` wrote them; the outcome once there is one. */
export interface AgentRecord {
  user: string;
  account: string;
  outcome?: AgentOutcome;
}

function bounded(outcome: Outcome): AgentOutcome {
  if (!outcome.ok) return { ok: false, reason: outcome.reason.slice(0, MAX_REASON) };
  const { answer } = outcome;
  return {
    ok: true,
    answer: answer.answer.slice(0, MAX_AGENT_ANSWER),
    truncated: answer.truncated || answer.answer.length > MAX_AGENT_ANSWER,
    sources: answer.sources.slice(0, MAX_SOURCES).map((source) => ({
      title: source.title.slice(0, MAX_SOURCE_TITLE),
      ...(source.url === undefined ? {} : { url: source.url.slice(0, MAX_SOURCE_URL) }),
    })),
    ...(answer.dashboard_url === undefined
      ? {}
      : { dashboardUrl: answer.dashboard_url.slice(0, MAX_SOURCE_URL) }),
    ...(outcome.cachedAt === undefined ? {} : { cachedAt: outcome.cachedAt }),
  };
}

/**
 * Where an agent's question is delivered (the Slack surfaces' thread reply, outcome.ts): one Redis
 * hash per question, keyed by its id, holding the asker, the account and the bounded outcome.
 * Written by the question's job in any worker process, read by whichever `web` process the agent
 * asks next (agent.ts).
 */
export class AgentAnswers {
  constructor(
    private readonly redis: Redis,
    private readonly keys: AssistantKeys,
  ) {}

  /** Notes the question before it is recorded, so its outcome always finds whose it is. */
  async open(workspace: WorkspaceRef, id: string, asked: { user: string; account: string }): Promise<void> {
    const key = this.keys.agent(workspace, id);
    await this.redis.multi().hset(key, asked).expire(key, KEEP_SECONDS).exec();
  }

  /** Forgets a question refused before it was let in: the refusal is the tool's answer. */
  async drop(workspace: WorkspaceRef, id: string): Promise<void> {
    await this.redis.del(this.keys.agent(workspace, id));
  }

  /** Stores the outcome: the first one stays (a re-run of the job delivers the same one again). */
  async deliver(workspace: WorkspaceRef, id: string, outcome: Outcome): Promise<void> {
    const key = this.keys.agent(workspace, id);
    await this.redis
      .multi()
      .hsetnx(key, 'outcome', JSON.stringify(bounded(outcome)))
      .expire(key, KEEP_SECONDS)
      .exec();
  }

  /** A question that ended before its queue (refused by the worker, or failed): why, in words. */
  async refused(workspace: WorkspaceRef, id: string, error: unknown, logger: Logger): Promise<void> {
    if (!isAppError(error))
      logger.error({ questionId: id, err: String(error) }, "an agent's question failed in its intake");
    const reason = isAppError(error) ? error.userMessage : text.assistant.reasonInternal;
    await this.deliver(workspace, id, { ok: false, reason });
  }

  async read(workspace: WorkspaceRef, id: string): Promise<AgentRecord | undefined> {
    const found = await this.redis.hgetall(this.keys.agent(workspace, id));
    if (found.user === undefined || found.account === undefined) return undefined;
    const outcome =
      found.outcome === undefined ? undefined : AgentOutcome.safeParse(JSON.parse(found.outcome));
    return {
      user: found.user,
      account: found.account,
      ...(outcome?.success === true ? { outcome: outcome.data } : {}),
    };
  }
}
