import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { createRedis } from '../../src/shared/redis.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

describe('a worker killed mid-question', () => {
  let h: Harness;
  let child: ChildProcess;
  let replacement: Running | undefined;
  const redis = createRedis(testRedisUrl(), 'worker');

  beforeAll(async () => {
    // The web half alone; the only worker at first is a separate process.
    h = await startHarness({
      role: 'web',
      env: { VAULT_MASTER_KEY: Buffer.alloc(32, 5).toString('base64') },
      sandbox: { delays: { assistantAnswerMs: 2_500 } },
    });
    // No channel here is shared with another organisation: answers go in threads (the default policy).
    child = spawn(process.execPath, [CLI, 'worker'], {
      env: { PATH: process.env.PATH ?? '', ...h.env },
      stdio: 'ignore',
    });
  });
  afterAll(async () => {
    child.kill('SIGKILL');
    await replacement?.stop();
    await h.stop();
    redis.disconnect();
  });

  it('is taken up by another worker within about 15 s and answered exactly once', async () => {
    await h.driver.command('/ask', 'How do I enable DNSSEC?', { user: 'U0001' });
    // Wait until the child holds the account's in-flight slot, then kill it without warning.
    await expect
      .poll(async () => (await redis.keys(`${h.keyPrefix}:*:assistant:inflight`)).length, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(1);
    child.kill('SIGKILL');
    const killedAt = Date.now();
    replacement = await runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: memoryLogger().logger,
      env: h.env,
      say: () => {},
    });

    const finals = () =>
      h.slack
        .succeeded('chat.postMessage')
        .filter((c) => c.args.thread_ts !== undefined && String(c.args.text).startsWith('<@U0001> '));
    await h.slack.waitFor(() => finals().length >= 1, 40_000);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(finals()).toHaveLength(1);
    expect(JSON.stringify(finals()[0]?.args)).toContain('DNSSEC');
  }, 60_000);
});
