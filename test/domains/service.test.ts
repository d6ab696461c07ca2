import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitWindow } from '../../src/config.js';
import { AuditLog } from '../../src/features/audit/service.js';
import {
  AvailabilityService,
  CheckCapError,
  type CheckRow,
  MAX_NAMES,
  planCheck,
  USER_NAMES_PER_MINUTE,
} from '../../src/features/domains/service.js';
import { NoApiKeyError, WorkspaceKeys } from '../../src/features/keys/service.js';
import { createRegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Limiter, withLatencyMargin } from '../../src/shared/limiter.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { masterKey } from '../../src/vault/crypto.js';
import { Vault } from '../../src/vault/store.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const WS = { teamId: 'T0CHECK' };
const ROOMY: LimitWindow = { max: 1_000, windowMs: 1_000 };

const states = (rows: readonly CheckRow[]) =>
  Object.fromEntries(rows.map((row) => [row.name.ok ? row.name.ascii : row.name.input, row.state]));

describe('planCheck: local validation before any quota is spent', () => {
  it('splits on spaces, commas and new lines and merges names that normalise alike', () => {
    const { rows, overflow } = planCheck('Example.com, example.com.\nmüller.de  xn--mller-kva.de;fresh.org');
    expect(rows.map((row) => (row.name.ok ? row.name.ascii : row.name.input))).toEqual([
      'example.com',
      'xn--mller-kva.de',
      'fresh.org',
    ]);
    expect(overflow).toBe(0);
    expect(rows.every((row) => row.state.kind === 'waiting')).toBe(true);
  });

  it('settles invalid names with the reason; only valid ones wait', () => {
    const { rows } = planCheck('co.uk www.example.com example.invalidtld fresh.de');
    const byName = states(rows);
    expect(byName['co.uk']).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('public suffix'),
    });
    expect(byName['www.example.com']).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('example.com'),
    });
    expect(byName['example.invalidtld']).toMatchObject({ kind: 'invalid' });
    expect(byName['fresh.de']).toEqual({ kind: 'waiting' });
  });

  it(`keeps at most ${MAX_NAMES} names and counts the rest as overflow`, () => {
    const text = Array.from({ length: MAX_NAMES + 5 }, (_, i) => `n${i}.com`).join(' ');
    const { rows, overflow } = planCheck(`${text} n0.com`);
    expect(rows).toHaveLength(MAX_NAMES);
    expect(overflow).toBe(5); // the repeated n0.com is merged, not counted
  });

  it('widens the quota window by 1 %, at least 20 ms (settled slots carry the real latency)', () => {
    expect(withLatencyMargin(60_000)).toBe(60_600);
    expect(withLatencyMargin(1_000)).toBe(1_020);
  });
});

