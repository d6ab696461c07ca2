import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Limiter, withLatencyMargin } from '../../src/shared/limiter.js';
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

  it('settling never moves a slot backwards, and one the window already dropped stays dropped', async () => {
    const window = { key: `${tag()}:gone`, max: 1, windowMs: 200 };
    const slot = await limiter.slotWithin([window], 0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = await limiter.slotWithin([window], 0);
    expect(next).toBeDefined();
    await slot?.settle();
    expect(await redis.zcard(window.key)).toBe(1);
  });

  it('take: a slot settled just before its call is sent counts from then, not from when it was taken', async () => {
    const window = { key: `${tag()}:take`, max: 1, windowMs: 300 };
    const taken = await limiter.take([window]);
    expect(taken.ok).toBe(true);
    expect((await limiter.take([window])).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (taken.ok) await taken.settle();
    await new Promise((resolve) => setTimeout(resolve, 150));
    // 350 ms after taking, but 150 ms after the call went: still no room.
    expect((await limiter.peek([window])).ok).toBe(false);
  });

  it('widens windows by a margin proportional to the window, small for short ones', () => {
    expect(withLatencyMargin(2_000)).toBe(2_020);
    expect(withLatencyMargin(60_000)).toBe(60_600);
  });
});
