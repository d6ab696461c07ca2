import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { ASSISTANT_QUEUE, type AssistantJob, AssistantService } from './service.js';

export interface AssistantServiceDeps extends BaseDeps {
  workspaceKeys: WorkspaceKeys;
}

export interface AssistantServices {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
}

export function buildAssistantServices(deps: AssistantServiceDeps): AssistantServices {
  const assistantQueue = createQueue<AssistantJob>(ASSISTANT_QUEUE, deps.redis, deps.keys, deps.logger);
  return {
    assistantQueue,
    assistant: new AssistantService(deps.redis, deps.keys, assistantQueue, deps.workspaceKeys, deps.now),
  };
}
