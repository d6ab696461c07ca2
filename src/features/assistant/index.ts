import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { RegfishLimits } from '../../config.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { Limiter } from '../../shared/limiter.js';
import { createWorker } from '../../shared/queues.js';
import type { Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import type { PolicyStore } from '../approvals/policy.js';
import type { FeatureModule } from '../feature.js';
import { registerAssistantHandlers } from './commands.js';
import { assistantProcessor } from './jobs.js';
import { ASSISTANT_QUEUE, type AssistantJob, type AssistantService } from './service.js';

export interface AssistantDeps {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  poster: ChannelPoster;
  /** Slack users cached across processes: the asker's locale without a users.info call each time. */
  directory: SlackDirectory;
  /** Who reads answers and where their links may go (`assistantAnswers`, `assistantLinkHosts`). */
  policies: PolicyStore;
  redis: Redis;
  limiter: Limiter;
  limits: RegfishLimits;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
}

/** `/ask` and mentions: questions queued, one in flight per registrar account, answered in threads. */
export const assistantFeature = {
  name: 'assistant',
  register: (app, deps) => registerAssistantHandlers(app, deps),
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      createWorker(
        ASSISTANT_QUEUE,
        assistantProcessor({ ...deps, service: deps.assistant, queue: deps.assistantQueue, logger }),
        connection,
        keys,
        logger,
        // A question held by a process that died is taken up again within about 15 s (BullMQ's
        // defaults take up to a minute): short lock, frequent stalled checks.
        { concurrency: 16, lockDuration: 8_000, stalledInterval: 4_000 },
      ),
  ],
} satisfies FeatureModule<AssistantDeps>;
