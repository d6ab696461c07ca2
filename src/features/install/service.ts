import type { Logger } from '../../shared/logger.js';
import { type KeySpace, type Redis, scanKeys } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';

/** How long the audit trail of an uninstalled workspace is kept (docs/requirements.md R36). */
export const AUDIT_KEPT_AFTER_UNINSTALL_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Forget a workspace: its installation, registrar key, policy, approvals and everything else — but
 * not its audit trail, which records the uninstall and is kept for its retention period so a team
 * (or an auditor) can still see who did what. Every per-workspace key carries the hash tag
 * `{ws:<id>}`, so one SCAN pattern finds them all.
 */
export async function purgeWorkspace(
  redis: Redis,
  keys: KeySpace,
  vault: Vault,
  audit: AuditLog,
  ref: WorkspaceRef,
  actor: string,
  logger: Logger,
): Promise<number> {
  await audit.append(ref, { action: 'uninstall', actor });
  await audit.retainAfterUninstall(ref, AUDIT_KEPT_AFTER_UNINSTALL_MS);
  await vault.deleteWorkspace(ref);
  const kept = new Set(audit.streamKeys(ref));
  const pattern = keys.key(`ws:${workspaceId(ref)}`, '*');
  let deleted = 0;
  for await (const found of scanKeys(redis, pattern)) {
    const doomed = found.filter((key) => !kept.has(key));
    if (doomed.length > 0) deleted += await redis.del(...doomed);
  }
  logger.info({ workspace: workspaceId(ref), deleted }, 'workspace data purged');
  return deleted;
}
