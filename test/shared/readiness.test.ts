import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { Readiness } from '../../src/shared/readiness.js';
import { createRedis, KeySpace, waitForReady } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

/** docs/requirements.md C1, R39: what makes a process not ready, each with its reason. */
describe('Readiness', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const keys = new KeySpace(`tready${randomBytes(4).toString('hex')}`);
  afterAll(() => redis.disconnect());

  it('is ready with Redis answering, no incident and its queues worked', async () => {
    await waitForReady(redis);
    const readiness = new Readiness({
      redis,
      incident: () => undefined,
      workers: () => [{ name: 'q', running: true }],
    });
    expect(await readiness.report()).toEqual({ ok: true, redis: { ok: true } });
  });

  it('a known data incident: not ready, with the reason, when and how to resolve it', async () => {
    const readiness = new Readiness({
      redis,
      incident: () => ({ kind: 'rolled_back', detectedAt: 0, detail: 'older copy', epoch: 2 }),
    });
    expect(await readiness.report()).toMatchObject({
      ok: false,
      reason: 'data_rolled_back',
      detectedAt: '1970-01-01T00:00:00.000Z',
      detail: 'older copy',
    });
  });

  it('a worker whose queue is paused or closed is not ready; shutting down wins over everything', async () => {
    const worker = new Worker('ready-probe', async () => {}, {
      connection: redis.duplicate(),
      prefix: keys.queuePrefix,
    });
    const readiness = new Readiness({
      redis,
      incident: () => undefined,
      workers: () => [{ name: 'ready-probe', running: worker.isRunning() && !worker.isPaused() }],
    });
    await expect.poll(async () => (await readiness.report()).ok).toBe(true);
    await worker.pause(true);
    expect(await readiness.report()).toEqual({
      ok: false,
      reason: 'workers_not_running',
      queues: ['ready-probe'],
    });
    worker.resume();
    expect((await readiness.report()).ok).toBe(true);
    await worker.close();
    expect((await readiness.report()).reason).toBe('workers_not_running');
    readiness.stopping();
    expect(await readiness.report()).toEqual({ ok: false, reason: 'shutting_down' });
  });
});
