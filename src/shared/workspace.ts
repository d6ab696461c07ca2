/** A Slack workspace: the team, within an Enterprise Grid org when there is one. */
export interface WorkspaceRef {
  teamId: string;
  enterpriseId?: string | undefined;
}

/** `E123:T456`, or `-:T456` outside Enterprise Grid: the id bound into every ciphertext and key. */
export function workspaceId(ref: WorkspaceRef): string {
  return `${ref.enterpriseId || '-'}:${ref.teamId}`;
}
