import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateMs, formatWait } from '../../src/features/assistant/estimate.js';
import { languageOf, registrarLocale } from '../../src/features/assistant/locale.js';
import { messageText } from '../helpers/payloads.js';
import { type AssistantWorld, outcomesIn, startAssistantWorld, statusesOf, writeToBot } from './support.js';

describe('estimateMs', () => {
  const roomy = { max: 100, windowMs: 60_000, calls: [] };

  it('is the answers ahead plus its own when the windows have room', () => {
    expect(estimateMs(0, 2_000, [roomy], 0)).toBe(2_000);
    expect(estimateMs(2, 2_000, [roomy], 0)).toBe(6_000);
  });

  it('waits for a full window’s oldest call to age out, counting the predicted starts ahead', () => {
    // Two calls a minute; one made 10 s ago: the next start is now, the one after waits until 50 s.
    const perKey = { max: 2, windowMs: 60_000, calls: [90_000] };
    expect(estimateMs(0, 1_000, [perKey], 100_000)).toBe(1_000);
    expect(estimateMs(1, 1_000, [perKey], 100_000)).toBe(50_000 + 1_000);
    // The third start needs the first predicted start (at 100 s) to age out: 160 s.
    expect(estimateMs(2, 1_000, [perKey], 100_000)).toBe(60_000 + 1_000);
  });

  it('takes the tighter of two windows', () => {
    const perKey = { max: 10, windowMs: 60_000, calls: [] };
    const perAccount = { max: 1, windowMs: 600_000, calls: [0] };
    expect(estimateMs(0, 1_000, [perKey, perAccount], 300_000)).toBe(300_000 + 1_000);
  });

  it('reads coarsely', () => {
    expect(formatWait(3_000)).toBe('a few seconds');
    expect(formatWait(38_000)).toBe('about 40 s');
    expect(formatWait(150_000)).toBe('about 3 min');
  });
});

describe('the language of a question', () => {
  it('is German or English only when clear', () => {
    expect(languageOf('Wie aktiviere ich DNSSEC für meine Domain?')).toBe('de');
    expect(languageOf('Was kostet die Verlängerung?')).toBe('de');
    expect(languageOf('How do I enable DNSSEC for my domain?')).toBe('en');
    expect(languageOf('DNSSEC?')).toBeUndefined();
    expect(languageOf('example.com')).toBeUndefined();
  });

  it('overrides the Slack locale only when it disagrees', () => {
    expect(registrarLocale('de-DE', 'How do I enable DNSSEC for my domain?')).toBe('en-US');
    expect(registrarLocale('en-GB', 'How do I enable DNSSEC for my domain?')).toBe('en-GB');
    expect(registrarLocale('en-US', 'Wie aktiviere ich DNSSEC?')).toBe('de-DE');
    expect(registrarLocale('de-AT', 'Wie aktiviere ich DNSSEC?')).toBe('de-AT');
    expect(registrarLocale('ja-JP', 'DNSSEC?')).toBe('ja-JP');
    expect(registrarLocale(undefined, 'DNSSEC?')).toBeUndefined();
  });
});

