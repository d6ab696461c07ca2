import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  type Policy,
  PolicyStore,
  STRICTEST_POLICY,
} from '../../src/features/policy/policy.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { memoryLogger } from '../helpers/app-harness.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const ws = { teamId: 'T0POLICY' };
const SAVED_AT = 1_800_000_000_000;

/** A policy that differs from the default in every field, so a kept field shows. */
const CUSTOM: Policy = {
  actions: { revoke: { approvals: 2, expiryHours: 4 } },
  zones: [{ match: '*.prod.example', actions: { record: { approvals: 3 } } }],
  freezes: [
    { name: 'Cutover', from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z', actions: ['record'] },
  ],
  escalateTo: ['U0ESCALATE'],
  mcp: 'off',
  approvers: ['UA', 'UB'],
  approverGroup: 'S0APPROVE',
  needed: 2,
  expiryHours: 48,
  requesters: 'approvers',
  requesterUsers: ['UREQ'],
  approvalsChannel: 'CAPPROVALS',
  admins: ['UADMIN'],
  orderers: 'approvers',
  ordererUsers: ['UBUYER'],
  ordersNeedApproval: false,
  recordChangesNeedApproval: false,
  recordChangeExemptTypes: ['TXT', 'CAA'],
  recordChangeExemptUsers: ['UDNS'],
  validationPublishing: 'approval',
  assistantAnswers: 'channel',
  assistantLinkHosts: ['docs.example.com'],
  watchManagers: 'anyone',
  language: 'de',
};

describe('PolicyStore fails closed (docs/requirements.md R41)', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  let keys: KeySpace;
  let store: PolicyStore;
  let logs: string[];
  const policyKey = () => keys.key(`ws:${workspaceId(ws)}`, 'policy');
  const savedKey = () => keys.key(`ws:${workspaceId(ws)}`, 'policy-saved');
  /** What was stored, edited as a newer version or a damaged copy might leave it. */
  const storeRaw = (value: unknown) =>
    redis.set(policyKey(), typeof value === 'string' ? value : JSON.stringify(value));

  afterAll(() => redis.disconnect());
  beforeEach(() => {
    keys = new KeySpace(`tpol${randomBytes(4).toString('hex')}`);
    const memory = memoryLogger();
    logs = memory.logs;
    store = new PolicyStore(redis, keys, memory.logger, () => SAVED_AT);
  });

  it('gives the permissive default to a workspace that never saved a policy', async () => {
    expect(await store.read(ws)).toEqual({ policy: DEFAULT_POLICY, state: 'default' });
    expect(await store.get(ws)).toEqual(DEFAULT_POLICY);
  });

  it('reads back what was saved, and remembers when it was saved', async () => {
    await store.set(ws, CUSTOM);
    expect(await store.read(ws)).toEqual({ policy: CUSTOM, state: 'saved' });
    expect(await redis.get(savedKey())).toBe(String(SAVED_AT));
  });

  it('is unreadable, and the strictest policy, when a saved policy is gone', async () => {
    await store.set(ws, CUSTOM);
    await redis.del(policyKey());
    expect(await store.read(ws)).toEqual({ policy: STRICTEST_POLICY, state: 'unreadable' });
    expect(await store.get(ws)).toEqual(STRICTEST_POLICY);
    expect(logs.join('')).toContain('"why":"missing"');
  });

  it('is unreadable when what is stored is not JSON, or not an object, saved marker or not', async () => {
    for (const garbage of ['{"approvers": [', '', 'null', '[1,2]', '"anyone"', '42']) {
      await storeRaw(garbage);
      expect((await store.read(ws)).state, garbage).toBe('unreadable');
    }
    // The stored text itself never reaches the log.
    expect(logs.join('')).not.toContain('"approvers": [');
  });

  it('sets a field that is out of range or unknown to this version to its strictest value, that field only', async () => {
    const cases: [Partial<Record<keyof Policy, unknown>>, Partial<Policy>][] = [
      [{ needed: 9 }, { needed: 5 }],
      [{ needed: 1.5 }, { needed: 5 }],
      [{ expiryHours: -1 }, { expiryHours: 1 }],
      [{ requesters: 'robots' }, { requesters: 'listed' }],
      [{ orderers: 'everyone' }, { orderers: 'listed' }],
      [{ ordersNeedApproval: 'maybe' }, { ordersNeedApproval: true }],
      [{ recordChangesNeedApproval: 'no' }, { recordChangesNeedApproval: true }],
      [{ recordChangesNeedApproval: null }, { recordChangesNeedApproval: true }],
      [{ recordChangeExemptTypes: 'TXT' }, { recordChangeExemptTypes: [] }],
      [{ recordChangeExemptUsers: { id: 'UDNS' } }, { recordChangeExemptUsers: [] }],
      [{ assistantAnswers: 'everywhere' }, { assistantAnswers: 'asker' }],
      [{ admins: 'UADMIN' }, { admins: [] }],
      [{ assistantLinkHosts: { host: 'x' } }, { assistantLinkHosts: [] }],
      [{ watchManagers: 'everybody' }, { watchManagers: 'adder-and-admins' }],
      // Version 2's fields fail closed the same way: every class at the most approvals, agents off.
      [{ actions: { revoke: { approvals: 9 } } }, { actions: STRICTEST_POLICY.actions }],
      [{ mcp: 'everything' }, { mcp: 'off' }],
      [{ freezes: 'always' }, { freezes: [] }],
      // A list with a malformed entry keeps its well-formed ones.
      [{ approvers: ['UA', 7, null, 'UB'] }, { approvers: ['UA', 'UB'] }],
      [{ requesterUsers: [{ id: 'U1' }] }, { requesterUsers: [] }],
      // A record type this version does not know (a newer version's, or a typo) is dropped: its
      // changes need approval again; the types it knows stay exempt.
      [{ recordChangeExemptTypes: ['TXT', 'PTR', 'txt'] }, { recordChangeExemptTypes: ['TXT'] }],
      [{ recordChangeExemptUsers: ['UDNS', 42] }, { recordChangeExemptUsers: ['UDNS'] }],
    ];
    for (const [stored, expected] of cases) {
      await storeRaw({ ...CUSTOM, ...stored });
      const field = Object.keys(stored)[0] as keyof Policy;
      expect(await store.read(ws), field).toEqual({
        policy: { ...CUSTOM, ...expected },
        state: 'repaired',
        fields: [field],
      });
    }
    // An optional field that is malformed is left unset.
    await storeRaw({ ...CUSTOM, approverGroup: 12, approvalsChannel: ['C1'] });
    const read = await store.read(ws);
    const { approverGroup: _group, approvalsChannel: _channel, ...rest } = CUSTOM;
    expect(read).toEqual({ policy: rest, state: 'repaired', fields: ['approverGroup', 'approvalsChannel'] });
    expect('approverGroup' in read.policy).toBe(false);
    // Each repair is logged as a warning naming the field.
    const warnings = logs.filter((line) => line.includes('"level":"warn"'));
    expect(warnings.some((line) => line.includes('"fields":["needed"]'))).toBe(true);
    expect(warnings.some((line) => line.includes('"fields":["ordersNeedApproval"]'))).toBe(true);
  });

  it('gives a field missing from what was saved its default, as for a policy from before the field existed', async () => {
    const {
      ordersNeedApproval: _orders,
      assistantLinkHosts: _hosts,
      watchManagers: _watch,
      recordChangesNeedApproval: _records,
      recordChangeExemptTypes: _types,
      recordChangeExemptUsers: _users,
      ...older
    } = CUSTOM;
    await storeRaw({ ...older, aFieldFromANewerVersion: 'x' });
    expect(await store.read(ws)).toEqual({
      policy: {
        ...older,
        ordersNeedApproval: false,
        assistantLinkHosts: [],
        watchManagers: 'adder-and-admins',
        // A policy from before R47: record changes need approval, nothing exempt.
        recordChangesNeedApproval: true,
        recordChangeExemptTypes: [],
        recordChangeExemptUsers: [],
      },
      state: 'saved',
    });
  });

  it('counts a policy saved before the marker existed as saved, so losing it later is noticed', async () => {
    await storeRaw(CUSTOM);
    expect(await redis.get(savedKey())).toBeNull();
    expect((await store.read(ws)).state).toBe('saved');
    expect(await redis.get(savedKey())).toBe(String(SAVED_AT));
    await redis.del(policyKey());
    expect((await store.read(ws)).state).toBe('unreadable');
  });

  it('is readable again once saved again', async () => {
    await store.set(ws, CUSTOM);
    await storeRaw('garbage');
    expect((await store.read(ws)).state).toBe('unreadable');
    await store.set(ws, { ...CUSTOM, needed: 1 });
    expect(await store.read(ws)).toEqual({ policy: { ...CUSTOM, needed: 1 }, state: 'saved' });
  });
});
