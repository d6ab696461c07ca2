import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runRegdesk } from '../../src/main.js';
import { checkPersistence } from '../../src/runtime/redis-persistence.js';
import { createRedis, waitForReady } from '../../src/shared/redis.js';
import { memoryLogger } from '../helpers/app-harness.js';
import { type SingleServer, startRedisServer } from '../helpers/redis-topology.js';

/** docs/requirements.md R38: every Redis is asked whether it keeps anything, before Regdesk trusts it. */
describe('start-up asks Redis whether it persists (real redis-server processes)', () => {
  const servers: SingleServer[] = [];
  let ephemeral: SingleServer;

  beforeAll(async () => {
    ephemeral = await startRedisServer();
    servers.push(ephemeral);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  const env = (server: SingleServer, extra: Record<string, string> = {}) => ({
    PORT: '0',
    REDIS_URL: server.url,
    REDIS_KEY_PREFIX: 'tpersist',
    REGFISH_SANDBOX: '1',
    SLACK_SIGNING_SECRET: 'persist-secret',
    SLACK_BOT_TOKEN: 'xoxb-persist',
    SLACK_API_URL: 'http://127.0.0.1:9/api/',
    ...extra,
  });

  it('refuses a Redis with neither an append-only file nor an RDB save rule, naming persistence and the override', async () => {
    const given = env(ephemeral);
    const { logger } = memoryLogger('warn');
    const started = runRegdesk({ role: 'web', config: loadConfig(given), logger, env: given, say: () => {} });
    await expect(started).rejects.toThrow(/persists nothing/);
    await expect(started).rejects.toThrow(/appendonly yes/);
    await expect(started).rejects.toThrow(/REDIS_ALLOW_EPHEMERAL=1/);
  });

  it('starts with REDIS_ALLOW_EPHEMERAL=1, warning once', async () => {
    const given = env(ephemeral, { REDIS_ALLOW_EPHEMERAL: '1' });
    const { logger, logs } = memoryLogger('warn');
    const running = await runRegdesk({
      role: 'web',
      config: loadConfig(given),
      logger,
      env: given,
      say: () => {},
    });
    try {
      const warnings = logs.filter((line) => line.includes('persists nothing'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"level":"warn"');
      const ready = await fetch(`${running.http?.url}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      await running.stop();
    }
  });

  it('warns that an RDB-only Redis loses the changes since its last snapshot, and how many', async () => {
    const rdb = await startRedisServer(['save 900 1 300 10']);
    servers.push(rdb);
    const redis = createRedis(rdb.url, 'request');
    await waitForReady(redis);
    try {
      const warnings = await checkPersistence(redis, false);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('RDB snapshots only');
      expect(warnings[0]).toContain('15 min of changes');
      expect(warnings[0]).toContain('appendonly yes');
    } finally {
      redis.disconnect();
    }
  });

  it('accepts an append-only Redis without a word', async () => {
    const aof = await startRedisServer(['appendonly yes', 'appendfsync everysec']);
    servers.push(aof);
    const redis = createRedis(aof.url, 'request');
    await waitForReady(redis);
    try {
      expect(await checkPersistence(redis, false)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a worker process too, naming the server that persists nothing', async () => {
    const given = env(ephemeral);
    const { logger } = memoryLogger('warn');
    await expect(
      runRegdesk({ role: 'worker', config: loadConfig(given), logger, env: given, say: () => {} }),
    ).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${ephemeral.port} persists nothing`));
  });
});
