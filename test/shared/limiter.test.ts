import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { IN_FLIGHT_LEASE_MS, Limiter, withLatencyMargin } from '../../src/shared/limiter.js';
import { createRedis } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

describe('Limiter (sliding windows in Redis)', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const limiter = new Limiter(redis);
  const tag = () => `tl:{${randomBytes(4).toString('hex')}}`;
  afterAll(() => redis.disconnect());

  it('never admits more than max within a window, even under concurrent callers', async () => {
    const key = `${tag()}:w`;
    const results = await Promise.all(
      Array.from({ length: 25 }, () => limiter.acquire([{ key, max: 10, windowMs: 60_000 }])),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    const refused = results.find((r) => !r.ok);
    expect(refused?.ok === false && refused.retryAfterMs).toBeGreaterThan(59_000);
  });

  it('takes from all windows or none', async () => {
    const t = tag();
    const perKey = { key: `${t}:key`, max: 5, windowMs: 60_000 };
    const perAccount = { key: `${t}:acct`, max: 2, windowMs: 60_000 };
    expect((await limiter.acquire([perKey, perAccount])).ok).toBe(true);
    expect((await limiter.acquire([perKey, perAccount])).ok).toBe(true);
    expect((await limiter.peek([perKey, perAccount])).ok).toBe(false);
    expect((await limiter.acquire([perKey, perAccount])).ok).toBe(false);
    expect(await redis.zcard(perKey.key)).toBe(2);
    expect((await limiter.peek([perKey])).ok).toBe(true);
    expect(await redis.zcard(perKey.key)).toBe(2);
  });

  it('slides: room returns once the oldest call leaves the window', async () => {
    const window = { key: `${tag()}:s`, max: 2, windowMs: 300 };
    expect(await limiter.acquireWithin([window], 0)).toBe(true);
    expect(await limiter.acquireWithin([window], 0)).toBe(true);
    expect(await limiter.acquireWithin([window], 0)).toBe(false);
    const started = Date.now();
    expect(await limiter.acquireWithin([window], 2_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('a settled slot counts from when the upstream answered, so a slow call cannot let the next one in early', async () => {
    const window = { key: `${tag()}:settle`, max: 1, windowMs: 400 };
    const slot = await limiter.slotWithin([window], 0);
    expect(slot).toBeDefined();
    // The call takes 300 ms; the registrar counted it somewhere in there, so the window runs from its end.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await slot?.settle();
    const settledAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 150));
    // 450 ms after the slot was taken, but only 150 ms after the answer: still no room.
    expect((await limiter.peek([window])).ok).toBe(false);
    expect(await limiter.slotWithin([window], 2_000)).toBeDefined();
    expect(Date.now() - settledAt).toBeGreaterThanOrEqual(350);
  });

  it('a call in flight holds its unit however long it takes: no one takes it until a window after the answer', async () => {
    const window = { key: `${tag()}:flight`, max: 1, windowMs: 200 };
    const slot = await limiter.slotWithin([window], 0);
    expect(slot).toBeDefined();
    // Longer than the window, still unanswered: the registrar may have counted it only just now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await limiter.peek([window]);
    expect(waiting.ok).toBe(false);
    // Nothing is known of the answer yet: the soonest is a whole window from now.
    expect(waiting.ok === false && waiting.retryAfterMs).toBeGreaterThanOrEqual(200);
    expect(await limiter.slotWithin([window], 0)).toBeUndefined();
    await slot?.settle();
    const settledAt = Date.now();
    expect(await limiter.slotWithin([window], 2_000)).toBeDefined();
    expect(Date.now() - settledAt).toBeGreaterThanOrEqual(150);
  });

  it('a slot never settled (its process died mid-call) lapses after the in-flight lease, not never', async () => {
    const window = { key: `${tag()}:dead`, max: 1, windowMs: 200 };
    await limiter.take([window]);
    const [, score] = await redis.zrange(window.key, '0', '0', 'WITHSCORES');
    const [seconds = '0', micros = '0'] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    expect(Number(score) - now).toBeGreaterThan(IN_FLIGHT_LEASE_MS - 1_000);
    expect(Number(score) - now).toBeLessThanOrEqual(IN_FLIGHT_LEASE_MS);
    expect(await redis.pttl(window.key)).toBeGreaterThan(IN_FLIGHT_LEASE_MS);
  });

  it('widens windows by a margin proportional to the window, small for short ones', () => {
    expect(withLatencyMargin(2_000)).toBe(2_020);
    expect(withLatencyMargin(60_000)).toBe(60_600);
  });
});