describe('AvailabilityService against the sandbox registrar and real Redis', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const otherProcess = createRedis(testRedisUrl(), 'worker');
  let roomy: Sandbox;
  let tight: Sandbox;

  beforeAll(async () => {
    roomy = await createSandbox({ limits: { availability: ROOMY } });
    tight = await createSandbox({ limits: { availability: { max: 3, windowMs: 1_000 } } });
  });
  afterAll(async () => {
    await Promise.all([roomy.close(), tight.close()]);
    redis.disconnect();
    otherProcess.disconnect();
  });

  /** One process's service; `keys` is the Redis prefix (one per test), the key hash a fixed stand-in. */
  function service(
    sandbox: Sandbox,
    keys: KeySpace,
    options: { limit?: LimitWindow; timeoutMs?: number; connection?: typeof redis } = {},
  ) {
    return new AvailabilityService({
      registrarFor: () =>
        createRegistrarClient({
          baseUrl: sandbox.url,
          apiKey: sandbox.apiKey,
          timeoutMs: options.timeoutMs ?? 5_000,
        }),
      workspaceKeys: { keyHashFor: async () => 'k0123456789abcdef' },
      redis: options.connection ?? redis,
      limiter: new Limiter(options.connection ?? redis),
      keys,
      limit: options.limit ?? ROOMY,
    });
  }
  const freshKeys = () => new KeySpace(`t-${randomBytes(4).toString('hex')}`);
  let users = 0;
  const nextUser = () => `U${++users}`;
  const availabilityCalls = (sandbox: Sandbox) =>
    sandbox.calls.filter((call) => call.operation === 'domains.availability');
  const windowSize = (keys: KeySpace) =>
    redis.zcard(keys.key('key:k0123456789abcdef', 'quota', 'availability'));

  it('answers available and taken (with the registry status), in place, reporting progress', async () => {
    const { rows } = planCheck('fresh-one.com example.com google.com');
    const progress: number[] = [];
    await (await service(roomy, freshKeys()).forWorkspace(WS, nextUser(), MAX_NAMES)).check(rows, (done) =>
      progress.push(done),
    );
    expect(states(rows)).toEqual({
      'fresh-one.com': { kind: 'available' },
      'example.com': { kind: 'taken', status: 'registered' },
      'google.com': { kind: 'taken', status: 'registered' },
    });
    expect(progress).toEqual([1, 2, 3]);
  });

  it('spends quota and registrar calls on valid names only', async () => {
    const keys = freshKeys();
    const before = availabilityCalls(roomy).length;
    const { rows } = planCheck('co.uk www.example.com .com fresh-two.com');
    await (await service(roomy, keys).forWorkspace(WS, nextUser(), MAX_NAMES)).check(rows);
    expect(availabilityCalls(roomy).length - before).toBe(1);
    expect(await windowSize(keys)).toBe(1);
    expect(states(rows)['fresh-two.com']).toEqual({ kind: 'available' });
  });

  it(`checks the first ${MAX_NAMES} names of an overlong list and ignores the overflow`, async () => {
    const before = availabilityCalls(roomy).length;
    const { rows, overflow } = planCheck(
      Array.from({ length: MAX_NAMES + 7 }, (_, i) => `bulk-${i}.net`).join(','),
    );
    await (await service(roomy, freshKeys()).forWorkspace(WS, nextUser(), MAX_NAMES)).check(rows);
    expect(overflow).toBe(7);
    expect(rows.every((row) => row.state.kind === 'available')).toBe(true);
    expect(availabilityCalls(roomy).length - before).toBe(MAX_NAMES);
  });

  it('keeps concurrent checks of one key, from two processes, within the shared window: no 429', async () => {
    const keys = freshKeys();
    const limit = { max: 3, windowMs: 1_000 };
    const before = availabilityCalls(tight).length;
    const first = planCheck('p1-a.com p1-b.com p1-c.com p1-d.com p1-e.com');
    const second = planCheck('p2-a.com p2-b.com p2-c.com p2-d.com p2-e.com');
    const started = Date.now();
    await Promise.all([
      service(tight, keys, { limit })
        .forWorkspace(WS, nextUser(), MAX_NAMES)
        .then((checks) => checks.check(first.rows)),
      service(tight, keys, { limit, connection: otherProcess })
        .forWorkspace(WS, nextUser(), MAX_NAMES)
        .then((checks) => checks.check(second.rows)),
    ]);
    const calls = availabilityCalls(tight).slice(before);
    expect(calls).toHaveLength(10);
    expect(calls.filter((call) => call.status === 429)).toEqual([]);
    expect([...first.rows, ...second.rows].every((row) => row.state.kind === 'available')).toBe(true);
    // Ten calls at three a window need at least three full windows of waiting.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * withLatencyMargin(limit.windowMs) - 50);
  });

  it('no 429 from a registrar that counts each call on arrival, up to 50 ms after it was sent (R44)', async () => {
    // A slot is in flight from its taking until the answer, and counts from the answer: whatever the
    // way there took, two arrivals of one unit are a window apart.
    const arriving = await createSandbox({
      limits: { availability: { max: 2, windowMs: 500 } },
      delays: { arrivalJitterMs: 50 },
    });
    try {
      const keys = freshKeys();
      const limit = { max: 2, windowMs: 500 };
      const names = (tag: string) => Array.from({ length: 6 }, (_, i) => `${tag}-${i}.com`).join(' ');
      const first = planCheck(names('a1'));
      const second = planCheck(names('a2'));
      await Promise.all([
        service(arriving, keys, { limit })
          .forWorkspace(WS, nextUser(), MAX_NAMES)
          .then((checks) => checks.check(first.rows)),
        service(arriving, keys, { limit, connection: otherProcess })
          .forWorkspace(WS, nextUser(), MAX_NAMES)
          .then((checks) => checks.check(second.rows)),
      ]);
      const calls = availabilityCalls(arriving);
      expect(calls).toHaveLength(12);
      expect(calls.filter((call) => call.status === 429)).toEqual([]);
      expect([...first.rows, ...second.rows].every((row) => row.state.kind === 'available')).toBe(true);
    } finally {
      await arriving.close();
    }
  });

  it('reports a 502 as "could not check", never as taken', async () => {
    const { rows } = planCheck('unreachable-zone.com');
    await (await service(roomy, freshKeys()).forWorkspace(WS, nextUser(), MAX_NAMES)).check(rows);
    expect(rows[0]?.state).toEqual({ kind: 'unknown', reason: 'registry unreachable' });
  });

  it('reports a registrar timeout as "could not check"', async () => {
    roomy.faults.inject('domains.availability', { delayMs: 1_000, times: 1 });
    const { rows } = planCheck('slow-answer.com');
    await (
      await service(roomy, freshKeys(), { timeoutMs: 200 }).forWorkspace(WS, nextUser(), MAX_NAMES)
    ).check(rows);
    expect(rows[0]?.state).toEqual({ kind: 'unknown', reason: 'no answer' });
  });

  it("reports the registrar's own 429 as unknown and its 400 as a name the registry refuses", async () => {
    roomy.faults.inject('domains.availability', { status: 429, times: 1 });
    const limited = planCheck('limited-one.com');
    await (await service(roomy, freshKeys()).forWorkspace(WS, nextUser(), MAX_NAMES)).check(limited.rows);
    expect(limited.rows[0]?.state).toEqual({ kind: 'unknown', reason: 'registrar limit' });

    roomy.faults.inject('domains.availability', { status: 400, times: 1 });
    const refused = planCheck('refused-one.com');
    await (await service(roomy, freshKeys()).forWorkspace(WS, nextUser(), MAX_NAMES)).check(refused.rows);
    expect(refused.rows[0]?.state).toEqual({
      kind: 'invalid',
      reason: 'the registry does not accept this name',
    });
  });

  it('gives up on a name whose wait for quota would pass the bound, without calling the registrar', async () => {
    const before = availabilityCalls(roomy).length;
    const { rows } = planCheck('first-in.com second-in.com');
    const slow = service(roomy, freshKeys(), { limit: { max: 1, windowMs: 600_000 } });
    await (await slow.forWorkspace(WS, nextUser(), MAX_NAMES)).check(rows);
    expect(rows.map((row) => row.state.kind).sort()).toEqual(['available', 'unknown']);
    expect(rows.find((row) => row.state.kind === 'unknown')?.state).toMatchObject({
      reason: 'availability limit reached',
    });
    expect(availabilityCalls(roomy).length - before).toBe(1);
  });

  it('refuses to start for a workspace without a key, before any quota or call is spent', async () => {
    const keys = freshKeys();
    const audit = new AuditLog(redis, keys);
    const vault = new Vault(redis, keys, masterKey(Buffer.alloc(32, 9)));
    const workspaceKeys = new WorkspaceKeys(vault, audit, async () => ({ ok: true }));
    const availability = new AvailabilityService({
      registrarFor: () =>
        createRegistrarClient({ baseUrl: roomy.url, apiKey: () => workspaceKeys.apiKeyFor(WS) }),
      workspaceKeys,
      limiter: new Limiter(redis),
      redis,
      keys,
      limit: ROOMY,
    });
    const before = roomy.calls.length;
    await expect(availability.forWorkspace(WS, nextUser(), MAX_NAMES)).rejects.toBeInstanceOf(NoApiKeyError);
    expect(roomy.calls.length).toBe(before);
    expect(await redis.keys(`${keys.prefix}:*`)).toEqual([]);
  });

  it("one person's flood is refused at once while another person's check goes through", async () => {
    const keys = freshKeys();
    const before = availabilityCalls(roomy).length;
    const flooder = service(roomy, keys);
    const first = await flooder.forWorkspace(WS, 'UFLOOD', 3);
    // While the first check runs, the same person's next 100 are refused without a registrar call.
    const refusals = await Promise.allSettled(
      Array.from({ length: 100 }, () => flooder.forWorkspace(WS, 'UFLOOD', 3)),
    );
    expect(refusals.every((r) => r.status === 'rejected' && r.reason instanceof CheckCapError)).toBe(true);
    const other = planCheck('other-person.com');
    const checks = await service(roomy, keys).forWorkspace(WS, 'UOTHER', 1);
    await checks.check(other.rows);
    await checks.release();
    expect(states(other.rows)['other-person.com']).toEqual({ kind: 'available' });
    await first.check(planCheck('flood-1.com flood-2.com flood-3.com').rows);
    await first.release();
    expect(availabilityCalls(roomy).length - before).toBe(4);
    // Released: the flooder may check again, within their names per minute.
    await (await flooder.forWorkspace(WS, 'UFLOOD', 10)).release();
    await expect(flooder.forWorkspace(WS, 'UFLOOD', USER_NAMES_PER_MINUTE)).rejects.toBeInstanceOf(
      CheckCapError,
    );
  });
});
