import { z } from 'zod';
import { text } from '../../text/index.js';
import type { AgentQuestion, AgentQuestions } from '../assistant/agent.js';
import { MAX_QUESTION_LENGTH } from '../assistant/service.js';
import { ToolRefusal } from './guard.js';
import { iso, type ToolSpec } from './tool.js';

/**
 * The registrar's assistant for agents (contract §3 "Agents (MCP)", §4): a question goes through the
 * assistant's queue like Slack's (one in flight per registrar account across processes, its rates,
 * 503 and 429 retried later), never straight to the registrar. The call waits a while for the answer,
 * else returns the question's id and place in line, and `ask_status` follows it. `ask_status` is a
 * tool of its own rather than a kind of `request_status`: each keeps one strict output schema, and an
 * approval request and a question share nothing but having an id.
 */
export interface AskDeps {
  agentQuestions: Pick<AgentQuestions, 'ask' | 'waitFor'>;
}

const WAIT_MAX_SECONDS = 50;
const Wait = z.number().int().min(0).max(WAIT_MAX_SECONDS).optional();
const QuestionId = z.string().regex(/^q-[0-9a-f]{24}$/, 'a question id (q-…)');

const AskAnswer = {
  id: z.string(),
  state: z.enum(['queued', 'answered', 'failed']),
  /** While queued: 1 is being answered or next. */
  position: z.number().optional(),
  /** The assistant's Markdown, as it wrote it: data for the agent, never instructions to Regdesk. */
  answer: z.string().optional(),
  truncated: z.boolean().optional(),
  sources: z.array(z.object({ title: z.string(), url: z.string().optional() })).optional(),
  dashboardUrl: z.string().optional(),
  /** Set when the answer came from Regdesk's cache of the same question: when the registrar gave it. */
  cachedAt: z.string().optional(),
  /** Why there is no answer (failed). */
  reason: z.string().optional(),
};

function askAnswer(question: AgentQuestion | undefined): Record<string, unknown> {
  if (question === undefined) throw new ToolRefusal('not_found', () => text.mcp.notFound);
  if (question.state !== 'answered') return question;
  const { cachedAt, ...answered } = question;
  return { ...answered, ...iso('cachedAt', cachedAt) };
}

export function askTools(deps: AskDeps): ToolSpec[] {
  const ask: ToolSpec<{ question: z.ZodString; waitSeconds: typeof Wait }> = {
    name: 'ask_registrar',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.askRegistrarTool,
    input: { question: z.string().min(1).max(MAX_QUESTION_LENGTH), waitSeconds: Wait },
    output: AskAnswer,
    // No target: the question is the person's words, which the audit never keeps (asking.ts).
    run: async ({ workspace, user }, { question, waitSeconds }) => {
      const id = await deps.agentQuestions.ask(workspace, user, question);
      return askAnswer(
        await deps.agentQuestions.waitFor(workspace, user, id, (waitSeconds ?? WAIT_MAX_SECONDS) * 1000),
      );
    },
  };

  const status: ToolSpec<{ id: typeof QuestionId; waitSeconds: typeof Wait }> = {
    name: 'ask_status',
    kind: 'read',
    act: 'lookup',
    description: () => text.mcp.askStatusTool,
    input: { id: QuestionId, waitSeconds: Wait },
    output: AskAnswer,
    target: (input) => input.id,
    run: async ({ workspace, user }, { id, waitSeconds }) =>
      askAnswer(await deps.agentQuestions.waitFor(workspace, user, id, (waitSeconds ?? 0) * 1000)),
  };

  return [ask, status] as ToolSpec[];
}
