import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isListening } from '../../src/runtime/local-redis.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

describe('with Redis down', () => {
  let h: Harness;
  const port = 46_000 + Math.floor(Math.random() * 3_000);
  const redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no']);

  beforeAll(async () => {
    // A busy machine starts redis-server slowly: wait for it to listen, up to 30 s.
    const deadline = Date.now() + 30_000;
    while (!(await isListening('127.0.0.1', port)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    h = await startHarness({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
  }, 60_000);
  afterAll(async () => {
    redis.kill('SIGKILL');
    await h.stop();
  });

  it('a command answers "temporarily unavailable" within 3 s, and /healthz says 503', async () => {
    redis.kill('SIGKILL');
    await expect.poll(() => isListening('127.0.0.1', port), { timeout: 5_000 }).toBe(false);
    const res = await h.driver.command('/domain', 'audit');
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(3_000);
    expect(JSON.stringify(res.json())).toContain('temporarily unavailable');
    expect((await fetch(`${h.url}/healthz`)).status).toBe(503);
  });
});
