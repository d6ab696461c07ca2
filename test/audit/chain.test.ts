import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS, parseLink } from '../../src/features/audit/chain.js';
import { AuditLog } from '../../src/features/audit/service.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const WS = { teamId: 'TCHAIN' };

/** docs/requirements.md R52: every entry carries the hash of the one before it; verify finds what was done to them. */
describe('audit hash chain', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  afterAll(() => redis.disconnect());
  const space = () => new KeySpace(`tch${randomBytes(4).toString('hex')}`);
  const trailKey = (keys: KeySpace) => keys.key('ws:-:TCHAIN', 'audit');

  /** The stream as it is, then written back whole with `edit` applied: how someone with Redis access rewrites it. */
  async function rewrite(
    key: string,
    edit: (rows: Array<[string, string[]]>) => Array<[string, string[]]>,
  ): Promise<void> {
    const rows = await redis.xrange(key, '-', '+');
    await redis.del(key);
    for (const [id, fields] of edit(rows)) await redis.xadd(key, id, ...fields);
  }

  async function seeded(count: number): Promise<{ audit: AuditLog; keys: KeySpace; ids: string[] }> {
    const keys = space();
    const audit = new AuditLog(redis, keys);
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push(await audit.append(WS, { action: 'request', actor: 'U1', requestId: `apr_${i}` }));
    return { audit, keys, ids };
  }

  it('chains entries appended at once by several processes, both trails, and verifies them', async () => {
    const keys = space();
    const writers = Array.from({ length: 4 }, () => new AuditLog(redis, keys));
    await Promise.all(
      writers.flatMap((audit, w) =>
        Array.from({ length: 40 }, (_, i) =>
          audit.append(WS, {
            action: i % 5 === 0 ? 'refuse' : 'approve',
            actor: `U${w}`,
            requestId: `apr_${w}_${i}`,
          }),
        ),
      ),
    );
    const verdict = await writers[0]?.verify(WS);
    expect(verdict).toEqual({ trail: { checked: 128, legacy: 0 }, refusals: { checked: 32, legacy: 0 } });
    // Ids are unique in the workspace across both streams: each is a delivery's idempotency key.
    const all: string[] = [];
    for await (const entry of new AuditLog(redis, keys).all(WS)) all.push(entry.id);
    expect(new Set(all).size).toBe(160);
    const [first] = await redis.xrange(trailKey(keys), '-', '+', 'COUNT', 1);
    const fields = Object.fromEntries(
      (first?.[1] ?? []).flatMap((_, i, flat) => (i % 2 === 0 ? [[flat[i], flat[i + 1]]] : [])),
    );
    expect(fields).toMatchObject({
      position: '1',
      prev: GENESIS,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(parseLink(await redis.get(`${trailKey(keys)}:head`))?.position).toBe(128);
  });

  it('names the entry after a deleted one', async () => {
    const { audit, keys, ids } = await seeded(6);
    await redis.xdel(trailKey(keys), ids[2] ?? '');
    const { trail } = await audit.verify(WS);
    expect(trail.problem).toEqual({
      kind: 'missing_before',
      id: ids[3],
      position: 4,
      after: 2,
      cause: 'gap',
    });
  });

  it('names an entry whose fields were changed, the newest or one in the middle', async () => {
    for (const which of [3, 1]) {
      const { audit, keys, ids } = await seeded(4);
      // Rewritten through a copy of the stream, ids kept: what someone with access to Redis can do.
      await rewrite(trailKey(keys), (rows) =>
        rows.map(([id, values]) => [
          id,
          id === ids[which] ? values.map((value) => (value === `apr_${which}` ? 'apr_x' : value)) : values,
        ]),
      );
      expect((await audit.verify(WS)).trail.problem).toEqual({ kind: 'changed', id: ids[which] });
    }
  });

  it('names an entry stored before one written before it, and the newest ones missing', async () => {
    const swapped = await seeded(5);
    await rewrite(trailKey(swapped.keys), (rows) => {
      const [a, b] = [rows[1], rows[2]];
      if (a === undefined || b === undefined) throw new Error('too few rows');
      // Same ids in order, contents swapped: entry 3 now stands where entry 2 was.
      return [rows[0], [a[0], b[1]], [b[0], a[1]], ...rows.slice(3)] as Array<[string, string[]]>;
    });
    expect((await swapped.audit.verify(WS)).trail.problem).toEqual({
      kind: 'out_of_order',
      id: swapped.ids[1],
      position: 3,
      before: 2,
    });

    const cut = await seeded(3);
    await redis.xdel(trailKey(cut.keys), cut.ids[2] ?? '');
    expect((await cut.audit.verify(WS)).trail.problem).toEqual({
      kind: 'missing_after',
      id: cut.ids[1],
      position: 2,
      head: 3,
    });
  });

  it('trims entries older than the retention and stays verifiable from its oldest kept entry', async () => {
    const keys = space();
    let now = Date.now();
    const audit = new AuditLog(redis, keys, { retentionDays: 400, now: () => now });
    for (let i = 0; i < 5; i++) await audit.append(WS, { action: 'key_set', actor: 'U1' });
    now += 401 * DAY_MS;
    await audit.append(WS, { action: 'policy_change', actor: 'U1' });
    // The five old ones are gone; the anchor is the last of them.
    expect(await redis.xlen(trailKey(keys))).toBe(1);
    expect(parseLink(await redis.get(`${trailKey(keys)}:anchor`))?.position).toBe(5);
    expect(await audit.verify(WS)).toEqual({
      trail: { checked: 1, legacy: 0 },
      refusals: { checked: 0, legacy: 0 },
    });
  });

  it('caps the refusals by count, anchored the same way', async () => {
    const keys = space();
    const audit = new AuditLog(redis, keys, { refusalsKept: 10 });
    for (let i = 0; i < 35; i++)
      await audit.append(WS, { action: 'refuse', actor: 'USPAM', outcome: `no ${i}` });
    const kept = await redis.xlen(keys.key('ws:-:TCHAIN', 'audit', 'refusals'));
    expect(kept).toBeGreaterThanOrEqual(10);
    expect(kept).toBeLessThanOrEqual(11);
    expect((await audit.verify(WS)).refusals).toEqual({ checked: kept, legacy: 0 });
  });

  it('counts entries from before the chain and checks from the first chained one', async () => {
    const keys = space();
    for (let i = 0; i < 3; i++) await redis.xadd(trailKey(keys), '*', 'action', 'key_set', 'actor', 'UOLD');
    const audit = new AuditLog(redis, keys);
    await audit.append(WS, { action: 'policy_change', actor: 'U1' });
    await audit.append(WS, { action: 'policy_change', actor: 'U1' });
    expect((await audit.verify(WS)).trail).toEqual({ checked: 2, legacy: 3 });
    // One without a hash inside the chain is not an old one.
    await redis.xadd(trailKey(keys), '*', 'action', 'key_set', 'actor', 'USLIP');
    expect((await audit.verify(WS)).trail.problem?.kind).toBe('unchained');
  });

  it('keeps head and anchor with the trail through an uninstall, and deletes them with it', async () => {
    const { audit, keys } = await seeded(2);
    await audit.retainAfterUninstall(WS, 60_000);
    const ttl = await redis.pttl(`${trailKey(keys)}:head`);
    expect(ttl).toBeGreaterThan(0);
    // Back again: the next entry keeps the trail for good.
    await audit.append(WS, { action: 'key_set', actor: 'U1' });
    expect(await redis.pttl(`${trailKey(keys)}:head`)).toBe(-1);
    await audit.deleteWorkspace(WS);
    expect(await redis.exists(...audit.streamKeys(WS))).toBe(0);
  });
});
