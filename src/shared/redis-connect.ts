import type { ChildProcess } from 'node:child_process';
import type { Config } from '../config.js';
import { ensureLocalRedis } from './local-redis.js';
import type { RedisSettings } from './redis.js';

export interface ResolvedRedis {
  settings: RedisSettings;
  /** Where Redis is, fit for a log line: passwords masked. */
  shown: string;
  /** Set when this process started its own redis-server; stop it on exit. */
  child?: ChildProcess;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/**
 * The Redis a process uses: the configured topology (one node, Redis Cluster or Sentinel), else the
 * Redis on 127.0.0.1:6379. Only the all-in-one `regdesk start` may start a private Redis when nothing
 * is configured and nothing answers there: a scaled-out web or worker process with a Redis of its own
 * would silently share nothing with its siblings.
 */
export async function resolveRedis(
  redis: Config['redis'],
  env: NodeJS.ProcessEnv,
  options: { mayStartPrivate: boolean; dataDir: string },
  say: (line: string) => void,
): Promise<ResolvedRedis> {
  if (redis.connection !== undefined) {
    return { settings: redis.connection, shown: describeRedis(redis.connection) };
  }
  if (!options.mayStartPrivate) {
    return { settings: { target: { mode: 'single', url: DEFAULT_URL } }, shown: DEFAULT_URL };
  }
  const local = await ensureLocalRedis({ ...env, REDIS_URL: undefined }, say);
  return {
    settings: { target: { mode: 'single', url: local.url } },
    shown: redactUrl(local.url),
    ...(local.child === undefined ? {} : { child: local.child }),
  };
}

export function describeRedis(settings: RedisSettings): string {
  const { target } = settings;
  const scheme = settings.tls === true ? 'rediss://' : '';
  const list = (nodes: Array<{ host: string; port: number }>) =>
    nodes.map((node) => `${scheme}${node.host}:${node.port}`).join(',');
  switch (target.mode) {
    case 'single':
      return redactUrl(target.url);
    case 'cluster':
      return `Redis Cluster (seed nodes ${list(target.nodes)})`;
    case 'sentinel':
      return `Sentinel master "${target.masterName}" (sentinels ${list(target.sentinels)})`;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
