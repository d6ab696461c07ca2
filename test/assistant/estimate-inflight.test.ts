import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Estimator } from '../../src/features/assistant/estimate.js';
import { AssistantKeys } from '../../src/features/assistant/keys.js';
import { Limiter } from '../../src/shared/limiter.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

describe('the wait estimate while a question is in flight', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  afterAll(() => redis.disconnect());

  it('counts the question in flight from now, not from its lease: a full window reads as about one window', async () => {
    const keys = new AssistantKeys(new KeySpace(`est-${randomBytes(4).toString('hex')}`));
    const limits = {
      assistantKey: { max: 1, windowMs: 3_000 },
      assistantAccount: { max: 20, windowMs: 600_000 },
    };
    const estimator = new Estimator(redis, keys, limits);
    const account = 'acct-est';
    const taken = await new Limiter(redis).take([
      { key: keys.perKey(account), ...limits.assistantKey },
      { key: keys.perAccount(account), ...limits.assistantAccount },
    ]);
    expect(taken.ok).toBe(true);
    // The next question waits for the window (3 s) plus its own answer, not for the 30 s lease.
    const estimate = await estimator.estimate(account, 0);
    expect(estimate).toBeGreaterThanOrEqual(3_000);
    expect(estimate).toBeLessThan(10_000);
    if (taken.ok) await taken.settle();
  });
});
