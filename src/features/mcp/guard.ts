import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { WebClient } from '@slack/web-api';
import type { RegistrarClient } from '../../registrar/index.js';
import { isAppError } from '../../shared/app-error.js';
import type { Limiter, QuotaWindow } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Act, Roles } from '../policy/permissions.js';
import type { PolicyRead, PolicyStore } from '../policy/policy.js';
import type { Grant } from './store.js';

/**
 * Every tool call passes here (contract §3 "Agents (MCP)", docs/requirements.md R55): the policy's
 * `mcp` level, the limits per token and per person, the person's rights as Slack has them now
 * (guests, Slack Connect and deactivated people refused, R33), and one audit entry naming the client.
 * Results are bounded and carry data only; a failure is a coded error with Regdesk's own words.
 */

/** Calls per token and per person (a person may run several agents) in a minute. */
export const CALLS_PER_TOKEN = 60;
export const CALLS_PER_PERSON = 120;
const WINDOW_MS = 60_000;
/** A result's JSON at most this long: tools bound their lists, and this catches the rest. */
export const MAX_RESULT_CHARS = 24_000;

/** What a tool is: `read` answers at once, `write` only ever makes an approval request. */
export type ToolKind = 'read' | 'write';

/** What a tool's work is given: the person it acts as, in their workspace, with its clients. */
export interface ToolContext {
  workspace: WorkspaceRef;
  user: string;
  clientName: string;
  registrar: RegistrarClient;
  slack: WebClient;
  policy: PolicyRead;
}

/** A failure a tool reports: its code for the agent's logic, its message for the person. */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    readonly say: () => string,
  ) {
    super(code);
  }
}

export interface GuardDeps {
  policies: Pick<PolicyStore, 'read'>;
  roles: Pick<Roles, 'check'>;
  /** `latest` for the audit_recent tool (reads.ts), `append` for every call. */
  audit: Pick<AuditLog, 'append' | 'latest'>;
  limiter: Pick<Limiter, 'acquire'>;
  keys: KeySpace;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  logger: Logger;
}

export interface GuardedCall {
  name: string;
  kind: ToolKind;
  /** What the person needs to be allowed to do (the permission model's act). */
  act: Act;
  target?: string | undefined;
  run(ctx: ToolContext): Promise<Record<string, unknown>>;
}

const failure = (code: string, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error: code, message }) }],
});

export class ToolGuard {
  constructor(private readonly deps: GuardDeps) {}

  #windows(grant: Grant): QuotaWindow[] {
    const tag = `ws:${workspaceId(grant.workspace)}`;
    return [
      {
        key: this.deps.keys.key(tag, 'mcp', 'quota', 'grant', grant.id),
        max: CALLS_PER_TOKEN,
        windowMs: WINDOW_MS,
      },
      {
        key: this.deps.keys.key(tag, 'mcp', 'quota', 'user', grant.user),
        max: CALLS_PER_PERSON,
        windowMs: WINDOW_MS,
      },
    ];
  }

  async call(grant: Grant, call: GuardedCall): Promise<CallToolResult> {
    const { deps } = this;
    const workspace = grant.workspace;
    let outcome = 'ok';
    try {
      const ctx = await this.#admit(grant, call);
      const result = await call.run(ctx);
      const json = JSON.stringify(result);
      if (json.length > MAX_RESULT_CHARS)
        throw new ToolRefusal('result_too_large', () => text.mcp.couldNotAnswer);
      return { content: [{ type: 'text', text: json }], structuredContent: result };
    } catch (error) {
      const refused = refusalOf(error, deps.logger, call.name);
      outcome = `refused: ${refused.code}`;
      return failure(refused.code, refused.say());
    } finally {
      await deps.audit
        .append(workspace, {
          action: 'agent_call',
          actor: grant.user,
          operation: `mcp.${call.name}`,
          ...(call.target === undefined ? {} : { target: call.target }),
          outcome,
          detail: `client: ${grant.clientName}`,
        })
        .catch((error: unknown) =>
          deps.logger.error(
            { err: error instanceof Error ? error.message : String(error) },
            'mcp audit failed',
          ),
        );
    }
  }

  /** The policy, the limits and the person's rights, in that order: the cheapest refusal first. */
  async #admit(grant: Grant, call: GuardedCall): Promise<ToolContext> {
    const { deps } = this;
    const { workspace, user } = grant;
    const policy = await deps.policies.read(workspace);
    // Unreadable, the policy is the strictest one (R41), whose `mcp` is `off`.
    if (policy.policy.mcp === 'off') throw new ToolRefusal('agents_off', () => text.mcp.agentsOff);
    if (call.kind === 'write' && policy.policy.mcp !== 'write')
      throw new ToolRefusal('agents_read_only', () => text.mcp.agentsReadOnly);
    const quota = await deps.limiter.acquire(this.#windows(grant));
    if (!quota.ok) {
      const seconds = Math.ceil(quota.retryAfterMs / 1000);
      throw new ToolRefusal('rate_limited', () => text.mcp.tooManyCalls({ seconds }));
    }
    const slack = await deps.slackFor(workspace);
    const decision = await deps.roles.check(slack, workspace, user, call.act, {
      policy,
      operation: `mcp.${call.name}`,
      ...(call.target === undefined ? {} : { target: call.target }),
    });
    if (!decision.allowed) throw new ToolRefusal(`not_allowed_${decision.refusal.code}`, decision.say);
    return {
      workspace,
      user,
      clientName: grant.clientName,
      registrar: deps.registrarFor(workspace),
      slack,
      policy,
    };
  }
}

/** Known failures keep their words; a registrar 404 is "not found"; anything else is logged. */
function refusalOf(error: unknown, logger: Logger, tool: string): ToolRefusal {
  if (error instanceof ToolRefusal) return error;
  const status = (error as { status?: unknown }).status;
  if (status === 404) return new ToolRefusal('not_found', () => text.mcp.notFound);
  if (isAppError(error)) return new ToolRefusal(error.code, () => error.userMessage);
  logger.warn({ tool, err: error instanceof Error ? error.message : String(error) }, 'mcp tool failed');
  return new ToolRefusal('unavailable', () => text.mcp.couldNotAnswer);
}
