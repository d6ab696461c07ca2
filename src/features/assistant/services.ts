import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { BaseDeps } from '../../shared/deps.js';
import { createQueue } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { LookupAccess } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { SlackDirectory } from '../../slack/users.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { AgentQuestions } from './agent.js';
import { AnswerCache } from './cache.js';
import { ASSISTANT_QUEUE, type AssistantJob, AssistantService } from './service.js';

export interface AssistantServiceDeps extends BaseDeps {
  workspaceKeys: WorkspaceKeys;
  /** What agents' questions are let in with, as Slack's are (agent.ts). */
  poster: ChannelPoster;
  directory: SlackDirectory;
  mayLookUp: LookupAccess;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  assistantCacheTtlMs: number;
}

export interface AssistantServices {
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  /** The assistant for agents (MCP `ask_registrar`): through the same queue, answered into Redis. */
  agentQuestions: AgentQuestions;
}

export function buildAssistantServices(deps: AssistantServiceDeps): AssistantServices {
  const assistantQueue = createQueue<AssistantJob>(ASSISTANT_QUEUE, deps.redis, deps.keys, deps.logger);
  const assistant = new AssistantService(deps.redis, deps.keys, assistantQueue, deps.workspaceKeys, deps.now);
  const cache = new AnswerCache(deps.redis, deps.keys, deps.assistantCacheTtlMs);
  return {
    assistantQueue,
    assistant,
    agentQuestions: new AgentQuestions({ ...deps, assistant, assistantQueue, cache }),
  };
}
