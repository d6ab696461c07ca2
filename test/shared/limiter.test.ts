import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/shared/limiter.js';
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
});
