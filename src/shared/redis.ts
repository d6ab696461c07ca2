import { Redis } from 'ioredis';
import { AppError } from './app-error.js';

export type { Redis } from 'ioredis';

/**
 * Two kinds of connection (docs/requirements.md R22):
 * - `worker`: BullMQ workers block and must wait out Redis restarts, so `maxRetriesPerRequest: null`.
 * - `request`: the Slack request path must fail fast, so a user hears "temporarily unavailable"
 *   within 3 s instead of a command hanging in the offline queue.
 */
export type RedisRole = 'worker' | 'request';

export function createRedis(url: string, role: RedisRole, name = 'regdesk'): Redis {
  // Not annotated as RedisOptions: ioredis 6's constructor intersects it with a narrower
  // `replyMapping` type that an annotated object fails under exactOptionalPropertyTypes.
  const common = { connectionName: `${name}-${role}`, lazyConnect: false };
  const options =
    role === 'worker'
      ? { ...common, maxRetriesPerRequest: null, enableReadyCheck: true }
      : {
          ...common,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2_000,
          commandTimeout: 2_500,
          // Keep reconnecting in the background; requests fail fast meanwhile.
          retryStrategy: (times: number) => Math.min(times * 200, 2_000),
        };
  return new Redis(url, options);
}

export class RedisUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super(
      'regdesk_redis_unavailable',
      'Regdesk is temporarily unavailable (its data store does not answer). Please try again in a minute.',
      { cause },
    );
  }
}

/** Wait until a connection is ready, or fail after `timeoutMs`. */
export async function waitForReady(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new RedisUnavailableError(new Error(`Redis not ready after ${timeoutMs} ms`)));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

const MIN_VERSION = [6, 2] as const;

/**
 * Refuse a Redis that would lose data or lacks commands we rely on (docs/requirements.md R21): older than 6.2,
 * or with an evicting `maxmemory-policy` (the vault and BullMQ's keys must never be evicted).
 */
export async function checkRedisServer(redis: Redis): Promise<{ version: string; policy: string }> {
  const info = await redis.info();
  const version = /redis_version:([\d.]+)/.exec(info)?.[1] ?? '0.0.0';
  const policy = /maxmemory_policy:(\S+)/.exec(info)?.[1] ?? 'noeviction';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1])) {
    throw new Error(`Redis ${version} is too old: Regdesk needs Redis 6.2 or newer.`);
  }
  if (policy !== 'noeviction') {
    throw new Error(
      `Redis maxmemory-policy is "${policy}": it may evict stored keys and queue state. ` +
        'Set `maxmemory-policy noeviction` on this Redis.',
    );
  }
  return { version, policy };
}

/** PING with a deadline, for /healthz. */
export async function pingRedis(
  redis: Redis,
  timeoutMs = 1_000,
): Promise<{ ok: boolean; latencyMs: number }> {
  const started = performance.now();
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, latencyMs: Math.round(performance.now() - started) };
  }
}

/**
 * Every key lives under one prefix and carries a hash tag, so keys used together (one workspace's
 * vault and approvals, one account's quota windows) land in one Redis Cluster slot (docs/requirements.md R23).
 */
export class KeySpace {
  constructor(readonly prefix: string) {}

  /** `regdesk:{ws:T123}:vault:registrar` — `tag` groups keys that a script or MULTI uses together. */
  key(tag: string, ...parts: string[]): string {
    return [`${this.prefix}:{${tag}}`, ...parts].join(':');
  }

  /** BullMQ prefix: its own keys then share one tag per queue family. */
  get queuePrefix(): string {
    return `${this.prefix}:{q}`;
  }
}
