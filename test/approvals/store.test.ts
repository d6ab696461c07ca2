import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CorruptApprovalError } from '../../src/features/approvals/record.js';
import { ApprovalStore, MAX_PENDING_PER_REQUESTER } from '../../src/features/approvals/store.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const ws = { teamId: 'T0APPR' };
const NOW = 1_800_000_000_000;

describe('ApprovalStore', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  let store: ApprovalStore;
  let keys: KeySpace;
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    keys = new KeySpace(`ta${randomBytes(4).toString('hex')}`);
    store = new ApprovalStore(redis, keys);
  });

  const draft = (needed = 1) =>
    store.create({
      id: ApprovalStore.newId(),
      workspace: ws,
      operation: 'tls.revoke',
      params: { certificateId: 'c1', reason: 'keyCompromise' },
      paramsHash: 'h',
      target: 'c1',
      summary: 'Revoke c1',
      details: ['Certificate `c1`'],
      requester: 'UREQ',
      channel: 'C1',
      approverGroup: '',
      createdAt: NOW,
      expiresAt: NOW + 60_000,
      needed,
    });

  /** A request whose message was posted: what every decision works on. */
  const create = async (needed = 1) => {
    const request = await draft(needed);
    expect(await store.show(request, '1700000000.000100')).toBe(true);
    return { ...request, messageTs: '1700000000.000100' };
  };

  it('approves exactly once under 20 concurrent presses by different approvers', async () => {
    const request = await create();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.approve(ws, request.id, `UAPP${i}`, NOW)),
    );
    expect(results.filter((r) => r.kind === 'approved')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'not_pending')).toHaveLength(19);
    const after = await store.get(ws, request.id);
    expect(after?.state).toBe('approved');
    expect(after?.approvals).toHaveLength(1);
    expect(await store.pending(ws)).toEqual([]);
  });

  it('refuses self-approval, duplicates and expired requests', async () => {
    const request = await create(2);
    expect(await store.approve(ws, request.id, 'UREQ', NOW)).toEqual({ kind: 'self' });
    expect(await store.approve(ws, request.id, 'UA', NOW)).toEqual({ kind: 'recorded', count: 1 });
    expect(await store.approve(ws, request.id, 'UA', NOW)).toEqual({ kind: 'duplicate' });
    expect(await store.approve(ws, request.id, 'UB', NOW + 60_000)).toEqual({ kind: 'expired' });
    expect(await store.approve(ws, request.id, 'UB', NOW)).toEqual({ kind: 'approved' });
  });

  it('moves through states with compare-and-set, once', async () => {
    const request = await create();
    await store.approve(ws, request.id, 'UA', NOW);
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => store.transition(ws, request.id, ['approved'], 'executing')),
    );
    expect(claims.filter((claim) => claim === 'approved')).toHaveLength(1);
    expect(await store.transition(ws, request.id, ['executing'], 'succeeded', { outcome: 'revoked' })).toBe(
      'executing',
    );
    expect(await store.transition(ws, request.id, ['pending'], 'denied')).toBeUndefined();
    expect((await store.get(ws, request.id))?.outcome).toBe('revoked');
  });

  it('lists pending requests and finds nothing for another workspace or a malformed id', async () => {
    const request = await create();
    expect((await store.pending(ws)).map((r) => r.id)).toEqual([request.id]);
    expect(await store.get({ teamId: 'TOTHER' }, request.id)).toBeUndefined();
    expect(await store.get(ws, 'apr_../../x')).toBeUndefined();
    expect(await store.approve({ teamId: 'TOTHER' }, request.id, 'UA', NOW)).toEqual({ kind: 'missing' });
  });

  it('refuses a request whose stored parameters or details are damaged, and leaves it out of pending', async () => {
    const good = await create();
    const damaged = await create();
    const hash = keys.key('ws:-:T0APPR', 'approval', damaged.id);
    await redis.hset(hash, 'params', '{"certificateId":');
    await expect(store.get(ws, damaged.id)).rejects.toBeInstanceOf(CorruptApprovalError);
    await redis.hset(hash, 'params', '{}', 'details', '[1,2]');
    await expect(store.get(ws, damaged.id)).rejects.toBeInstanceOf(CorruptApprovalError);
    await redis.hset(hash, 'details', '[]', 'params', '["not", "an", "object"]');
    await expect(store.get(ws, damaged.id)).rejects.toMatchObject({
      userMessage: expect.stringContaining('is damaged'),
    });
    expect((await store.pending(ws)).map((r) => r.id)).toEqual([good.id]);
  });

  it('lists a request only once its message is shown; a draft is short-lived and can be discarded', async () => {
    const request = await draft();
    const hash = keys.key('ws:-:T0APPR', 'approval', request.id);
    expect(await store.pending(ws)).toEqual([]);
    expect(await redis.ttl(hash)).toBeGreaterThan(0);
    expect(await store.show(request, '1700000000.000200')).toBe(true);
    expect(await redis.ttl(hash)).toBe(-1);
    expect((await store.pending(ws)).map((r) => r.messageTs)).toEqual(['1700000000.000200']);

    await store.discard(request);
    expect(await store.get(ws, request.id)).toBeUndefined();
    expect(await store.pending(ws)).toEqual([]);
    // A draft that vanished cannot be shown, and showing does not bring it back.
    expect(await store.show(request, '1700000000.000300')).toBe(false);
    expect(await redis.exists(hash)).toBe(0);
  });

  it("keeps the approvers' copies, and lets the reminder be claimed once, only while pending", async () => {
    const request = await create();
    const copies = [{ user: 'UA', channel: 'DUA', ts: '1700000000.000400' }];
    await store.setCopies(ws, request.id, copies);
    expect((await store.get(ws, request.id))?.copies).toEqual(copies);
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claimReminder(ws, request.id)));
    expect(claims.filter(Boolean)).toHaveLength(1);

    const decided = await create();
    await store.transition(ws, decided.id, ['pending'], 'denied');
    expect(await store.claimReminder(ws, decided.id)).toBe(false);
    // Neither touches a request that no longer exists.
    await store.discard(decided);
    await store.setCopies(ws, decided.id, copies);
    expect(await store.claimReminder(ws, decided.id)).toBe(false);
    expect(await redis.exists(keys.key('ws:-:T0APPR', 'approval', decided.id))).toBe(0);
  });

  it('caps the places of one requester atomically; deciding, discarding or expiring frees one (R34)', async () => {
    const ids = Array.from({ length: 20 }, () => ApprovalStore.newId());
    const taken = await Promise.all(ids.map((id) => store.reserve(ws, 'UREQ', id, NOW)));
    expect(taken.filter(Boolean)).toHaveLength(MAX_PENDING_PER_REQUESTER);
    expect(await store.reserve(ws, 'UOTHER', ApprovalStore.newId(), NOW)).toBe(true);

    // A place given back, or one whose time has passed, is free again.
    const held = ids.filter((_, i) => taken[i]);
    await store.release(ws, 'UREQ', held[0] ?? '');
    expect(await store.reserve(ws, 'UREQ', ApprovalStore.newId(), NOW)).toBe(true);
    expect(await store.reserve(ws, 'UREQ', ApprovalStore.newId(), NOW)).toBe(false);
    expect(await store.reserve(ws, 'UREQ', ApprovalStore.newId(), NOW + 16 * 60_000)).toBe(true);

    // A shown request holds its requester's place until it leaves `pending`.
    const mine = keys.key('ws:-:T0APPR', 'approvals', 'by', 'UREQ');
    await redis.del(mine);
    const shown = await Promise.all(Array.from({ length: MAX_PENDING_PER_REQUESTER }, () => create()));
    expect(await store.reserve(ws, 'UREQ', ApprovalStore.newId(), NOW)).toBe(false);
    const [withdrawn, approved, discarded] = shown;
    if (withdrawn === undefined || approved === undefined || discarded === undefined) throw new Error('none');
    await store.transition(ws, withdrawn.id, ['pending'], 'withdrawn');
    await store.approve(ws, approved.id, 'UAPPROVER', NOW);
    expect(await redis.zcard(mine)).toBe(MAX_PENDING_PER_REQUESTER - 2);
    await store.discard(discarded);
    expect(await redis.zcard(mine)).toBe(MAX_PENDING_PER_REQUESTER - 3);
    expect(await redis.pttl(mine)).toBeGreaterThan(0);
  });
});
