import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitingMessage } from '../../src/features/assistant/blocks.js';
import { AssistantKeys } from '../../src/features/assistant/keys.js';
import { Placeholders } from '../../src/features/assistant/placeholder.js';
import { Limiter } from '../../src/shared/limiter.js';
import { createLogger } from '../../src/shared/logger.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { ChannelPoster } from '../../src/slack/poster.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';

/**
 * A question is queued before its placeholder is posted (issue #17), so the placeholder, progress and
 * the delivery of the outcome meet in any order, in any process. Two `Placeholders` on one Redis stand
 * for the asking process and the worker; Slack is the strict stand-in.
 */
describe('assistant placeholders: queued first, tidied exactly once', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const limiter = new Limiter(redis);
  const logger = createLogger({ level: 'silent' });
  let slack: FakeSlack;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
  });
  afterAll(async () => {
    await slack.stop();
    redis.disconnect();
  });

  const setup = () => {
    const space = new KeySpace(`tph${randomBytes(4).toString('hex')}`);
    const keys = new AssistantKeys(space);
    const client = new WebClient(`xoxb-ph-${randomBytes(4).toString('hex')}`, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    const channel = `C${randomBytes(4).toString('hex').toUpperCase()}`;
    const poster = new ChannelPoster(limiter, space, redis, logger);
    const asking = new Placeholders(redis, keys);
    const worker = new Placeholders(redis, keys);
    const place = (jobId: string) => ({ account: 'acct1', jobId, channel, user: 'UASKER' });
    const open = (jobId: string, placeholders = asking) =>
      placeholders.open(
        { ...place(jobId), threadTs: '1700000000.000100' },
        async () => waitingMessage(0),
        client,
        poster,
      );
    const postPlaceholder = async (ahead = 0) =>
      (await client.chat.postMessage({ channel, thread_ts: '1700000000.000100', ...waitingMessage(ahead) }))
        .ts ?? '';
    const calls = (method: string) =>
      slack.calls.filter((call) => call.method === method && call.args.channel === channel);
    return { client, channel, poster, asking, worker, place, open, postPlaceholder, calls };
  };

  it('posted first: every progress edits it, and it goes once the answer is in the thread', async () => {
    const { client, poster, asking, worker, place, postPlaceholder, calls } = setup();
    const ts = await postPlaceholder(2);
    await asking.posted(place('q1'), ts, client, poster);
    expect(await worker.progress('acct1', 'q1', waitingMessage(1))).toBe(ts);
    expect(await worker.close('acct1', 'q1', 'thread')).toBe(ts);
    // Delivered: nothing more to edit.
    expect(await worker.progress('acct1', 'q1', waitingMessage(0))).toBeUndefined();
    expect(calls('chat.update')).toEqual([]);
  });

  it('progress before the placeholder exists is kept for it: once posted it shows the latest state only', async () => {
    const { client, poster, asking, worker, place, postPlaceholder, calls } = setup();
    expect(await worker.progress('acct1', 'q2', waitingMessage(3))).toBeUndefined();
    expect(await worker.progress('acct1', 'q2', waitingMessage(1))).toBeUndefined();
    const ts = await postPlaceholder(4);
    await asking.posted(place('q2'), ts, client, poster);
    await expect.poll(() => calls('chat.update').length, { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const edits = calls('chat.update');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.args.ts).toBe(ts);
    expect(messageText(edits[0] ?? { method: '', args: {}, at: 0 })).toContain('1 question ahead');
  });

  it('opened by several runs of the question at once, and again later: posted once', async () => {
    const { worker, open, calls } = setup();
    await Promise.all([open('q5'), open('q5', worker), open('q5'), open('q5', worker)]);
    await open('q5', worker);
    expect(calls('chat.postMessage')).toHaveLength(1);
  });

  it('opened once its answer is in the thread: not posted at all', async () => {
    const { worker, open, calls } = setup();
    await worker.close('acct1', 'q6', 'thread');
    await open('q6');
    expect(calls('chat.postMessage')).toEqual([]);
  });

  it('posted after the answer went to the thread: deleted at once', async () => {
    const { client, poster, asking, worker, place, postPlaceholder, calls } = setup();
    expect(await worker.close('acct1', 'q3', 'thread')).toBeUndefined();
    const ts = await postPlaceholder();
    await asking.posted(place('q3'), ts, client, poster);
    expect(calls('chat.delete').map((call) => call.args.ts)).toEqual([ts]);
  });

  it('posted after a private answer: it says the asker was answered privately', async () => {
    const { worker, open, calls } = setup();
    await worker.close('acct1', 'q4', 'asker');
    // Answered privately, the thread still needs the placeholder, to learn where the answer went.
    await open('q4');
    const ts = (calls('chat.postMessage')[0]?.result as { ts?: string } | undefined)?.ts;
    expect(ts).toBeDefined();
    const edits = calls('chat.update');
    expect(edits.map((call) => call.args.ts)).toEqual([ts]);
    expect(messageText(edits[0] ?? { method: '', args: {}, at: 0 })).toContain(
      'Answered privately to <@UASKER>',
    );
    expect(calls('chat.delete')).toEqual([]);
  });

  it('posting and delivery racing from two processes: each placeholder is deleted exactly once', async () => {
    const { client, poster, asking, worker, place, postPlaceholder, calls } = setup();
    const rounds = 40;
    const posted: string[] = [];
    await Promise.all(
      Array.from({ length: rounds }, async (_, i) => {
        const jobId = `race-${i}`;
        const ts = await postPlaceholder();
        posted.push(ts);
        const deliver = async () => {
          const found = await worker.close('acct1', jobId, 'thread');
          if (found !== undefined) await client.chat.delete({ channel: place(jobId).channel, ts: found });
        };
        const record = () => asking.posted(place(jobId), ts, client, poster);
        await Promise.all(i % 2 === 0 ? [deliver(), record()] : [record(), deliver()]);
      }),
    );
    const deleted = calls('chat.delete').map((call) => String(call.args.ts));
    expect(deleted.sort()).toEqual(posted.sort());
  });

  it('a progress post whose moment has passed is not sent (ChannelPoster skipIf)', async () => {
    const { client, channel, poster, calls } = setup();
    const ts = await poster.post(
      client,
      { channel, ...waitingMessage(0) },
      { urgency: 'progress', skipIf: async () => true },
    );
    expect(ts).toBe('');
    expect(calls('chat.postMessage')).toEqual([]);
  });
});
