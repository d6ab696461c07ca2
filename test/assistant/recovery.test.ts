import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ASSISTANT_QUEUE } from '../../src/features/assistant/service.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { createRedis } from '../../src/shared/redis.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const LIMIT = { max: 50, windowMs: 60_000 };

describe('no failed question holds up its registrar account', () => {
  let h: Harness;
  const workers: Running[] = [];
  const connection = createRedis(testRedisUrl(), 'worker');

  /** Replies in `channel` that carry a question's outcome (answer or "No answer"). */
  const outcomesIn = (channel: string): SlackCall[] =>
    h.slack
      .succeeded('chat.postMessage')
      .filter(
        (c) =>
          c.args.channel === channel &&
          c.args.thread_ts !== undefined &&
          /here is the answer|No answer/.test(messageText(c)),
      );
  /** The first outcome in `channel`: its text (mentioning the asker), then its blocks. */
  const replyIn = (channel: string): string => {
    const call = outcomesIn(channel)[0];
    return call === undefined ? '' : `${String(call.args.text)} ${JSON.stringify(call.args.blocks)}`;
  };
  const placeholderIn = (channel: string): string | undefined => {
    const call = h.slack
      .succeeded('chat.postMessage')
      .find((c) => c.args.channel === channel && c.args.thread_ts !== undefined);
    return (call?.result as { ts?: string } | undefined)?.ts;
  };
  const ask = (channel: string, user: string, question: string) =>
    h.driver.command('/ask', question, { channel, user });
  const accountQueue = async () => {
    const { assistant } = h.running.services;
    return assistant.redisKeys.queue(await assistant.accountOf({ teamId: 'T0001' }));
  };

  beforeAll(async () => {
    // The web half alone: each test decides which workers run.
    h = await startHarness({
      role: 'web',
      env: {
        VAULT_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
        REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }),
      },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    // No channel here is shared with another organisation: answers go in threads (the default policy).
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await h.stop();
    connection.disconnect();
  });

  it('a question that failed where Regdesk could not settle it (a worker crashing on it) is cleared by the next question, its place given back and its asker told', async () => {
    const crashing = new Worker(
      ASSISTANT_QUEUE,
      async () => {
        throw new Error('worker crashed');
      },
      { connection, prefix: h.running.services.keys.queuePrefix },
    );
    crashing.on('error', () => undefined);
    await ask('CFAIL1', 'U0001', 'How do I enable DNSSEC?');
    await expect.poll(() => h.running.services.assistantQueue.getFailedCount(), { timeout: 10_000 }).toBe(1);
    await crashing.close();
    // Two worker processes against the same Redis from here on (the guarantees are cross-process).
    for (let i = 0; i < 2; i++) {
      const logger = memoryLogger().logger;
      workers.push(
        await runRegdesk({ role: 'worker', config: loadConfig(h.env), logger, env: h.env, say: () => {} }),
      );
    }

    await ask('CFAIL2', 'U0002', 'How does a renewal work?');
    // It died before its thread was posted: its asker is told privately, where they asked.
    const lost = () =>
      h.slack
        .succeeded('chat.postEphemeral')
        .find((c) => c.args.channel === 'CFAIL1' && c.args.user === 'U0001');
    await h.slack.waitFor(() => outcomesIn('CFAIL2').length > 0 && lost() !== undefined, 20_000);
    expect(replyIn('CFAIL2')).toMatch(/^<@U0002> .*Renewals/);
    expect(messageText(lost() ?? { method: '', args: {}, at: 0 })).toMatch(
      /:x: Your question “How do I enable DNSSEC\?”: Regdesk lost this question/,
    );
    const { assistant, redis } = h.running.services;
    expect(await redis.zcard(await accountQueue())).toBe(0);
    // Its place is given back.
    const account = await assistant.accountOf({ teamId: 'T0001' });
    expect(await redis.zcard(assistant.redisKeys.asker(account, 'U0001'))).toBe(0);
  });

  it('a placeholder deleted while the assistant is busy: its edit fails, yet the question and the next are answered', async () => {
    h.sandbox.faults.inject('assistant.search', { status: 503, delayMs: 1_000, times: 1 });
    await ask('CEDIT1', 'U0003', 'How do I transfer a domain?');
    await h.slack.waitFor(() => placeholderIn('CEDIT1') !== undefined);
    h.slack.deleteMessage('CEDIT1', placeholderIn('CEDIT1') ?? '');
    await ask('CEDIT2', 'U0004', 'How do vanity nameservers work?');

    await h.slack.waitFor(() => outcomesIn('CEDIT1').length > 0 && outcomesIn('CEDIT2').length > 0, 30_000);
    const refused = h.slack
      .callsTo('chat.update')
      .filter(
        (c) => c.args.channel === 'CEDIT1' && (c.result as { error?: string }).error === 'message_not_found',
      );
    expect(refused.length).toBeGreaterThan(0);
    expect(replyIn('CEDIT1')).toMatch(/^<@U0003> .*Transferring/);
    expect(replyIn('CEDIT2')).toMatch(/^<@U0004> .*Nameservers/);
  }, 40_000);

  it('a queue entry whose job was removed is cleared by the next question', async () => {
    const { redis } = h.running.services;
    const queue = await accountQueue();
    await redis.zadd(queue, 1, 'q-removed-long-ago');
    await ask('CGONE', 'U0005', 'How long is a record TTL?');
    await h.slack.waitFor(() => outcomesIn('CGONE').length > 0, 15_000);
    expect(replyIn('CGONE')).toMatch(/^<@U0005> .*DNS records/);
    expect(await redis.zscore(queue, 'q-removed-long-ago')).toBeNull();
  });

  it('a channel archived before the answer: the asker gets it privately, and the account moves on', async () => {
    h.sandbox.faults.inject('assistant.search', { delayMs: 1_500, times: 1 });
    await ask('CARCH', 'U0006', 'When does auto-renew happen?');
    await h.slack.waitFor(() => placeholderIn('CARCH') !== undefined);
    h.slack.archive('CARCH');

    const dm = () => h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'DU0006');
    await h.slack.waitFor(() => dm() !== undefined, 15_000);
    const text = messageText(dm() ?? { method: '', args: {}, at: 0 });
    expect(text).toContain('could not be answered in its thread');
    expect(text).toContain('Renewals');
    assertWithinBlockKitLimits(dm()?.args, 'message');
    // The ephemeral in the archived channel was tried first, as Slack refuses it.
    expect(h.slack.callsTo('chat.postEphemeral').some((c) => c.args.channel === 'CARCH')).toBe(true);

    await ask('CAFTER', 'U0007', 'How do I create an API key?');
    await h.slack.waitFor(() => outcomesIn('CAFTER').length > 0, 15_000);
    expect(replyIn('CAFTER')).toMatch(/^<@U0007> .*API keys/);
  });
});
