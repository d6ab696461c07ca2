import type { App, BlockAction } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { button, context, divider, header, mention, slackDate } from '../../slack/blocks.js';
import { onAction } from '../../slack/handlers.js';
import { notifyByDm } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Grant, McpStore } from '../mcp/store.js';
import type { Roles } from '../policy/permissions.js';

/**
 * The App Home's "Agents" section (contract §3 "Agents (MCP)"): each person sees the agents they
 * signed in with Slack and revokes them; admins also see, and revoke, everyone's. Its own module, so
 * the rest of Home stays as it is; the grants are read per person (Home's data is the workspace's).
 */

export const AGENT_IDS = { revoke: 'home.agents.revoke' } as const;

/** Rows shown: a person rarely runs more; the section stays small within Home's 100 blocks. */
const MAX_OWN = 5;
const MAX_OTHERS = 10;

export interface AgentsDeps {
  agents: Pick<McpStore, 'grantsOf' | 'grant' | 'revokeGrant'>;
  roles: Pick<Roles, 'isAdmin'>;
  audit: Pick<AuditLog, 'append'>;
}

function row(line: string, grant: Grant): KnownBlock {
  const revoke = button(text.mcp.homeRevoke, AGENT_IDS.revoke, grant.id, 'danger');
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: line },
    accessory: {
      ...revoke,
      confirm: {
        title: { type: 'plain_text', text: text.mcp.homeRevokeConfirmTitle },
        text: { type: 'plain_text', text: text.mcp.homeRevokeConfirmText },
        confirm: { type: 'plain_text', text: text.mcp.homeRevoke },
        deny: { type: 'plain_text', text: text.mcp.homeRevokeCancel },
        style: 'danger',
      },
    },
  };
}

/** The section for `user`: nothing at all while nobody in the workspace signed an agent in. */
export function agentsBlocks(grants: readonly Grant[], user: string, isAdmin: boolean): KnownBlock[] {
  if (grants.length === 0) return [];
  const own = grants.filter((grant) => grant.user === user);
  const others = isAdmin ? grants.filter((grant) => grant.user !== user) : [];
  const since = (grant: Grant) => slackDate(grant.createdAt);
  const blocks: KnownBlock[] = [divider(), header(text.mcp.homeHeader), context(text.mcp.homeIntro)];
  if (own.length === 0) blocks.push(context(text.mcp.homeNone));
  for (const grant of own.slice(0, MAX_OWN))
    blocks.push(row(text.mcp.homeGrant({ client: grant.clientName, since: since(grant) }), grant));
  if (others.length > 0) blocks.push(context(text.mcp.homeOthersHeader));
  for (const grant of others.slice(0, MAX_OTHERS)) {
    const line = text.mcp.homeGrantOf({
      client: grant.clientName,
      user: mention(grant.user),
      since: since(grant),
    });
    blocks.push(row(line, grant));
  }
  return blocks;
}

/** The section as `user` sees it now (admin status as the permission model says). */
export async function agentsSection(
  deps: AgentsDeps,
  client: WebClient,
  workspace: WorkspaceRef,
  user: string,
): Promise<KnownBlock[]> {
  const grants = await deps.agents.grantsOf(workspace);
  if (grants.length === 0) return [];
  const isAdmin =
    grants.some((grant) => grant.user !== user) && (await deps.roles.isAdmin(client, workspace, user));
  return agentsBlocks(grants, user, isAdmin);
}

/**
 * Revoke: the person who signed the agent in, or an admin; every token of the grant stops at once
 * (mcp/store.ts). Audited; the presser hears back by DM and sees their Home again.
 */
export function registerAgentActions(
  app: App,
  deps: AgentsDeps,
  republish: (client: WebClient, workspace: WorkspaceRef, user: string) => Promise<void>,
  logger: Logger,
): void {
  onAction<BlockAction>(app, AGENT_IDS.revoke, logger, async ({ body, client, action }) => {
    const workspace = workspaceOf(body);
    const presser = body.user.id;
    const grant = 'value' in action ? await deps.agents.grant(String(action.value)) : undefined;
    if (grant === undefined || grant.workspace.teamId !== workspace.teamId) {
      await republish(client, workspace, presser);
      return;
    }
    if (grant.user !== presser && !(await deps.roles.isAdmin(client, workspace, presser))) {
      await notifyByDm(client, presser, { text: text.mcp.homeRevokeRefused }, logger);
      return;
    }
    await deps.agents.revokeGrant(grant);
    await deps.audit.append(workspace, {
      action: 'agent_revoke',
      actor: presser,
      operation: 'mcp.revoke',
      target: grant.user,
      detail: `client: ${grant.clientName}`,
    });
    await notifyByDm(client, presser, { text: text.mcp.homeRevoked({ client: grant.clientName }) }, logger);
    await republish(client, workspace, presser);
  });
}
