import { join } from 'node:path';
import type { Config } from '../config.js';
import { type Redis, scanKeys } from '../shared/redis.js';

/**
 * docs/requirements.md R42: the playground never shares the bot's data or queues. Its key prefix is
 * the configured one with `.playground` appended: a dot is not allowed in REDIS_KEY_PREFIX, so no
 * configured prefix (this deployment's or another's on the same Redis) can equal it, and no key of
 * the bot (`<prefix>:…`) starts with it. BullMQ's queues follow, since their prefix comes from the
 * same KeySpace (src/shared/redis.ts `queuePrefix`): the playground's workers take only its own jobs.
 */
export function playgroundKeyPrefix(prefix: string): string {
  return `${prefix}.playground`;
}

/**
 * Every key under `prefix` (`<prefix>:*`) removed; answers how many. The playground starts from its
 * seeded workspace each time, so nothing of an earlier run (pending approvals, delayed follow jobs,
 * an integrity record for data it no longer has) acts on the new one.
 */
export async function emptyKeySpace(redis: Redis, prefix: string): Promise<number> {
  let removed = 0;
  for await (const found of scanKeys(redis, `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*`)) {
    // One UNLINK per key: on Redis Cluster the keys of one page may lie in different slots.
    await Promise.all(found.map((key) => redis.unlink(key)));
    removed += found.length;
  }
  return removed;
}

/**
 * The configuration the playground runs with: its own key prefix, emptied here, no audit sinks, and
 * its own claim journal beside the bot's (src/shared/durable-claim.ts files are named by key, so they
 * would not collide; kept apart all the same, so the bot's data directory holds only the bot's claims).
 */
export async function isolatePlayground(
  config: Config,
  redis: Redis,
): Promise<{ config: Config; removed: number }> {
  const keyPrefix = playgroundKeyPrefix(config.redis.keyPrefix);
  const playgroundAudit = { retentionDays: config.audit.retentionDays };
  const removed = await emptyKeySpace(redis, keyPrefix);
  return {
    config: {
      ...config,
      redis: { ...config.redis, keyPrefix },
      dataDir: join(config.dataDir, 'playground'),
      // The playground's made-up trail never reaches the deployment's audit webhook or syslog.
      audit: playgroundAudit,
    },
    removed,
  };
}
