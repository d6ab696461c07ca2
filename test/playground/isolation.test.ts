import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { APPROVALS_QUEUE, type ApprovalJob } from '../../src/features/approvals/jobs.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { playgroundKeyPrefix } from '../../src/playground/isolation.js';
import { createRedis, KeySpace, scanKeys } from '../../src/shared/redis.js';
import { memoryLogger } from '../helpers/app-harness.js';
import { testRedisUrl } from '../helpers/provided-context.js';

// docs/requirements.md R42: a playground started beside the bot, on the bot's Redis and key prefix,
// keeps data and queues of its own (emptied at start) and never takes the bot's jobs.
const WAIT = { timeout: 20_000, interval: 50 };
const prefix = `t${randomBytes(5).toString('hex')}`;
const bot = new KeySpace(prefix);
const playground = new KeySpace(playgroundKeyPrefix(prefix));
const redis = createRedis(testRedisUrl(), 'worker');
const botQueue = new Queue<ApprovalJob>(APPROVALS_QUEUE, { connection: redis, prefix: bot.queuePrefix });
const playgroundQueue = new Queue<ApprovalJob>(APPROVALS_QUEUE, {
  connection: redis,
  prefix: playground.queuePrefix,
});
const said: string[] = [];
let running: Running;

async function keysUnder(space: KeySpace): Promise<Map<string, string>> {
  const dump = new Map<string, string>();
  for await (const page of scanKeys(redis, `${space.prefix}:*`)) {
    for (const key of page) dump.set(key, JSON.stringify(await redis.dump(key)));
  }
  return dump;
}

let botBefore: Map<string, string>;

beforeAll(async () => {
  // The bot's data: a stored value, and an approved request's execution waiting in its queue.
  await redis.set(bot.key('ws:T0001', 'canary'), 'the bot’s data');
  await botQueue.add('execute', { teamId: 'T0001', requestId: 'apr_bot' }, { jobId: 'execute-apr_bot' });
  // An earlier playground run left a value and a job behind.
  await redis.set(playground.key('ws:T0001', 'leftover'), 'from an earlier run');
  await playgroundQueue.add(
    'execute',
    { teamId: 'T0001', requestId: 'apr_old' },
    { jobId: 'execute-apr_old' },
  );
  botBefore = await keysUnder(bot);

  const env = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: prefix,
  };
  running = await runRegdesk({
    role: 'start',
    config: loadConfig(env),
    logger: memoryLogger('warn').logger,
    env,
    say: (line) => said.push(line),
  });
});

afterAll(async () => {
  await running?.stop();
  await botQueue.close();
  await playgroundQueue.close();
  redis.disconnect();
});

describe('the playground beside the bot', () => {
  it('says it serves the playground with data of its own when Slack settings are missing', () => {
    expect(said).toContain(
      "No Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set: serving the local playground with data of its own; the bot's data is untouched.",
    );
  });

  it('empties its own key prefix at start, and keeps its state there', async () => {
    expect(await redis.exists(playground.key('ws:T0001', 'leftover'))).toBe(0);
    expect(await playgroundQueue.getJob('execute-apr_old')).toBeUndefined();
    const own = [...(await keysUnder(playground)).keys()];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((key) => key.startsWith(`${prefix}.playground:`))).toBe(true);
  });

  it('works only its own queues: the bot’s job waits, the playground’s own is taken', async () => {
    await playgroundQueue.add(
      'execute',
      { teamId: 'T0001', requestId: 'apr_own' },
      { jobId: 'execute-apr_own' },
    );
    // Its approvals worker is running: it takes (and finishes) the job of its own queue…
    await expect
      .poll(async () => (await playgroundQueue.getJob('execute-apr_own'))?.getState(), WAIT)
      .toBe('completed');
    // …while the bot's job, enqueued before the playground started, is still waiting for the bot.
    expect(await (await botQueue.getJob('execute-apr_bot'))?.getState()).toBe('waiting');
  });

  it('leaves the bot’s keys as they were, after serving a command', async () => {
    const cookie = await login();
    const base = `http://127.0.0.1:${running.http?.port}`;
    const typed = await fetch(`${base}/playground/api/composer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify({ user: 'U0ADA', channel: 'C0GENERAL', text: '/domain check example.com' }),
    });
    expect(await typed.json()).toEqual({ ok: true });
    await expect
      .poll(async () => {
        const res = await fetch(`${base}/playground/api/state`, { headers: { cookie } });
        const state = (await res.json()) as { registrar: { requests: Array<{ path: string }> } };
        return state.registrar.requests.some((request) => request.path.includes('availability'));
      }, WAIT)
      .toBe(true);
    expect(await keysUnder(bot)).toEqual(botBefore);
  });
});

async function login(): Promise<string> {
  const res = await fetch(running.playground?.url ?? '', { redirect: 'manual' });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
