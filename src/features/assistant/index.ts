import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { RegfishLimits } from '../../config.js';
import type { RegistrarClient } from '../../registrar/index.js';
import { type Limiter, withLatencyMargin } from '../../shared/limiter.js';
import { createWorker } from '../../shared/queues.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { LookupAccess } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import type { FeatureModule } from '../feature.js';
import type { PolicyStore } from '../policy/policy.js';
import { Asking } from './asking.js';
import { AnswerCache } from './cache.js';
import { registerAssistantHandlers } from './commands.js';
import { Estimator } from './estimate.js';
import { assistantProcessor } from './jobs.js';
import { registerAgentMessages } from './panel.js';
import { ASSISTANT_QUEUE, type AssistantJob, type AssistantService } from './service.js';
import { registerAskShortcut } from './shortcut.js';

export interface AssistantDeps {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  poster: ChannelPoster;
  /** Slack users cached across processes: the asker's locale without a users.info call each time. */
  directory: SlackDirectory;
  /** Who reads answers and where their links may go (`assistantAnswers`, `assistantLinkHosts`). */
  policies: PolicyStore;
  redis: Redis;
  keys: KeySpace;
  limiter: Limiter;
  limits: RegfishLimits;
  config: { assistantCacheTtlMs: number };
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /** The permission model's `lookup` rule: who may ask at all (docs/requirements.md R33, R43). */
  mayLookUp: LookupAccess;
}

/** The answer cache and the estimator, built alike by the Slack side and the workers. */
export function assistantTools(deps: AssistantDeps): { cache: AnswerCache; estimator: Estimator } {
  return {
    cache: new AnswerCache(deps.redis, deps.keys, deps.config.assistantCacheTtlMs),
    // The windows as the worker's limiter counts them, latency margin included.
    estimator: new Estimator(deps.redis, deps.assistant.redisKeys, {
      assistantKey: {
        ...deps.limits.assistantKey,
        windowMs: withLatencyMargin(deps.limits.assistantKey.windowMs),
      },
      assistantAccount: {
        ...deps.limits.assistantAccount,
        windowMs: withLatencyMargin(deps.limits.assistantAccount.windowMs),
      },
    }),
  };
}

/**
 * The registrar's assistant wherever Slack users ask: `/ask`, mentions, the app's Messages tab
 * (Slack's agent messaging: DMs with the bot) and the "Ask Regdesk about this" message shortcut.
 * Questions are queued, one in flight per registrar account, and answered in threads; repeated
 * questions come from the cache.
 */
export const assistantFeature = {
  name: 'assistant',
  register: (app, deps) => {
    const withTools = { ...deps, ...assistantTools(deps) };
    // One way in for every surface's questions: recorded, then let in, then taken in by its job.
    const asking = new Asking(withTools);
    registerAssistantHandlers(app, withTools, asking);
    registerAgentMessages(app, withTools, asking);
    registerAskShortcut(app, withTools, asking);
  },
  workers: (deps) => [
    ({ connection, keys, logger }) => {
      const withTools = { ...deps, ...assistantTools(deps), logger };
      return createWorker(
        ASSISTANT_QUEUE,
        assistantProcessor({
          ...withTools,
          asking: new Asking(withTools),
          service: deps.assistant,
          queue: deps.assistantQueue,
        }),
        connection,
        keys,
        logger,
        // A question held by a process that died is taken up again within about 15 s (BullMQ's
        // defaults take up to a minute): short lock, frequent stalled checks. A question's intake
        // waits for its channel's posting pace (about a second per post, R7): enough slots that a
        // burst in one channel leaves room for the account's next question.
        { concurrency: 64, lockDuration: 8_000, stalledInterval: 4_000 },
      );
    },
  ],
} satisfies FeatureModule<AssistantDeps>;
