import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { isListening } from '../../src/runtime/local-redis.js';
import { memoryLogger } from '../helpers/app-harness.js';

/** A Redis of this test's own, so it can be stopped under a running worker. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 15_000;
  while (!(await isListening('127.0.0.1', port, 200))) {
    if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

describe('`regdesk worker` serves /healthz and /metrics on WORKER_PORT', () => {
  // Below Linux's ephemeral range, where an outgoing connection may already hold the port.
  const port = 22_000 + Math.floor(Math.random() * 10_000);
  let redis: ChildProcess;
  let worker: Running;
  let base = '';
  const token = 'worker-metrics-token-0123456789';

  beforeAll(async () => {
    redis = await startRedis(port);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: 'tworkerhttp',
      WORKER_PORT: '0',
      // Guards PORT of start and web; a worker's port is not one of them.
      METRICS_TOKEN: token,
      SLACK_SIGNING_SECRET: 'worker-http-secret',
      SLACK_BOT_TOKEN: 'xoxb-worker-http',
      REGFISH_SANDBOX: '1',
    };
    worker = await runRegdesk({
      role: 'worker',
      config: loadConfig(env),
      logger: memoryLogger('warn').logger,
      env,
      say: () => {},
    });
    base = worker.workerHttp?.url ?? '';
  }, 30_000);
  afterAll(async () => {
    await worker?.stop();
    redis?.kill('SIGKILL');
  });

  it('has no Slack endpoint: a worker is not a web process', async () => {
    expect(worker.http).toBeUndefined();
    const res = await fetch(`${base}/slack/events`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: 'slack_not_configured' });
  });

  it('serves /metrics without a token even with METRICS_TOKEN set (WORKER_PORT never faces Slack), every queue by state', async () => {
    // Prometheus scrapes a worker as it is: no token asked, a wrong one ignored.
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(200);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const queue of ['approvals', 'assistant', 'follow']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(text).toContain(`regdesk_queue_jobs{queue="${queue}",state="${state}"} 0`);
      }
    }
    expect(text).toContain('regdesk_followers 0');
    expect(text).toContain('# TYPE regdesk_job_duration_seconds histogram');
    expect(text).toContain('# TYPE regdesk_approvals_total counter');
  });

  it('answers /livez always, /readyz and /healthz 200 while Redis answers and 503 with the reason once it is gone', async () => {
    for (const probe of ['/readyz', '/healthz']) {
      const ok = await fetch(`${base}${probe}`);
      expect(ok.status, probe).toBe(200);
      expect(await ok.json()).toEqual({ ok: true, redis: { ok: true } });
    }
    redis.kill('SIGKILL');
    await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 15_000 }).toBe(503);
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
      ok: false,
      reason: 'redis_unavailable',
    });
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
    expect(await (await fetch(`${base}/livez`)).json()).toEqual({ ok: true });
    // /metrics still answers, leaving out the queue depth it cannot read (once its last read, kept a
    // few seconds for other scrapes, has run out).
    const scrape = async () =>
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(await scrape()).toContain('regdesk_http_requests_total');
    await expect.poll(scrape, { timeout: 15_000 }).not.toContain('regdesk_queue_jobs{');
  });
});
