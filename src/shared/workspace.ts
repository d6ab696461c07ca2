/** A Slack workspace: the team, within an Enterprise Grid org when there is one. */
export interface WorkspaceRef {
  teamId: string;
  enterpriseId?: string | undefined;
}

/** `E123:T456`, or `-:T456` outside Enterprise Grid: the id bound into every ciphertext and key. */
export function workspaceId(ref: WorkspaceRef): string {
  return `${ref.enterpriseId || '-'}:${ref.teamId}`;
}

/** A workspace as plain data (job data, stored JSON): `enterpriseId` only when there is one. */
export interface WorkspaceFields {
  teamId: string;
  enterpriseId?: string;
}

/**
 * The one conversion between a workspace and the fields jobs and stored records carry, both ways: the
 * canonical form has no undefined member (JSON drops it, and a set must hold one workspace once), and
 * anything else the object holds is left behind.
 */
export function workspaceFields(from: {
  teamId: string;
  enterpriseId?: string | undefined;
}): WorkspaceFields {
  return from.enterpriseId === undefined || from.enterpriseId === ''
    ? { teamId: from.teamId }
    : { teamId: from.teamId, enterpriseId: from.enterpriseId };
}
