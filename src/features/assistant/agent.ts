import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { AgentAnswers, type AgentOutcome } from './agent-answers.js';
import { Asking, type AskingDeps } from './asking.js';
import { cleanQuestion, jobIdOf } from './service.js';

/** How often a waiting agent looks for its answer: two small Redis reads each time. */
const POLL_MS = 300;
/** The longest an agent's call waits for its answer: the MCP SDK's clients give up after 60 s by default. */
export const MAX_AGENT_WAIT_MS = 50_000;

/** An agent's question as it stands: waiting (1 = next or being answered), answered, or failed. */
export type AgentQuestion =
  | { id: string; state: 'queued'; position: number }
  | ({ id: string; state: 'answered' } & Omit<Extract<AgentOutcome, { ok: true }>, 'ok'>)
  | { id: string; state: 'failed'; reason: string };

export interface AgentQuestionsDeps extends AskingDeps {
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
}

/**
 * The registrar's assistant for agents (MCP `ask_registrar`, contract §4): the same way in as every
 * Slack surface (`Asking`: the permission model, the asker's cap of waiting questions, the answer
 * cache, then the account's one-at-a-time queue with its rates and 503/429 retries), but placed
 * nowhere in Slack and delivered into Redis (agent-answers.ts), where the agent reads it by id.
 */
export class AgentQuestions {
  readonly #asking: Asking;
  readonly #answers: AgentAnswers;

  constructor(private readonly deps: AgentQuestionsDeps) {
    this.#asking = new Asking(deps);
    this.#answers = new AgentAnswers(deps.redis, deps.assistant.redisKeys);
  }

  /**
   * Records the person's question and returns its id. A refusal the asking process decides (not
   * allowed to read with the key, too many questions waiting, an empty question) is thrown, with
   * its words; one a worker decides later becomes the question's outcome.
   */
  async ask(workspace: WorkspaceRef, user: string, raw: string): Promise<string> {
    const question = cleanQuestion(raw);
    const { assistant } = this.deps;
    const client = await this.deps.slackFor(workspace);
    const dedupeId = `agent:${randomUUID()}`;
    const id = jobIdOf(dedupeId);
    await this.#answers.open(workspace, id, { user, account: await assistant.accountOf(workspace) });
    let refusal: { error: unknown } | undefined;
    await this.#asking.submit({
      surface: 'agent',
      workspace,
      client,
      user,
      question,
      channel: '',
      dedupeId,
      refuse: async (error) => {
        refusal = { error };
      },
    });
    if (refusal !== undefined) {
      await this.#answers.drop(workspace, id);
      throw refusal.error;
    }
    return id;
  }

  /** The question as it stands, for its asker only: someone else's id is as unknown as a made-up one. */
  async outcomeOf(workspace: WorkspaceRef, user: string, id: string): Promise<AgentQuestion | undefined> {
    const record = await this.#answers.read(workspace, id);
    if (record === undefined || record.user !== user) return undefined;
    if (record.outcome !== undefined) return stated(id, record.outcome);
    const position = await this.#position(record.account, id);
    if (position !== undefined) return { id, state: 'queued', position };
    // Settled between the two looks (it left the queue): its outcome is there now.
    const settled = (await this.#answers.read(workspace, id))?.outcome;
    if (settled !== undefined) return stated(id, settled);
    return { id, state: 'queued', position: (await this.deps.redis.zcard(this.#queue(record.account))) + 1 };
  }

  /** `outcomeOf`, looked at until the question is no longer queued or `waitMs` (at most 50 s) passed. */
  async waitFor(
    workspace: WorkspaceRef,
    user: string,
    id: string,
    waitMs: number,
  ): Promise<AgentQuestion | undefined> {
    // Bounded by a count of looks, not a clock: however slow the machine, the call ends.
    let looks = Math.ceil(Math.min(waitMs, MAX_AGENT_WAIT_MS) / POLL_MS);
    for (;;) {
      const now = await this.outcomeOf(workspace, user, id);
      if (now === undefined || now.state !== 'queued' || looks-- <= 0) return now;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  #queue(account: string): string {
    return this.deps.assistant.redisKeys.queue(account);
  }

  /** Its place in the account's queue (1: its turn), or undefined while it is still being taken in. */
  async #position(account: string, id: string): Promise<number | undefined> {
    const rank = await this.deps.redis.zrank(this.#queue(account), id);
    return rank === null ? undefined : rank + 1;
  }
}

function stated(id: string, outcome: AgentOutcome): AgentQuestion {
  if (!outcome.ok) return { id, state: 'failed', reason: outcome.reason };
  const { ok: _ok, ...answer } = outcome;
  return { id, state: 'answered', ...answer };
}
