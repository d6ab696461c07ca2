import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { Logger } from '../../shared/logger.js';
import type { Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { LookupAccess } from '../../slack/lookup.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import { PermissionRefused } from '../approvals/permissions.js';
import type { PolicyStore } from '../approvals/policy.js';
import { panelStatus, waitingMessage } from './blocks.js';
import type { AnswerCache } from './cache.js';
import type { Estimator } from './estimate.js';
import { registrarLocale } from './locale.js';
import { Outcomes } from './outcome.js';
import { Placeholders } from './placeholder.js';
import {
  type Admission,
  type AskInput,
  type AssistantJob,
  type AssistantService,
  assistantJob,
  jobIdOf,
} from './service.js';

export interface AskingDeps {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  poster: ChannelPoster;
  directory: SlackDirectory;
  policies: PolicyStore;
  redis: Redis;
  cache: AnswerCache;
  estimator: Estimator;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /**
   * Whether the person may read with the workspace's key: the look-ups' rule of the one permission
   * model (docs/requirements.md R43), since answers draw on the account's domains, billing and
   * certificates. Guests, external and deactivated people are refused (R33).
   */
  mayLookUp: LookupAccess;
  logger: Logger;
}

/** The surfaces a question comes from, as its audit entry names them. */
export type Surface = '/ask' | 'mention' | 'dm' | 'panel' | 'shortcut';

/** One question from any surface (`/ask`, mention, panel, DM, shortcut), as the handlers hand it over. */
export interface Question {
  surface: Surface;
  workspace: WorkspaceRef;
  user: string;
  client: WebClient;
  /** Identifies the delivery (an event id, a command): the same delivery is one question. */
  dedupeId: string;
  question: string;
  /** The thread it is asked in, when it already exists (a follow-up may have history there). */
  thread?: { channel: string; threadTs: string };
  /** Text the question is about (a shortcut's message): never answered from the cache. */
  context?: string;
  /** Text whose language decides the locale, when not the question's own (a shortcut's message). */
  languageHint?: string;
  /**
   * Where the answer goes, once the question is let in (cached, or admitted under the asker's cap):
   * for `/ask` this posts the question publicly, so nothing is posted for a refused one.
   */
  place(): Promise<AskInput>;
}

/**
 * The path every question takes: the permission model first (R43: nobody it refuses gets an answer,
 * a cached one included, or a place in the queue), the asker's locale, then the answer cache
 * (docs/requirements.md C3: a repeat costs no quota and no place in the queue), else a place under
 * the asker's cap (R34) and the account's queue (R13), its position shown from the start with an
 * estimate.
 */
export class Asking {
  readonly #outcomes: Outcomes;
  readonly #placeholders: Placeholders;

  constructor(private readonly deps: AskingDeps) {
    this.#placeholders = new Placeholders(deps.redis, deps.assistant.redisKeys);
    this.#outcomes = new Outcomes({
      redis: deps.redis,
      keys: deps.assistant.redisKeys,
      queue: deps.assistantQueue,
      poster: deps.poster,
      policies: deps.policies,
      slackFor: deps.slackFor,
      logger: deps.logger,
    });
  }

  /** The locale for the registrar: the asker's Slack locale unless the question's language differs. */
  async localeFor(client: WebClient, workspace: WorkspaceRef, user: string, question: string) {
    const slackLocale = await this.deps.directory.user(client, workspace, user).then(
      (profile) => profile.locale,
      () => undefined,
    );
    return registrarLocale(slackLocale, question);
  }

  async submit(q: Question): Promise<void> {
    const { assistant, cache } = this.deps;
    await this.mayAsk(q.client, q.workspace, q.user, q.surface);
    const locale = await this.localeFor(q.client, q.workspace, q.user, q.languageHint ?? q.question);
    const account = await assistant.accountOf(q.workspace);
    const query = { workspace: q.workspace, account, locale, question: q.question };
    const hit = (await this.#standalone(q)) ? await cache.get(query) : undefined;
    if (hit !== undefined) {
      const input = await q.place();
      const jobId = jobIdOf(q.dedupeId);
      const job = assistantJob({ workspace: q.workspace, user: q.user, account }, input, locale, Date.now());
      // Settled and delivered like a queued question (once per delivery, remembered for follow-ups),
      // but without a place, a slot or a registrar call.
      await this.#outcomes.settle(job, jobId, { ok: true, answer: hit.answer, cachedAt: hit.at });
      await this.#outcomes.deliver(job, jobId);
      return;
    }
    let admission: Admission | undefined;
    try {
      admission = await assistant.admit(q.workspace, q.user, q.dedupeId);
      if (admission === undefined) return;
      const input = await q.place();
      await assistant.ask(admission, input, locale, this.#opening(q.client, input, admission));
    } catch (error) {
      // A question that failed before it was queued gives its place back at once (else it lapses later).
      if (admission !== undefined) await assistant.withdraw(admission).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Throws `PermissionRefused` (its reason says why: "Guests cannot use Regdesk.") unless the person
   * may read with the workspace's key. The refusal is audited with the surface only: never the
   * question or the message it is about.
   */
  async mayAsk(client: WebClient, workspace: WorkspaceRef, user: string, surface: Surface): Promise<void> {
    const access = await this.deps.mayLookUp(client, workspace, user, {
      operation: `assistant ${surface}`,
      target: '',
    });
    if (!access.allowed) throw new PermissionRefused(access.say);
  }

  /** Only a question without context may come from the cache: a follow-up's answer depends on its thread. */
  async #standalone(q: Question): Promise<boolean> {
    if (q.context !== undefined || !this.deps.cache.enabled) return false;
    if (q.thread === undefined) return true;
    const history = this.deps.assistant.redisKeys.history(q.workspace, q.thread.channel, q.thread.threadTs);
    return (await this.deps.redis.exists(history)) === 0;
  }

  /**
   * The first sign of the question, once it is queued: the assistant thread's status, or a placeholder
   * reply. A placeholder is progress: it waits behind every answer being posted in the channel, is not
   * posted at all when the answer got to the thread first, and is tidied when it came too late
   * (placeholder.ts). Failing to show it fails nothing: the outcome still reaches the asker.
   */
  #opening(client: WebClient, input: AskInput, admission: Admission) {
    const { account, jobId, user } = admission;
    const { estimator, poster, logger } = this.deps;
    return async (ahead: number): Promise<void> => {
      const waitMs = ahead > 0 ? await estimator.estimate(account, ahead) : undefined;
      if (input.surface === 'panel') {
        const status = waitMs === undefined ? panelStatus.working() : panelStatus.waiting(ahead, waitMs);
        await client.assistant.threads
          .setStatus({ channel_id: input.channel, thread_ts: input.threadTs, status })
          .catch((error: unknown) => logger.info({ err: String(error) }, 'assistant thread status not set'));
        return;
      }
      try {
        const ts = await poster.post(
          client,
          { channel: input.channel, thread_ts: input.threadTs, ...waitingMessage(ahead, waitMs) },
          { urgency: 'progress', skipIf: () => this.#placeholders.answeredInThread(account, jobId) },
        );
        if (ts !== '')
          await this.#placeholders.posted(
            { account, jobId, channel: input.channel, user },
            ts,
            client,
            poster,
          );
      } catch (error) {
        logger.info({ jobId, slackError: slackRefusal(error), err: String(error) }, 'placeholder not posted');
      }
    };
  }
}
