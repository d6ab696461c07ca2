import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { Queue } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { AuditDelivery } from '../../src/features/audit/delivery.js';
import { AuditOutbox } from '../../src/features/audit/outbox.js';
import { AuditLog } from '../../src/features/audit/service.js';
import { syslogSink } from '../../src/features/audit/syslog.js';
import { Limiter } from '../../src/shared/limiter.js';
import { createLogger } from '../../src/shared/logger.js';
import { createMetrics } from '../../src/shared/metrics.js';
import {
  checkRedisServer,
  createRedis,
  KeySpace,
  mastersOf,
  type Redis,
  scanKeys,
  waitForReady,
} from '../../src/shared/redis.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { type ClusterTopology, startRedisCluster } from '../helpers/redis-topology.js';

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
}

describe('Redis configuration: one of three modes (docs/requirements.md C2)', () => {
  it('refuses two modes at once in one message naming both variables', () => {
    const text = problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' });
    expect(text).toContain('REDIS_URL, REDIS_CLUSTER_NODES: set only one');
    expect(
      problemsOf({
        REDIS_CLUSTER_NODES: '10.0.0.1:7000',
        REDIS_SENTINELS: '10.0.0.2:26379',
        REDIS_SENTINEL_MASTER: 'main',
      }),
    ).toContain('REDIS_CLUSTER_NODES, REDIS_SENTINELS: set only one');
  });

  it('needs the Sentinel master name with the sentinels, and the sentinels with the name', () => {
    expect(problemsOf({ REDIS_SENTINELS: '10.0.0.2:26379' })).toContain('REDIS_SENTINEL_MASTER');
    expect(problemsOf({ REDIS_SENTINEL_MASTER: 'main' })).toContain('REDIS_SENTINELS');
  });

  it('names a malformed node list without echoing a password', () => {
    expect(problemsOf({ REDIS_CLUSTER_NODES: '10.0.0.1,10.0.0.2:7001' })).toContain(
      'REDIS_CLUSTER_NODES: must be host:port entries',
    );
    expect(problemsOf({ REDIS_CLUSTER_NODES: 'rediss://a:7000,b:7001' })).toContain('mixes rediss://');
    const text = problemsOf({
      REDIS_SENTINELS: 'a:99999',
      REDIS_SENTINEL_MASTER: 'm',
      REDIS_PASSWORD: 's3cr3t-pw',
    });
    expect(text).toContain('REDIS_SENTINELS');
    expect(text).not.toContain('s3cr3t-pw');
  });

  it('builds each mode with credentials and TLS', () => {
    const cluster = loadConfig({
      REDIS_CLUSTER_NODES: 'rediss://r1.internal:7000, rediss://r2.internal:7001',
      REDIS_USERNAME: 'regdesk',
      REDIS_PASSWORD: 'pw',
    }).redis.connection;
    expect(cluster).toEqual({
      target: {
        mode: 'cluster',
        nodes: [
          { host: 'r1.internal', port: 7000 },
          { host: 'r2.internal', port: 7001 },
        ],
      },
      username: 'regdesk',
      password: 'pw',
      tls: true,
    });
    const sentinel = loadConfig({ REDIS_SENTINELS: '[::1]:26379', REDIS_SENTINEL_MASTER: 'main' }).redis;
    expect(sentinel.connection?.target).toEqual({
      mode: 'sentinel',
      sentinels: [{ host: '::1', port: 26379 }],
      masterName: 'main',
    });
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380' }).redis.connection?.target).toEqual({
      mode: 'single',
      url: 'rediss://cache:6380',
    });
    expect(loadConfig({}).redis.connection).toBeUndefined();
    expect(loadConfig({ REDIS_PASSWORD: 'pw' }).redis.connection).toEqual({
      target: { mode: 'single', url: 'redis://127.0.0.1:6379' },
      password: 'pw',
    });
    expect(loadConfig({}).workerPort).toBe(3001);
    expect(problemsOf({ WORKER_PORT: 'x' })).toContain('WORKER_PORT');
  });
});

