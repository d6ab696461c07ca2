import type { ChildProcess } from 'node:child_process';
import type { Config } from '../config.js';
import type { RedisSettings } from '../shared/redis.js';
import { startPrivateRedis } from './private-redis.js';

export interface ResolvedRedis {
  settings: RedisSettings;
  /** Where Redis is, fit for a log line: passwords masked. */
  shown: string;
  /** Set when this process started its own redis-server. */
  child?: ChildProcess;
  /** Set with `child`: stops the server and releases the data directory (its lock). */
  stop?: () => Promise<void>;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/**
 * The Redis a process uses: the configured topology (one node, Redis Cluster or Sentinel), else the
 * Redis on 127.0.0.1:6379 for `web` and `worker`: a scaled-out process with a Redis of its own would
 * silently share nothing with its siblings. The all-in-one `regdesk start` with nothing configured
 * always runs its own persistent Redis in the data directory (docs/requirements.md R38), never one
 * that happens to answer on 6379: nothing says that one keeps anything, or is not someone else's.
 */
export async function resolveRedis(
  redis: Config['redis'],
  options: { mayStartPrivate: boolean; dataDir: string },
  say: (line: string) => void,
): Promise<ResolvedRedis> {
  if (redis.connection !== undefined) {
    return { settings: redis.connection, shown: describeRedis(redis.connection) };
  }
  if (!options.mayStartPrivate) {
    return { settings: { target: { mode: 'single', url: DEFAULT_URL } }, shown: DEFAULT_URL };
  }
  const local = await startPrivateRedis(options.dataDir, say);
  return {
    settings: { target: { mode: 'single', url: local.url } },
    shown: redactUrl(local.url),
    child: local.child,
    stop: local.stop,
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