describe('estimates while questions wait', () => {
  let w: AssistantWorld;
  const LIMIT = { max: 50, windowMs: 60_000 };

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: {
        // Slow answers: the first still runs when the third question arrives, even under load.
        delays: { assistantAnswerMs: 4_000 },
        limits: { assistantKey: LIMIT, assistantAccount: LIMIT },
      },
    });
  });
  afterAll(async () => {
    await w.stop();
  });

  it('move as the questions ahead finish: in the Messages tab as the thread status, in a channel as the placeholder', async () => {
    const asked = writeToBot(w.h.slack, 'UE1', 'Tell me about renewal');
    const first = { channel: 'DUE1', threadTs: asked.ts };
    await w.h.driver.event(asked.event);
    await w.h.slack.waitFor(
      () => statusesOf(w.h.slack.calls, first.channel, first.threadTs).length > 0,
      15_000,
    );
    await w.h.driver.command('/ask', 'Tell me about billing invoice', { user: 'UE2', channel: 'CEST' });
    await w.h.slack.waitFor(
      () => w.h.slack.succeeded('chat.postMessage').some((c) => messageText(c).includes('1 question ahead')),
      15_000,
    );
    // Both are in the account's queue before the third asks.
    const { assistant, redis } = w.h.running.services;
    const queue = assistant.redisKeys.queue(await assistant.accountOf({ teamId: 'T0001' }));
    await expect.poll(() => redis.zcard(queue), { timeout: 15_000 }).toBe(2);
    const third = writeToBot(w.h.slack, 'UE3', 'Tell me about vanity nameservers');
    const panel = { channel: 'DUE3', threadTs: third.ts };
    await w.h.driver.event(third.event);
    await w.h.slack.waitFor(
      () => outcomesIn(w.h.slack.calls, panel.channel, panel.threadTs).length === 1,
      45_000,
    );

    // The third question: 2 ahead, then 1, then its own turn, each estimate no later than the one before.
    const statuses = statusesOf(w.h.slack.calls, panel.channel, panel.threadTs);
    const waiting = statuses.filter((s) => s.startsWith('is in queue'));
    expect(waiting[0]).toMatch(/^is in queue, 2 ahead, (about \d+ s|a few seconds)$/);
    expect(waiting.some((s) => s.startsWith('is in queue, 1 ahead, '))).toBe(true);
    expect(statuses.indexOf('is looking it up…')).toBeGreaterThan(statuses.indexOf(waiting.at(-1) ?? ''));
    const seconds = (s: string) => (s.includes('a few seconds') ? 5 : Number(/about (\d+) s/.exec(s)?.[1]));
    expect(seconds(waiting.at(-1) ?? '')).toBeLessThanOrEqual(seconds(waiting[0] ?? ''));

    // The channel question's placeholder said when to expect the answer.
    const placeholder = w.h.slack
      .succeeded('chat.postMessage')
      .find((c) => c.args.channel === 'CEST' && messageText(c).includes('1 question ahead'));
    expect(messageText(placeholder ?? { method: '', args: {}, at: 0 })).toMatch(
      /Answer expected in (about \d+ s|a few seconds)/,
    );
  }, 60_000);
});

describe('Messages-tab questions under tight limits, two processes', () => {
  let w: AssistantWorld;
  // Two questions per 3 s per key: the third and fourth must wait for the window, never cause a 429.
  const KEY = { max: 2, windowMs: 3_000 };
  const ACCOUNT = { max: 50, windowMs: 60_000 };

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: KEY, assistantAccount: ACCOUNT }) },
      sandbox: {
        delays: { assistantAnswerMs: 100 },
        limits: { assistantKey: KEY, assistantAccount: ACCOUNT },
      },
    });
  });
  afterAll(async () => {
    await w.stop();
  });

  it('waits for the window instead of a 429, one at a time, the waiting shown their place and an estimate', async () => {
    const users = ['UT1', 'UT2', 'UT3', 'UT4', 'UT5'];
    const topics = ['renewal', 'billing invoice', 'vanity nameservers', 'dns records ttl', 'api keys'];
    const asked = users.map((user, i) => writeToBot(w.h.slack, user, `Tell me about ${topics[i]}`));
    const threads = users.map((user, i) => ({ channel: `D${user}`, threadTs: asked[i]?.ts ?? '' }));
    await Promise.all(asked.map((a) => w.h.driver.event(a.event)));
    await w.h.slack.waitFor(
      () => threads.every((t) => outcomesIn(w.h.slack.calls, t.channel, t.threadTs).length >= 1),
      40_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const t of threads) expect(outcomesIn(w.h.slack.calls, t.channel, t.threadTs)).toHaveLength(1);
    expect(w.registrar.asked.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Never more than two calls within any 3 s, as the registrar counts them.
    const times = w.registrar.asked.map((a) => a.at).sort((a, b) => a - b);
    for (let i = 2; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 2] ?? 0)).toBeGreaterThanOrEqual(2_900);
    // The last in line were shown their place and when to expect the answer.
    const estimates = threads.flatMap((t) => statusesOf(w.h.slack.calls, t.channel, t.threadTs));
    expect(estimates.some((s) => /^is in queue, \d ahead, (about \d+ s|a few seconds)$/.test(s))).toBe(true);
  }, 60_000);
});
