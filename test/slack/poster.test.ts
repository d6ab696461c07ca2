import { createHash, randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/shared/limiter.js';
import { createLogger } from '../../src/shared/logger.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { ChannelPoster } from '../../src/slack/poster.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const logger = createLogger({ level: 'silent' });

/**
 * Two posters on one Redis stand for two Regdesk processes. The edit budget is primed straight in
 * Redis (the same sliding window the limiter keeps) so a test can put it at the progress reserve
 * without making 40 real edits first.
 */
describe('ChannelPoster: Slack pacing across processes', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const limiter = new Limiter(redis);
  let slack: FakeSlack;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
  });
  afterAll(async () => {
    await slack.stop();
    redis.disconnect();
  });

  const setup = () => {
    const keys = new KeySpace(`tp${randomBytes(4).toString('hex')}`);
    const token = `xoxb-poster-${randomBytes(4).toString('hex')}`;
    const client = new WebClient(token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const channel = `C${randomBytes(4).toString('hex').toUpperCase()}`;
    const budgetKey = keys.key(
      `slack:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`,
      'budget',
      'chat.update',
    );
    return {
      keys,
      client,
      channel,
      budgetKey,
      process: () => new ChannelPoster(limiter, keys, redis, logger),
      /** Fills the edit budget with `count` edits made `ageMs` ago (Redis's clock). */
      prime: async (count: number, ageMs: number) => {
        const [seconds, micros] = await redis.time();
        const at = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - ageMs;
        for (let i = 0; i < count; i++) await redis.zadd(budgetKey, at, `primed-${i}`);
        await redis.pexpire(budgetKey, 60_000);
      },
      updates: () =>
        slack.calls.filter((call) => call.method === 'chat.update' && call.args.channel === channel),
    };
  };

  it('paces posts per channel: the second post in a channel waits its second, another channel does not wait behind it', async () => {
    const { client, channel, process } = setup();
    const poster = process();
    const other = `${channel}X`;
    await Promise.all([
      poster.post(client, { channel, text: 'one' }),
      poster.post(client, { channel, text: 'two' }),
      poster.post(client, { channel: other, text: 'elsewhere' }),
    ]);
    const arrivals = slack.calls
      .filter((call) => call.method === 'chat.postMessage' && call.args.channel === channel)
      .map((call) => call.at);
    const elsewhere = slack.calls.find(
      (call) => call.method === 'chat.postMessage' && call.args.channel === other,
    );
    expect(arrivals).toHaveLength(2);
    expect(Math.abs((arrivals[1] ?? 0) - (arrivals[0] ?? 0))).toBeGreaterThanOrEqual(900);
    expect(elsewhere?.at).toBeLessThan(Math.max(...arrivals));
  });

  it('across processes, final posts waiting for a channel go before a progress post there', async () => {
    const { client, channel, keys, process } = setup();
    const [first, second] = [process(), process()];
    await first.post(client, { channel, text: 'earlier' }); // the channel's second is taken
    const placeholder = first.post(client, { channel, text: 'placeholder' }, { urgency: 'progress' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answers = [
      second.post(client, { channel, text: 'answer 1' }),
      second.post(client, { channel, text: 'answer 2' }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Both are announced in Redis while they wait, where the other process's progress post looks.
    expect(await redis.zcard(keys.key(`ch:${channel}`, 'finals'))).toBe(2);
    await Promise.all([placeholder, ...answers]);
    const order = slack.calls
      .filter((call) => call.method === 'chat.postMessage' && call.args.channel === channel)
      .map((call) => call.args.text);
    expect(order).toEqual(['earlier', 'answer 1', 'answer 2', 'placeholder']);
    expect(await redis.zcard(keys.key(`ch:${channel}`, 'finals'))).toBe(0);
  });

  it('budgets edits per workspace and method, whatever the channel', async () => {
    const { client, channel, budgetKey, process } = setup();
    const poster = process();
    const channels = [channel, `${channel}Y`, `${channel}Z`];
    const posted = await Promise.all(channels.map((c) => poster.post(client, { channel: c, text: 'card' })));
    await Promise.all(
      channels.map((c, i) => poster.update(client, { channel: c, ts: posted[i] ?? '', text: `final ${c}` })),
    );
    const edited = slack.calls.filter(
      (call) => call.method === 'chat.update' && channels.includes(String(call.args.channel)),
    );
    expect(edited.map((call) => call.args.text).sort()).toEqual(channels.map((c) => `final ${c}`).sort());
    // One window for the workspace's chat.update calls holds all three.
    expect(await redis.zcard(budgetKey)).toBe(3);
  });

  it('coalesces progress edits: of several states queued for one message only the latest is sent', async () => {
    const { client, channel, prime, process, updates } = setup();
    const poster = process();
    const ts = await poster.post(client, { channel, text: 'placeholder' });
    // The budget sits at the progress reserve until the primed edits age out (in about a second).
    await prime(40, 59_000);
    for (const position of [3, 2, 1]) {
      // Progress edits do not hold the caller: each resolves at once.
      await poster.update(client, { channel, ts, text: `${position} ahead` }, { urgency: 'progress' });
    }
    await slack.waitFor(() => updates().length > 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(updates().map((call) => call.args.text)).toEqual(['1 ahead']);
  });

  it('keeps a reserve for finals: a final edit goes while progress waits, and a final makes a queued progress edit moot', async () => {
    const { client, channel, prime, process, updates } = setup();
    const poster = process();
    const answer = await poster.post(client, { channel, text: 'answer card' });
    const placeholder = await poster.post(client, { channel, text: 'placeholder' });
    await prime(40, 58_500);
    await poster.update(client, { channel, ts: placeholder, text: 'waiting' }, { urgency: 'progress' });
    await poster.update(client, { channel, ts: answer, text: 'approved' });
    // The final went at once, from the reserve; the progress edit is still waiting for room.
    expect(updates().map((call) => call.args.text)).toEqual(['approved']);
    await poster.update(client, { channel, ts: placeholder, text: 'answered' });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(updates().map((call) => call.args.text)).toEqual(['approved', 'answered']);
  });

  it('across processes, a progress edit queued before a newer state elsewhere is dropped', async () => {
    const { client, channel, prime, process, updates } = setup();
    const first = process();
    const second = process();
    const ts = await first.post(client, { channel, text: 'placeholder' });
    await prime(40, 59_000);
    await first.update(client, { channel, ts, text: '2 ahead' }, { urgency: 'progress' });
    await second.update(client, { channel, ts, text: '1 ahead' }, { urgency: 'progress' });
    await slack.waitFor(() => updates().length > 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(updates().map((call) => call.args.text)).toEqual(['1 ahead']);
  });

  it('a progress edit Slack refuses fails nobody: it is logged, and later edits still go', async () => {
    const { client, channel, process, updates } = setup();
    const poster = process();
    slack.conversation(channel, { kind: 'public', botMember: true });
    const ts = await poster.post(client, { channel, text: 'placeholder' });
    slack.deleteMessage(channel, ts);
    await expect(
      poster.update(client, { channel, ts, text: 'gone' }, { urgency: 'progress' }),
    ).resolves.toBeUndefined();
    await expect(poster.update(client, { channel, ts, text: 'final' })).rejects.toThrow(/message_not_found/);
    const other = await poster.post(client, { channel, text: 'next' });
    await poster.update(client, { channel, ts: other, text: 'next, edited' });
    expect(updates().some((call) => call.args.text === 'next, edited')).toBe(true);
  });
});
