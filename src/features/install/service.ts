import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { Vault } from '../../vault/store.js';

/**
 * Forget a workspace entirely: its installation, registrar key, policy, approvals and audit trail.
 * Every per-workspace key carries the hash tag `{ws:<id>}`, so one SCAN pattern finds them all.
 */
export async function purgeWorkspace(
  redis: Redis,
  keys: KeySpace,
  vault: Vault,
  ref: WorkspaceRef,
  logger: Logger,
): Promise<number> {
  await vault.deleteWorkspace(ref);
  const pattern = keys.key(`ws:${workspaceId(ref)}`, '*');
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) deleted += await redis.del(...found);
  } while (cursor !== '0');
  logger.info({ workspace: workspaceId(ref), deleted }, 'workspace data purged');
  return deleted;
}
