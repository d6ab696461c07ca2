import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog, hashParams } from '../../src/features/audit/service.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

describe('audit trail', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  afterAll(() => redis.disconnect());

  it('appends, reads newest first and filters by target', async () => {
    const keys = new KeySpace(`tau${randomBytes(4).toString('hex')}`);
    const audit = new AuditLog(redis, keys);
    const ws = { teamId: 'TAUD' };
    for (let i = 0; i < 400; i++) {
      await audit.append(ws, {
        action: 'request',
        actor: 'U1',
        target: i % 2 === 0 ? 'even.com' : 'odd.com',
        requestId: `r${i}`,
      });
    }
    const latest = await audit.latest(ws, { limit: 5 });
    expect(latest.map((e) => e.requestId)).toEqual(['r399', 'r398', 'r397', 'r396', 'r395']);
    const even = await audit.latest(ws, { limit: 3, target: 'even.com' });
    expect(even.map((e) => e.requestId)).toEqual(['r398', 'r396', 'r394']);
    // Retention is by age (AUDIT_RETENTION_DAYS): none of these is old enough to go.
    expect(await redis.xlen(keys.key('ws:-:TAUD', 'audit'))).toBe(400);
  });

  it('hashes parameters canonically (order does not matter, values do)', () => {
    expect(hashParams({ a: 1, b: 'x' })).toBe(hashParams({ b: 'x', a: 1 }));
    expect(hashParams({ a: 1 })).not.toBe(hashParams({ a: 2 }));
    // Nested values count: two different DS record sets never hash alike.
    const ds = (digest: string) => ({ domain: 'example.com', records: [{ kind: 'ds', digest }] });
    expect(hashParams(ds('AA'))).not.toBe(hashParams(ds('BB')));
    expect(hashParams({ r: [{ b: 1, a: 2 }] })).toBe(hashParams({ r: [{ a: 2, b: 1 }] }));
  });
});
