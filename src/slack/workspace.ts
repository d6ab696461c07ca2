import { type WorkspaceRef, workspaceFields } from '../shared/workspace.js';

interface SlackBodyTeams {
  team_id?: unknown;
  enterprise_id?: unknown;
  team?: { id?: unknown } | null;
  enterprise?: { id?: unknown } | null;
  user?: { team_id?: unknown } | null;
  view?: { team_id?: unknown } | null;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The workspace a verified Slack request comes from: slash commands carry `team_id`, interactions
 * `team.id` (or, in Enterprise Grid, the user's team). Every registrar call uses this workspace's key.
 */
export function workspaceOf(body: unknown): WorkspaceRef {
  const b = body as SlackBodyTeams;
  const teamId = text(b.team_id) ?? text(b.team?.id) ?? text(b.user?.team_id) ?? text(b.view?.team_id);
  if (teamId === undefined) throw new Error('Slack request names no workspace');
  const enterpriseId = text(b.enterprise_id) ?? text(b.enterprise?.id);
  return workspaceFields({ teamId, enterpriseId });
}
