import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import { AppError } from '../../shared/app-error.js';
import type { Logger } from '../../shared/logger.js';
import type { Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import type { LookupAccess } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import { currentLocale } from '../../text/index.js';
import { PermissionRefused } from '../policy/permissions.js';
import type { AnswerCache, CachedAnswer } from './cache.js';
import { registrarLocale } from './locale.js';
import {
  type AssistantJob,
  type AssistantService,
  DECIDE_BUDGET_MS,
  type Place,
  type ReceivedQuestion,
  type Surface,
} from './service.js';

export interface AskingDeps {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  /** The handlers' own replies (a refused DM question is answered in its thread). */
  poster: ChannelPoster;
  directory: SlackDirectory;
  redis: Redis;
  cache: AnswerCache;
  /**
   * Whether the person may read with the workspace's key: the look-ups' rule of the one permission
   * model (docs/requirements.md R43), since answers draw on the account's domains, billing and
   * certificates. Guests, external and deactivated people are refused (R33).
   */
  mayLookUp: LookupAccess;
  logger: Logger;
}

/**
 * One question from any surface (`/ask`, mention, DM, shortcut), as the handlers hand it over: what
 * its record keeps (service.ts `ReceivedQuestion`), with the request's own workspace, client and
 * delivery id.
 */
export interface Question
  extends Pick<
    ReceivedQuestion,
    'surface' | 'user' | 'question' | 'channel' | 'threadTs' | 'askTs' | 'context' | 'languageHint'
  > {
  workspace: WorkspaceRef;
  client: WebClient;
  /** Identifies the delivery (an event id, a command): the same delivery is one question. */
  dedupeId: string;
  /** Tells the asker privately why the question is not let in, the surface's way (a response_url). */
  refuse(error: unknown): Promise<void>;
}

/** Whether a question is let in, and how it is answered. */
export interface Verdict {
  account: string;
  /** The locale for the registrar. */
  locale: string | undefined;
  /** The answer, when the question is a repeat (it takes no place); else it holds one of the asker's. */
  cached?: CachedAnswer;
  /** The place, when this decision took it (rather than found it held). */
  took?: Place;
}

/**
 * The way in for every question (issue #41): recorded first, as a job, before the ack where the
 * surface waits for one (`/ask`, the shortcut) and before anything slow, so whatever was acked is
 * answered even if this process dies a moment later. Then, while the job waits out its grace, this
 * process decides whether it is let in: a refusal is told the way the surface allows (a command's
 * response_url) and its job removed, nothing left queued; a question let in is started at once, and
 * its job (intake.ts) does everything slow. If this process dies, or takes too long, the job wakes
 * and its worker decides instead.
 */
export class Asking {
  constructor(private readonly deps: AskingDeps) {}

  async submit(q: Question, ack: () => Promise<void> = async () => {}): Promise<void> {
    const { assistant, logger } = this.deps;
    const received: ReceivedQuestion = {
      stage: 'intake',
      ...workspaceFields(q.workspace),
      surface: q.surface,
      user: q.user,
      question: q.question,
      channel: q.channel,
      ...(q.threadTs === undefined ? {} : { threadTs: q.threadTs }),
      ...(q.askTs === undefined ? {} : { askTs: q.askTs }),
      ...(q.context === undefined ? {} : { context: q.context }),
      ...(q.languageHint === undefined ? {} : { languageHint: q.languageHint }),
      // The language this request runs in (src/slack/language.ts): the asker's.
      speaks: currentLocale(),
    };
    const job = await assistant.record(received, q.dedupeId);
    await ack();
    // Recorded: from here on nothing fails the question; at worst its worker decides after the grace.
    await this.#decideHere(q, received, job).catch((error: unknown) =>
      logger.warn({ jobId: job.id, err: String(error) }, 'a question is left to a worker to take in'),
    );
  }

  async #decideHere(q: Question, received: ReceivedQuestion, job: Job<AssistantJob>): Promise<void> {
    const jobId = job.id ?? '';
    let verdict: Verdict | undefined;
    try {
      verdict = await within(DECIDE_BUDGET_MS, this.decide(received, jobId, q.client));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Told here only while the job was still ours to remove: a worker that has it tells the asker.
      if ((await this.deps.assistantQueue.remove(jobId)) === 1) await q.refuse(error);
      return;
    }
    // Too slow to decide here: its worker decides once the grace ends.
    if (verdict !== undefined) await this.deps.assistant.start(job, verdict.took);
  }

  /**
   * Whether the question is let in: the permission model first (R43: nobody it refuses gets an answer,
   * a cached one included, or a place), the asker's locale, then the answer cache (docs/requirements.md
   * C3: a repeat costs no quota and no place in the queue), else one of the asker's places (R34).
   * Throws the refusal. Asked by the acking process, then again by the question's job: the second
   * time finds the place held and the profile cached.
   */
  async decide(q: ReceivedQuestion, jobId: string, client: WebClient): Promise<Verdict> {
    const { assistant, cache } = this.deps;
    const workspace = workspaceFields(q);
    await this.mayAsk(client, workspace, q.user, q.surface);
    const locale = await this.localeFor(client, workspace, q.user, q.languageHint ?? q.question);
    const account = await assistant.accountOf(workspace);
    const query = { workspace, account, locale, question: q.question };
    const cached = (await this.#standalone(q)) ? await cache.get(query) : undefined;
    if (cached !== undefined) return { account, locale, cached };
    const held = await assistant.admit(workspace, q.user, jobId);
    return { account, locale, ...(held === 'taken' ? { took: { account, user: q.user, jobId } } : {}) };
  }

  /** The locale for the registrar: the asker's Slack locale unless the question's language differs. */
  async localeFor(client: WebClient, workspace: WorkspaceRef, user: string, question: string) {
    const slackLocale = await this.deps.directory.user(client, workspace, user).then(
      (profile) => profile.locale,
      () => undefined,
    );
    return registrarLocale(slackLocale, question);
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
  async #standalone(q: ReceivedQuestion): Promise<boolean> {
    if (q.context !== undefined || !this.deps.cache.enabled) return false;
    if (q.threadTs === undefined) return true;
    const history = this.deps.assistant.redisKeys.history(workspaceFields(q), q.channel, q.threadTs);
    return (await this.deps.redis.exists(history)) === 0;
  }
}

/** `work`'s result, or undefined once `ms` passed first (it goes on; its failure is then ignored). */
function within<T>(ms: number, work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
