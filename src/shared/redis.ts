import { Cluster, Redis as SingleRedis } from 'ioredis';
import { text } from '../text/index.js';
import { AppError } from './app-error.js';

/**
 * A connection to whichever topology is configured: one node or a Sentinel-managed master (a plain
 * ioredis `Redis`), or Redis Cluster (`Cluster`). Both speak the same commands; what differs (a SCAN
 * or a server check per master) goes through `mastersOf`.
 */
export type Redis = SingleRedis | Cluster;

/**
 * Three kinds of connection (docs/requirements.md R22):
 * - `worker`: BullMQ workers block and must wait out Redis restarts, so `maxRetriesPerRequest: null`.
 * - `request`: the Slack request path must fail fast, so a user hears "temporarily unavailable"
 *   within 3 s instead of a command hanging in the offline queue.
 * - `job`: what a `regdesk worker` process's job code calls. No user waits on it, so a command waits
 *   in the offline queue through a Sentinel fail-over or a short restart (failing fast there would
 *   fail the job and lose, say, a question); after about 20 s of outage it fails all the same.
 */
export type RedisRole = 'worker' | 'request' | 'job';

export interface HostPort {
  host: string;
  port: number;
}

/** Where Redis is, in one of the three modes of docs/requirements.md C2 (exactly one is configured). */
export type RedisTarget =
  | { mode: 'single'; url: string }
  | { mode: 'cluster'; nodes: HostPort[] }
  | { mode: 'sentinel'; sentinels: HostPort[]; masterName: string };

export interface RedisSettings {
  target: RedisTarget;
  /** ACL credentials (REDIS_USERNAME, REDIS_PASSWORD); for one node they may also sit in the URL. */
  username?: string;
  password?: string;
  /** TLS to every data node (`rediss://`); for Sentinel, to the sentinels as well. */
  tls?: boolean;
}

/** Connection options per role, shared by all three modes. */
function roleOptions(role: RedisRole, name: string) {
  const common = { connectionName: `${name}-${role}`, lazyConnect: false };
  if (role === 'job') {
    return {
      ...common,
      enableOfflineQueue: true,
      maxRetriesPerRequest: 12,
      connectTimeout: 5_000,
      retryStrategy: (times: number) => Math.min(times * 200, 2_000),
    };
  }
  return role === 'worker'
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
}

/**
 * After a fail-over the old master turns replica and answers writes with READONLY; reconnecting
 * (and resending the command) reaches the new master, which Sentinel or the cluster map now names.
 */
const reconnectOnReadonly = (error: Error) => (error.message.startsWith('READONLY') ? 2 : false);

export function createRedis(url: string, role: RedisRole, name?: string): SingleRedis;
export function createRedis(settings: RedisSettings, role: RedisRole, name?: string): Redis;
export function createRedis(target: string | RedisSettings, role: RedisRole, name = 'regdesk'): Redis {
  const settings: RedisSettings =
    typeof target === 'string' ? { target: { mode: 'single', url: target } } : target;
  // Not annotated as RedisOptions: ioredis 6's constructor intersects it with a narrower
  // `replyMapping` type that an annotated object fails under exactOptionalPropertyTypes.
  const credentials = {
    ...(settings.username === undefined ? {} : { username: settings.username }),
    ...(settings.password === undefined ? {} : { password: settings.password }),
  };
  const tls = settings.tls === true ? { tls: {} } : {};
  const options = { ...roleOptions(role, name), ...credentials, reconnectOnError: reconnectOnReadonly };
  const { target: where } = settings;
  switch (where.mode) {
    case 'single':
      // `rediss://` in the URL turns TLS on by itself; explicit credentials win over the URL's.
      return new SingleRedis(where.url, options);
    case 'sentinel':
      return new SingleRedis({
        ...options,
        ...tls,
        sentinels: where.sentinels,
        name: where.masterName,
        enableTLSForSentinelMode: settings.tls === true,
        ...(settings.tls === true ? { sentinelTLS: {} } : {}),
        // Sentinel announces `+switch-master` at once; without this ioredis notices only on errors.
        failoverDetector: true,
        sentinelRetryStrategy: (times: number) => Math.min(times * 200, 2_000),
      });
    case 'cluster': {
      const { enableOfflineQueue, ...nodeOptions } = options as typeof options & {
        enableOfflineQueue?: boolean;
      };
      return new Cluster(where.nodes, {
        redisOptions: { ...nodeOptions, ...tls },
        // All reads and writes go to masters: a replica may lag, and quota windows and approval
        // transitions must see every write before them.
        scaleReads: 'master',
        enableReadyCheck: true,
        ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
        clusterRetryStrategy: (times: number) => Math.min(times * 200, 2_000),
        // TLS certificates name the host the operator gave, not the IPs the cluster announces.
        ...(settings.tls === true
          ? {
              dnsLookup: (address: string, callback: (err: null, address: string) => void) =>
                callback(null, address),
            }
          : {}),
      });
    }
  }
}

/** The nodes a server check or a keyspace SCAN must visit: every master of a cluster, else the one node. */
export function mastersOf(redis: Redis): SingleRedis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/**
 * Every key matching `pattern`, a page at a time. On Redis Cluster a SCAN sees one node only, so each
 * master is scanned; Regdesk's patterns carry a hash tag, so the keys of one page share a slot and may
 * be deleted together.
 */
export async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string[]> {
  for (const node of mastersOf(redis)) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (found.length > 0) yield found;
    } while (cursor !== '0');
  }
}

export class RedisUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super('regdesk_redis_unavailable', () => text.slack.redisUnavailable, { cause });
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
 * or with an evicting `maxmemory-policy` (the vault and BullMQ's keys must never be evicted). Every master
 * is asked: on Redis Cluster each holds a share of the keys, and one evicting node loses that share.
 */
export async function checkRedisServer(redis: Redis): Promise<{ version: string; policy: string }> {
  const masters = mastersOf(redis);
  if (masters.length === 0) throw new Error('Redis Cluster reports no master node.');
  const found = await Promise.all(masters.map((node) => checkNode(node)));
  return found[0] as { version: string; policy: string };
}

/** Where a node is, for messages: `host:port` or the Sentinel master's name. */
export function nodeName(node: SingleRedis): string {
  return node.options.sentinels === undefined || node.options.sentinels === null
    ? `${node.options.host}:${node.options.port}`
    : `Sentinel master "${node.options.name}"`;
}

async function checkNode(node: SingleRedis): Promise<{ version: string; policy: string }> {
  const info = await node.info();
  const where = nodeName(node);
  const version = /redis_version:([\d.]+)/.exec(info)?.[1] ?? '0.0.0';
  const policy = /maxmemory_policy:(\S+)/.exec(info)?.[1] ?? 'noeviction';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1])) {
    throw new Error(`Redis ${version} at ${where} is too old: Regdesk needs Redis 6.2 or newer.`);
  }
  if (policy !== 'noeviction') {
    throw new Error(
      `Redis maxmemory-policy is "${policy}" at ${where}: it may evict stored keys and queue state. ` +
        'Set `maxmemory-policy noeviction` on every Redis master.',
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

  /**
   * BullMQ prefix with a hash tag (BullMQ's "Redis Cluster" guide): every key of every queue lands in
   * one slot, so BullMQ's multi-key scripts work on Redis Cluster. Regdesk's queue traffic is small;
   * the per-workspace and per-account data, where the volume is, spreads over the masters.
   */
  get queuePrefix(): string {
    return `${this.prefix}:{q}`;
  }
}
