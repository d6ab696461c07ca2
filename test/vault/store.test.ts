import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedis, KeySpace, type Redis } from '../../src/shared/redis.js';
import { masterKey } from '../../src/vault/crypto.js';
import { Vault } from '../../src/vault/store.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';

const CANARY = 'rf_canary_live_key_9f8e7d6c5b4a';
const A = { teamId: 'TAAAA' };
const B = { teamId: 'TBBBB' };

describe('Vault in Redis', () => {
  const redis: Redis = createRedis(testRedisUrl(), 'worker');
  let keys: KeySpace;
  const oldKey = masterKey(randomBytes(32));
  const newKey = masterKey(randomBytes(32));

  beforeEach(() => {
    keys = new KeySpace(`tv${randomBytes(4).toString('hex')}`);
  });
  afterAll(() => redis.disconnect());

  it('stores no plaintext secret anywhere in Redis, and reads it back', async () => {
    const vault = new Vault(redis, keys, newKey);
    await vault.put(A, 'registrar-key', CANARY, 'U1');
    await vault.put(
      { teamId: 'TCCCC', enterpriseId: 'E1111' },
      'slack-installation',
      `{"bot":"${CANARY}"}`,
      'oauth',
    );
    const dump = await allRedisText(redis, keys.prefix);
    expect(dump.length).toBeGreaterThan(0);
    expect(dump).not.toContain(CANARY);
    expect(dump).not.toContain(CANARY.slice(-8));
    expect(await vault.get(A, 'registrar-key')).toBe(CANARY);
  });

  it('lists entries masked, with who and when', async () => {
    const vault = new Vault(redis, keys, newKey, undefined, () => 1_700_000_000_000);
    await vault.put(A, 'registrar-key', CANARY, 'U1');
    const [entry] = await vault.list();
    expect(entry).toMatchObject({
      workspace: '-:TAAAA',
      masked: '••••5b4a',
      updatedBy: 'U1',
      readable: true,
    });
    expect(entry?.updatedAt).toBe(1_700_000_000_000);
    expect(JSON.stringify(await vault.list())).not.toContain(CANARY);
  });

  it("keeps workspaces apart: B cannot read A's key, and a copied ciphertext does not open", async () => {
    const vault = new Vault(redis, keys, newKey);
    await vault.put(A, 'registrar-key', CANARY, 'U1');
    expect(await vault.get(B, 'registrar-key')).toBeUndefined();
    const sealed = await redis.hget(keys.key('ws:-:TAAAA', 'vault'), 'registrar-key');
    await redis.hset(keys.key('ws:-:TBBBB', 'vault'), 'registrar-key', sealed ?? '');
    await expect(vault.get(B, 'registrar-key')).rejects.toThrow(/another workspace/);
    await vault.put(B, 'registrar-key', 'b-key-0000', 'U2');
    expect(await vault.get(A, 'registrar-key')).toBe(CANARY);
  });

  it('rotates to the new master key, survives an interrupted run, and is safe to re-run', async () => {
    const before = new Vault(redis, keys, oldKey);
    for (const team of ['T0001', 'T0002', 'T0003'])
      await before.put({ teamId: team }, 'registrar-key', `key-${team}`, 'U');
    const during = new Vault(redis, keys, newKey, oldKey);
    // An interrupted run: one record was already re-sealed, the others not.
    await during.put({ teamId: 'T0002' }, 'registrar-key', 'key-T0002', 'U');
    expect(await during.rotate()).toEqual({ rotated: 2, current: 1, failed: [] });
    expect(await during.rotate()).toEqual({ rotated: 0, current: 3, failed: [] });
    const after = new Vault(redis, keys, newKey);
    for (const team of ['T0001', 'T0002', 'T0003']) {
      expect(await after.get({ teamId: team }, 'registrar-key')).toBe(`key-${team}`);
    }
  });

  it('reports records no configured key opens, and lists them as unreadable', async () => {
    await new Vault(redis, keys, oldKey).put(A, 'registrar-key', CANARY, 'U1');
    const vault = new Vault(redis, keys, newKey);
    expect((await vault.rotate()).failed).toEqual(['-:TAAAA registrar-key']);
    expect((await vault.list())[0]).toMatchObject({ readable: false, masked: '(unreadable)' });
    await expect(vault.get(A, 'registrar-key')).rejects.toThrow(/neither VAULT_MASTER_KEY/);
  });

  it('deletes one record or a whole workspace', async () => {
    const vault = new Vault(redis, keys, newKey);
    await vault.put(A, 'registrar-key', CANARY, 'U1');
    await vault.put(A, 'slack-installation', '{}', 'oauth');
    expect(await vault.delete(A, 'registrar-key')).toBe(true);
    expect(await vault.delete(A, 'registrar-key')).toBe(false);
    expect(await vault.list()).toHaveLength(1);
    await vault.deleteWorkspace(A);
    expect(await vault.list()).toEqual([]);
    expect(await allRedisText(redis, keys.prefix)).toBe('');
  });

  it('keeps an auth code sealed for 24 h under its request id, readable again until Redis forgets it', async () => {
    const vault = new Vault(redis, keys, newKey);
    await vault.putExpiring(A, 'auth-code', 'apr_0000000000000001', CANARY);
    const key = keys.key('ws:-:TAAAA', 'vault', 'auth-code', 'apr_0000000000000001');
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(24 * 60 * 60 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await allRedisText(redis, keys.prefix)).not.toContain(CANARY);
    // Reading does not consume it: the requester may need to copy it again.
    expect(await vault.getExpiring(A, 'auth-code', 'apr_0000000000000001')).toBe(CANARY);
    expect(await vault.getExpiring(A, 'auth-code', 'apr_0000000000000001')).toBe(CANARY);
    expect(await vault.getExpiring(A, 'auth-code', 'apr_0000000000000002')).toBeUndefined();
    expect(await vault.getExpiring(B, 'auth-code', 'apr_0000000000000001')).toBeUndefined();

    // Bound to workspace and request: a copy under another request or workspace does not open.
    const sealed = (await redis.get(key)) ?? '';
    await redis.set(keys.key('ws:-:TAAAA', 'vault', 'auth-code', 'apr_0000000000000002'), sealed);
    await redis.set(keys.key('ws:-:TBBBB', 'vault', 'auth-code', 'apr_0000000000000001'), sealed);
    await expect(vault.getExpiring(A, 'auth-code', 'apr_0000000000000002')).rejects.toThrow(
      /tampered|another/,
    );
    await expect(vault.getExpiring(B, 'auth-code', 'apr_0000000000000001')).rejects.toThrow(
      /tampered|another/,
    );

    await redis.pexpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await vault.getExpiring(A, 'auth-code', 'apr_0000000000000001')).toBeUndefined();
  });

  it('forgets short-lived records with the workspace, and never lists or rotates them', async () => {
    const vault = new Vault(redis, keys, newKey);
    await vault.put(A, 'registrar-key', CANARY, 'U1');
    await vault.putExpiring(A, 'auth-code', 'apr_0000000000000003', 'code-1');
    expect((await vault.list()).map((entry) => entry.kind)).toEqual(['registrar-key']);
    expect(await new Vault(redis, keys, oldKey, newKey).rotate()).toEqual({
      rotated: 1,
      current: 0,
      failed: [],
    });
    await vault.deleteWorkspace(A);
    expect(await allRedisText(redis, keys.prefix)).toBe('');
  });
});
