import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { runningHolder } from '../runtime/data-dir.js';
import { startPrivateRedis } from '../runtime/private-redis.js';
import { describeRedis } from '../runtime/redis-connect.js';
import { presentProcesses } from '../shared/backup-presence.js';
import { dataDirMark, type IntegrityMark } from '../shared/data-dir-mark.js';
import { createRedis, KeySpace, type Redis, type RedisSettings, waitForReady } from '../shared/redis.js';

export interface QuietRedis {
  redis: Redis;
  keys: KeySpace;
  /** Where, for messages (passwords masked). */
  shown: string;
  /** The private Redis's mark in the data directory (src/shared/data-dir-mark.ts), when it is that one. */
  mark?: IntegrityMark;
}

/**
 * Runs `work` on the Redis a Regdesk with this configuration uses, once nothing of Regdesk runs on it:
 * - a configured Redis (any topology): no process may be in its presence set
 *   (src/shared/backup-presence.ts);
 * - none configured: the private Redis of REGDESK_DATA_DIR, as `regdesk start` runs it. Its lock says
 *   whether a Regdesk runs; if none does, the private redis-server is started here, under the lock,
 *   so no `regdesk start` can begin until the work is done.
 * `mustExist` refuses a data directory without a private Redis (nothing to back up).
 */
export async function withQuietRedis<T>(
  config: Config,
  options: { mustExist: boolean; say: (line: string) => void },
  work: (target: QuietRedis) => Promise<T>,
): Promise<T> {
  const keys = new KeySpace(config.redis.keyPrefix);
  if (config.redis.connection !== undefined) {
    const shown = describeRedis(config.redis.connection);
    return connected(config.redis.connection, async (redis) => {
      const present = await presentProcesses(redis, keys);
      if (present.length > 0) {
        const who = present.map((p) => `pid ${p.pid} on ${p.host}`).join(', ');
        const lapses = Math.ceil(Math.max(...present.map((p) => p.lapsesInMs)) / 1000);
        throw new Error(
          `refused: Regdesk runs against ${shown} under the key prefix "${keys.prefix}" (${who}). ` +
            `Stop every Regdesk process first; one that ended without shutting down still counts for up to ${lapses} s.`,
        );
      }
      return work({ redis, keys, shown });
    });
  }
  const { dataDir } = config;
  const holder = runningHolder(dataDir);
  if (holder !== undefined) {
    throw new Error(
      `refused: a Regdesk (pid ${holder.pid}) runs its private Redis from ${dataDir}. Stop it first.`,
    );
  }
  if (options.mustExist && !existsSync(join(dataDir, 'redis'))) {
    throw new Error(
      `refused: no Redis is configured (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS), and ${dataDir} ` +
        '(REGDESK_DATA_DIR) holds no private Redis of `regdesk start`.',
    );
  }
  const server = await startPrivateRedis(dataDir, options.say);
  try {
    const shown = `the private Redis in ${join(dataDir, 'redis')}`;
    const mark = dataDirMark(dataDir, keys.prefix);
    return await connected({ target: { mode: 'single', url: server.url } }, (redis) =>
      work({ redis, keys, shown, mark }),
    );
  } finally {
    await server.stop();
  }
}

async function connected<T>(settings: RedisSettings, work: (redis: Redis) => Promise<T>): Promise<T> {
  // `job`: no command timeout, so a large key's DUMP or RESTORE is not cut short.
  const redis = createRedis(settings, 'job', 'regdesk-cli');
  redis.on('error', () => {});
  try {
    await waitForReady(redis, 10_000);
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
