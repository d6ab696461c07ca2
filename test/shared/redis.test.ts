import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isListening } from '../../src/runtime/local-redis.js';
import { checkRedisServer, createRedis, KeySpace, pingRedis, waitForReady } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

describe('Redis connections and checks', () => {
  const opened: { disconnect(): void }[] = [];
  afterAll(() => {
    for (const redis of opened) redis.disconnect();
  });

  it('accepts the test Redis (6.2+, noeviction)', async () => {
    const redis = createRedis(testRedisUrl(), 'request');
    opened.push(redis);
    await waitForReady(redis);
    const info = await checkRedisServer(redis);
    expect(info.policy).toBe('noeviction');
    expect((await pingRedis(redis)).ok).toBe(true);
  });

  it('refuses a Redis with an evicting maxmemory-policy', async () => {
    // A port the kernel just handed out (a random one may be taken), and time for a busy machine.
    const port = await freePort();
    const child = spawn('redis-server', [
      '--port',
      String(port),
      '--save',
      '',
      '--maxmemory-policy',
      'allkeys-lru',
    ]);
    try {
      await expect.poll(() => isListening('127.0.0.1', port), { timeout: 20_000 }).toBe(true);
      const redis = createRedis(`redis://127.0.0.1:${port}`, 'request');
      opened.push(redis);
      await waitForReady(redis);
      await expect(checkRedisServer(redis)).rejects.toThrow(/allkeys-lru/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('request connections fail fast when Redis is down', async () => {
    const redis = createRedis('redis://127.0.0.1:1', 'request');
    opened.push(redis);
    redis.on('error', () => {});
    const started = Date.now();
    await expect(redis.get('x')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await pingRedis(redis, 500)).ok).toBe(false);
  });

  it('worker connections wait out outages (maxRetriesPerRequest: null)', () => {
    const redis = createRedis(testRedisUrl(), 'worker');
    opened.push(redis);
    expect(redis.options.maxRetriesPerRequest).toBeNull();
    expect(createRedis(testRedisUrl(), 'request').options.enableOfflineQueue).toBe(false);
  });

  it('puts every key under the prefix with a hash tag', () => {
    const keys = new KeySpace('regdesk');
    expect(keys.key('ws:T1', 'vault', 'registrar')).toBe('regdesk:{ws:T1}:vault:registrar');
    expect(keys.queuePrefix).toBe('regdesk:{q}');
  });
});
