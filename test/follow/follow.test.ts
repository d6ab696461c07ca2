import { randomBytes } from 'node:crypto';
import { type Queue, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_QUEUE, type FollowJob, follow } from '../../src/features/follow/jobs.js';
import { createLogger } from '../../src/shared/logger.js';
import { createQueue, createWorker } from '../../src/shared/queues.js';
import { createRedis, KeySpace, waitForReady } from '../../src/shared/redis.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { messageText } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const WS = { teamId: 'T0001' };
const DNSSEC = { kind: 'dnssec', deadlineMs: 60_000 };

describe('follow(): one follower per resource, and a failed one makes way (BullMQ, real Redis)', () => {
  let redis: Redis;
  let queue: Queue<FollowJob>;
  const keys = new KeySpace(`t${randomBytes(5).toString('hex')}`);
  const logger = createLogger({ level: 'silent' });

  beforeAll(async () => {
    redis = createRedis(testRedisUrl(), 'worker', 'follow-test');
    await waitForReady(redis);
    queue = createQueue<FollowJob>(FOLLOW_QUEUE, redis, keys, logger);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });

  it('a follower whose job failed does not block following the same resource again', async () => {
    const id = await follow(queue, DNSSEC, WS, 'example.com', { channel: 'C1', threadTs: '1.1' }, Date.now());
    await (await queue.getJob(id))?.promote();
    const worker = createWorker(
      FOLLOW_QUEUE,
      async () => {
        throw new UnrecoverableError('the check blew up');
      },
      redis.duplicate(),
      keys,
      logger,
    );
    await expect.poll(() => queue.getJobState(id), { timeout: 5_000 }).toBe('failed');
    await worker.close();

    await follow(
      queue,
      DNSSEC,
      WS,
      'example.com',
      { channel: 'C2', threadTs: '2.2', startedBy: 'U7' },
      Date.now(),
    );
    expect(await queue.getJobState(id)).toBe('delayed');
    expect((await queue.getJob(id))?.data).toMatchObject({
      channel: 'C2',
      threadTs: '2.2',
      startedBy: 'U7',
      attempt: 0,
    });

    // While it runs, asking again changes nothing: still one job, still the first origin.
    await follow(queue, DNSSEC, WS, 'example.com', { channel: 'C3', threadTs: '3.3' }, Date.now());
    expect((await queue.getJob(id))?.data.channel).toBe('C2');
    expect(await queue.getJobCountByTypes('delayed', 'waiting', 'failed')).toBe(1);
  });
});

describe('a finished follower reports to whoever started it (app, strict fake Slack)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sandbox: { delays: { dnssecSettleMs: 1_500 } },
      prepareSlack: (slack) => slack.conversation('C0GONE', { kind: 'public', botMember: false }),
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  const startPending = (domain: string) =>
    h.running.services
      .registrarFor(WS)
      .dnssec.put(domain, { mode: 'regfish', state: 'enabled', verify_after_apply: true });

  it('mentions the starter, dates the settlement, and never overwrites a message that is not its card', async () => {
    // An approval request, say: another feature's message, which the outcome must not replace.
    const client = await h.running.services.slackFor(WS);
    const posted = await client.chat.postMessage({
      channel: 'C0001',
      text: 'Approval request apr_1 (approved)',
    });
    const ts = posted.ts ?? '';
    await startPending('example.com');
    await h.running.services.follow(WS, 'dnssec', 'example.com', {
      channel: 'C0001',
      threadTs: ts,
      startedBy: 'U0007',
    });
    await h.slack.waitFor(
      (calls) => calls.some((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts),
      15_000,
    );
    const outcome = messageText(
      h.slack.callsTo('chat.postMessage').find((c) => c.args.thread_ts === ts) ?? {
        method: '',
        args: {},
        at: 0,
      },
    );
    expect(outcome).toContain('<@U0007>');
    expect(outcome).toContain('is now *active*');
    // Not put into the origin, so the settled card comes with the outcome, dated absolutely (R32).
    expect(outcome).toContain('DNSSEC for example.com: active');
    expect(outcome).toMatch(/Settled <!date\^\d+\^/);
    expect(h.slack.callsTo('chat.update').filter((c) => c.args.ts === ts)).toHaveLength(0);
    expect(h.slack.messages.get(`C0001:${ts}`)?.text).toBe('Approval request apr_1 (approved)');
  }, 20_000);

  it('tells the starter by DM when the thread’s channel refuses the outcome', async () => {
    await startPending('xn--mller-kva.de');
    await h.running.services.follow(WS, 'dnssec', 'xn--mller-kva.de', {
      channel: 'C0GONE',
      threadTs: '1700000000.000100',
      startedBy: 'U0008',
    });
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.args.channel === 'DU0008' &&
            messageText(c).includes('<@U0008>') &&
            messageText(c).includes('is now *active*'),
        ),
      15_000,
    );
    expect(h.slack.callsTo('chat.postMessage').some((c) => c.args.channel === 'C0GONE')).toBe(true);
  }, 20_000);
});
