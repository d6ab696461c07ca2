import type { Redis as SingleRedis } from 'ioredis';
import { mastersOf, nodeName, type Redis } from '../shared/redis.js';

/** What one master keeps on disk, as its `INFO persistence` and `CONFIG GET save` say. */
export interface NodePersistence {
  where: string;
  aof: boolean;
  /** RDB save rules (`3600 1 300 100`), '' for none, undefined when CONFIG is refused. */
  saveRules: string | undefined;
  /** The last append-only write or background save failed. */
  lastWriteFailed: boolean;
}

export class PersistenceRefusedError extends Error {
  override readonly name = 'PersistenceRefusedError';
}

async function readNode(node: SingleRedis): Promise<NodePersistence> {
  const info = await node.info('persistence');
  const field = (name: string) => new RegExp(`^${name}:(\\S*)`, 'm').exec(info)?.[1];
  let saveRules: string | undefined;
  try {
    const reply = (await node.config('GET', 'save')) as string[];
    saveRules = (reply[1] ?? '').trim();
  } catch {
    // Managed services (ElastiCache, Memorystore, Azure Cache) refuse CONFIG: their snapshot
    // settings live in the provider's console, not in the server.
    saveRules = undefined;
  }
  return {
    where: nodeName(node),
    aof: field('aof_enabled') === '1',
    saveRules,
    lastWriteFailed: field('aof_last_write_status') === 'err' || field('rdb_last_bgsave_status') === 'err',
  };
}

/**
 * docs/requirements.md R38: every master is asked whether it keeps anything, because the vault, the
 * policies, the audit trail and pending approvals live there.
 * - neither an append-only file nor an RDB save rule: refused, unless `REDIS_ALLOW_EPHEMERAL=1`;
 * - RDB only: a warning, since the writes since the last snapshot are lost in a crash;
 * - a failed last write or save: a warning;
 * - CONFIG refused and no append-only file (a managed Redis): a warning, not a refusal. Such services
 *   snapshot by a setting of their own that the server cannot report; refusing them would push every
 *   operator of one to `REDIS_ALLOW_EPHEMERAL=1`, which then hides a real loss. The warning says how
 *   to confirm persistence in the provider's console.
 * Returns the warnings to log; throws `PersistenceRefusedError` for a refusal.
 */
export async function checkPersistence(redis: Redis, allowEphemeral: boolean): Promise<string[]> {
  const nodes = await Promise.all(mastersOf(redis).map((node) => readNode(node)));
  const warnings: string[] = [];
  for (const node of nodes) {
    if (node.lastWriteFailed) {
      warnings.push(
        `Redis at ${node.where} reports that its last append-only write or background save failed: recent changes may not be on disk. Check the Redis log and disk space.`,
      );
    }
    if (node.aof) continue;
    if (node.saveRules === undefined) {
      warnings.push(
        `Redis at ${node.where} has no append-only file and does not say (CONFIG is refused) whether it takes snapshots. Confirm in your provider's console that persistence (AOF, or snapshots at least hourly) is on; without it a restart loses every registrar key, policy, audit entry and pending approval.`,
      );
      continue;
    }
    if (node.saveRules === '') {
      const message =
        `Redis at ${node.where} persists nothing (appendonly is off and there is no RDB save rule): ` +
        'a restart would lose every registrar key, policy, audit entry and pending approval. ' +
        'Turn on persistence with `appendonly yes` and `appendfsync everysec` (or at least an RDB `save` rule), ' +
        'or set REDIS_ALLOW_EPHEMERAL=1 to accept that loss.';
      if (!allowEphemeral) throw new PersistenceRefusedError(message);
      warnings.push(`REDIS_ALLOW_EPHEMERAL=1: ${message}`);
      continue;
    }
    warnings.push(
      `Redis at ${node.where} persists by RDB snapshots only (save ${node.saveRules}): a crash loses every change since the last snapshot, up to ${longestGap(node.saveRules)}. Turn on \`appendonly yes\` with \`appendfsync everysec\` to lose at most a second.`,
    );
  }
  return warnings;
}

/** The longest a change may wait for a snapshot under these rules: the largest interval among them. */
function longestGap(rules: string): string {
  const seconds = rules
    .split(/\s+/)
    .filter((_, index) => index % 2 === 0)
    .map(Number)
    .filter((value) => Number.isFinite(value) && value > 0);
  const longest = Math.max(...seconds, 0);
  const span =
    longest >= 3600
      ? `${Math.round(longest / 360) / 10} h`
      : longest >= 60
        ? `${Math.round(longest / 6) / 10} min`
        : `${longest} s`;
  return `${span} of changes (longer while fewer changes are made than a rule counts)`;
}