describe('Regdesk on a 3-master Redis Cluster (loopback)', () => {
  let cluster: ClusterTopology;
  let redis: Redis;
  const keys = new KeySpace(`t${randomBytes(4).toString('hex')}`);
  const slotOf = async (key: string) => Number(await (redis as Cluster).cluster('KEYSLOT', key));
  const masterOf = (slot: number) => (redis as Cluster).slots[slot]?.[0];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = createRedis(
      {
        target: { mode: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.ports[0] ?? 0 }] },
        password: cluster.password,
      },
      'worker',
    );
    await waitForReady(redis, 15_000);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  it('discovers all three masters from one seed node and checks each of them', async () => {
    expect(mastersOf(redis)).toHaveLength(3);
    expect((await checkRedisServer(redis)).policy).toBe('noeviction');
  });

  it('refuses start when any one master may evict, naming that node', async () => {
    const port = cluster.ports[2] ?? 0;
    const node = cluster.node(port);
    try {
      await node.config('SET', 'maxmemory-policy', 'volatile-lru');
      await expect(checkRedisServer(redis)).rejects.toThrow(`volatile-lru" at 127.0.0.1:${port}`);
    } finally {
      await node.config('SET', 'maxmemory-policy', 'noeviction');
      node.disconnect();
    }
  });

  it('refuses a wrong password', async () => {
    const wrong = createRedis(
      {
        target: { mode: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.ports[0] ?? 0 }] },
        password: 'nope',
      },
      'request',
    );
    wrong.on('error', () => {});
    try {
      await expect(waitForReady(wrong, 3_000)).rejects.toThrow();
    } finally {
      wrong.disconnect();
    }
  });

  it('runs the multi-key quota script over windows of one tag, whichever node holds it', async () => {
    const limiter = new Limiter(redis);
    for (const account of ['a1', 'b2', 'c3', 'd4', 'e5', 'f6']) {
      const windows = [
        { key: keys.key(`acct:${account}`, 'quota', 'assistant-key'), max: 2, windowMs: 60_000 },
        { key: keys.key(`acct:${account}`, 'quota', 'assistant-account'), max: 5, windowMs: 60_000 },
      ];
      expect((await limiter.acquire(windows)).ok).toBe(true);
      expect((await limiter.acquire(windows)).ok).toBe(true);
      expect((await limiter.acquire(windows)).ok).toBe(false);
    }
  });

  it('finds a workspace’s keys by SCAN on whichever master holds its tag', async () => {
    const audit = new AuditLog(redis, keys);
    const spread = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'];
    const tag = (team: string) => `ws:${workspaceId({ teamId: team })}`;
    for (const team of spread) {
      await audit.append({ teamId: team }, { action: 'key_set', actor: 'U1' });
      await redis.set(keys.key(tag(team), 'card', 'x'), '1');
    }
    // The teams' tags are spread over more than one master, so one node's SCAN alone would miss some.
    const holders = new Set(
      await Promise.all(
        spread.map(async (team) => masterOf(await slotOf(audit.streamKeys({ teamId: team })[0] as string))),
      ),
    );
    expect(holders.size).toBeGreaterThan(1);
    for (const team of spread) {
      const found: string[] = [];
      for await (const page of scanKeys(redis, keys.key(tag(team), '*'))) found.push(...page);
      const [trail, , sequence, head] = audit.streamKeys({ teamId: team });
      expect(found.sort()).toEqual([trail, sequence, head, keys.key(tag(team), 'card', 'x')].sort());
    }
  });

  it('chains, verifies and feeds the audit outbox of workspaces on different masters (one slot each)', async () => {
    const own = new KeySpace(`t${randomBytes(4).toString('hex')}`);
    const receiver = createSocket('udp4');
    const received: string[] = [];
    receiver.on('message', (message) => received.push(message.toString('utf8')));
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    const target = { transport: 'udp', host: '127.0.0.1', port: receiver.address().port } as const;
    const audit = new AuditLog(redis, own, { syslog: target });
    const teams = ['TA1', 'TA2', 'TA3', 'TA4', 'TA5', 'TA6'];
    for (const team of teams) {
      await audit.append({ teamId: team }, { action: 'key_set', actor: 'U1' });
      await audit.append({ teamId: team }, { action: 'refuse', actor: 'U2' });
    }
    for (const team of teams) {
      expect(await audit.verify({ teamId: team })).toEqual({
        trail: { checked: 1, legacy: 0 },
        refusals: { checked: 1, legacy: 0 },
      });
    }
    const outbox = new AuditOutbox(redis, own, ['syslog']);
    expect((await outbox.workspaces()).map((listed) => listed.workspace).sort()).toEqual(
      teams.map((team) => workspaceId({ teamId: team })).sort(),
    );
    expect((await outbox.backlog()).get('syslog')).toBe(teams.length * 2);
    const delivery = new AuditDelivery({
      redis,
      keys: own,
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      sinks: [syslogSink(target)],
      pollMs: 50,
    }).start();
    try {
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(teams.length * 2);
      await expect.poll(async () => (await outbox.backlog()).get('syslog'), { timeout: 30_000 }).toBe(0);
    } finally {
      await delivery.close();
      receiver.close();
    }
  });

  it('keeps each BullMQ queue in one slot (hash-tagged prefix) and counts its jobs', async () => {
    const queue = new Queue('scale-probe', { connection: redis, prefix: keys.queuePrefix });
    try {
      await queue.add('probe', { n: 1 }, { delay: 60_000 });
      await queue.add('probe', { n: 2 });
      expect(await queue.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 1, delayed: 1 });
      const slots = new Set<number>();
      for await (const page of scanKeys(redis, `${keys.queuePrefix}:scale-probe:*`)) {
        for (const key of page) slots.add(await slotOf(key));
      }
      expect(slots.size).toBe(1);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
