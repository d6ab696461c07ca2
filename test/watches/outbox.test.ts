import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/features/watches/alert.js';
import { batchMessage } from '../../src/features/watches/alert-blocks.js';
import { AlertOutbox, GATHER_MAX_MS, GATHER_QUIET_MS } from '../../src/features/watches/outbox.js';
import { retryAt } from '../../src/features/watches/sweep.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { WS } from './support.js';

const item = (id: string) => ({ kind: 'domain' as const, id, channel: 'C1', addedBy: 'U1', addedAt: 0 });
const unreachable = (id: string, reason = 'The registrar rejected this workspace’s API key.'): Alert => ({
  mark: `domain:${id}:unreachable:1`,
  level: 'warn',
  text: `could not check ${id}`,
  buttons: ['show'],
  cause: { kind: 'unreachable', code: 'regdesk_registrar_unauthorized', reason },
  line: `*${id}*`,
});

describe('the alert outbox gathers by channel and cause, and gives each batch to one flush (real Redis)', () => {
  let redis: Redis;
  let outbox: AlertOutbox;

  beforeAll(async () => {
    redis = createRedis(testRedisUrl(), 'worker', 'watch-outbox-test');
    await waitForReady(redis);
    outbox = new AlertOutbox(redis, new KeySpace(`tout${randomBytes(4).toString('hex')}`));
  });
  afterAll(() => {
    redis?.disconnect();
  });

  it('waits while alerts join, then hands the batch over once; later alerts open a new generation', async () => {
    const t = 1_000_000;
    const a = await outbox.collect(
      WS,
      { channel: 'C1', item: item('a.com'), alert: unreachable('a.com') },
      t,
    );
    // The same cause in words another failure put differently: the same batch (its code is the key).
    const b = await outbox.collect(
      WS,
      { channel: 'C1', item: item('b.com'), alert: unreachable('b.com', 'other words') },
      t + 1_000,
    );
    expect(b).toEqual(a);
    // Another channel, and another cause, are batches of their own.
    const other = await outbox.collect(
      WS,
      { channel: 'C2', item: item('c.com'), alert: unreachable('c.com') },
      t,
    );
    expect(other.batch).not.toBe(a.batch);

    expect(await outbox.take(WS, a.batch, a.gen, t + 1_500)).toEqual({
      state: 'wait',
      ms: GATHER_QUIET_MS - 500,
    });
    const taken = await outbox.take(WS, a.batch, a.gen, t + 1_000 + GATHER_QUIET_MS);
    expect(taken.state).toBe('taken');
    const entries = taken.state === 'taken' ? taken.entries : [];
    expect(entries.map((entry) => entry.item.id).sort()).toEqual(['a.com', 'b.com']);
    // A flush that died before posting (a killed worker): its job's next run gets the same batch.
    const again = await outbox.take(WS, a.batch, a.gen, t + 10_000);
    expect(again.state === 'taken' ? again.entries.map((entry) => entry.item.id).sort() : again).toEqual([
      'a.com',
      'b.com',
    ]);
    // Once a flush says it is done, a second flush of the same generation finds nothing.
    await outbox.done(WS, a.batch, a.gen);
    expect(await outbox.take(WS, a.batch, a.gen, t + 10_000)).toEqual({ state: 'gone' });

    const next = await outbox.collect(
      WS,
      { channel: 'C1', item: item('d.com'), alert: unreachable('d.com') },
      t,
    );
    expect(next.batch).toBe(a.batch);
    expect(next.gen).toBeGreaterThan(a.gen);
    expect(await outbox.take(WS, a.batch, a.gen, t + 10_000)).toEqual({ state: 'gone' });
  });

  it('a batch that keeps growing is posted at the latest GATHER_MAX_MS after its first alert', async () => {
    const t = 5_000_000;
    const first = await outbox.collect(
      WS,
      { channel: 'C9', item: item('x.com'), alert: unreachable('x.com') },
      t,
    );
    await outbox.collect(
      WS,
      { channel: 'C9', item: item('y.com'), alert: unreachable('y.com') },
      t + GATHER_MAX_MS,
    );
    expect((await outbox.take(WS, first.batch, first.gen, t + GATHER_MAX_MS)).state).toBe('taken');
  });

  it('several alerts are one message naming how many, within Block Kit limits even for 500', () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({
      item: item(`${'x'.repeat(60)}-${i}.com`),
      alert: unreachable(`${'x'.repeat(60)}-${i}.com`),
    }));
    const first = entries[0];
    if (first === undefined) throw new Error('no entries');
    const message = batchMessage(first.alert.cause, entries);
    expect(message.text).toContain('500 domains could not be checked 3 times in a row');
    expect(JSON.stringify(message)).toContain('…and 400 more');
    assertWithinBlockKitLimits(message, 'message');
  });

  it('failed looks are retried on a grid, so items failing together are looked at together', () => {
    const step = 15 * 60_000;
    const retries = [1, 59_000, 14 * 60_000].map((offset) => retryAt(10 * step + offset, 6 * 3_600_000));
    expect(new Set(retries)).toEqual(new Set([12 * step]));
    expect(retryAt(10 * step, 6 * 3_600_000)).toBeGreaterThanOrEqual(10 * step + step);
  });
});
