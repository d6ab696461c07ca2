import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedis, KeySpace, type Redis } from '../../src/shared/redis.js';
import { masterKey } from '../../src/vault/crypto.js';
import { Vault } from '../../src/vault/store.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';
import { legacySeal } from './legacy.js';

const A = { teamId: 'TAAAA' };
const OLD = 'rf_yesterdays_key_1111';
const NEW = 'rf_todays_key_2222';

/** docs/requirements.md R25: rollback, forged metadata, the pre-version format, and fingerprints. */
describe('Vault record integrity', () => {
  const redis: Redis = createRedis(testRedisUrl(), 'worker');
  const key = masterKey(randomBytes(32));
  let keys: KeySpace;
  let hash: string;
  let clock: number;
  const tick = () => clock++;

  beforeEach(() => {
    keys = new KeySpace(`ti${randomBytes(4).toString('hex')}`);
    hash = keys.key('ws:-:TAAAA', 'vault');
    clock = 1_700_000_000_000;
  });
  afterAll(() => redis.disconnect());

  it('refuses a sealed record put back from an older copy (rollback), wherever it is read', async () => {
    const vault = new Vault(redis, keys, key, undefined, tick);
    await vault.put(A, 'registrar-key', OLD, 'U1');
    const yesterday = (await redis.hget(hash, 'registrar-key')) ?? '';
    await vault.put(A, 'registrar-key', NEW, 'U2');
    await redis.hset(hash, 'registrar-key', yesterday);

    await expect(vault.get(A, 'registrar-key')).rejects.toThrow(/older copy was put back \(rollback\)/);
    expect(await vault.describe(A, 'registrar-key')).toMatchObject({
      readable: false,
      masked: '(unreadable)',
      updatedBy: '',
    });
    expect((await vault.rotate()).failed).toEqual(['-:TAAAA registrar-key']);
    // Without its version field the record is no older-format record either.
    await redis.hdel(hash, 'registrar-key:version');
    await expect(vault.get(A, 'registrar-key')).rejects.toThrow(/rollback/);
    // Setting the key again repairs it.
    await vault.put(A, 'registrar-key', NEW, 'U3');
    expect(await vault.get(A, 'registrar-key')).toBe(NEW);
  });

  it('does not take back a copy from before the key was removed and set again', async () => {
    const vault = new Vault(redis, keys, key, undefined, tick);
    await vault.put(A, 'registrar-key', OLD, 'U1');
    const before = (await redis.hget(hash, 'registrar-key')) ?? '';
    await vault.delete(A, 'registrar-key');
    await vault.put(A, 'registrar-key', NEW, 'U2');
    await redis.hset(hash, 'registrar-key', before);
    await expect(vault.get(A, 'registrar-key')).rejects.toThrow(/rollback/);
  });

  it('bumps the version on every write, and a racing put never leaves a record that does not open', async () => {
    const vault = new Vault(redis, keys, key, undefined, () => 1_700_000_000_000);
    await Promise.all(
      ['k-1111', 'k-2222', 'k-3333', 'k-4444'].map((k) => vault.put(A, 'registrar-key', k, 'U1')),
    );
    expect(await vault.get(A, 'registrar-key')).toMatch(/^k-\d{4}$/);
    const version = Number(await redis.hget(hash, 'registrar-key:version'));
    await vault.put(A, 'registrar-key', NEW, 'U1');
    expect(Number(await redis.hget(hash, 'registrar-key:version'))).toBe(version + 1);
    expect(await vault.get(A, 'registrar-key')).toBe(NEW);
  });

  it('keeps who set a key and when inside the sealed record, where it cannot be forged', async () => {
    const vault = new Vault(redis, keys, key, undefined, () => 1_700_000_000_000);
    await vault.put(A, 'registrar-key', NEW, 'UADMIN');
    expect(Object.keys(await redis.hgetall(hash)).sort()).toEqual(['registrar-key', 'registrar-key:version']);
    expect(await allRedisText(redis, keys.prefix)).not.toContain('UADMIN');
    await redis.hset(hash, 'registrar-key:by', 'UEVIL', 'registrar-key:at', '1');
    expect(await vault.describe(A, 'registrar-key')).toMatchObject({
      masked: '••••2222',
      updatedBy: 'UADMIN',
      updatedAt: 1_700_000_000_000,
      legacy: false,
    });
  });

  it('reads records of the unversioned format, and re-seals them on the next rotate or set', async () => {
    const legacy = legacySeal(OLD, key, '-:TAAAA', 'registrar-key');
    await redis.sadd(keys.key('vault', 'workspaces'), '-:TAAAA');
    await redis.hset(hash, {
      'registrar-key': legacy,
      'registrar-key:by': 'U1',
      'registrar-key:at': '1600000000000',
    });
    const vault = new Vault(redis, keys, key, undefined, tick);
    expect(await vault.get(A, 'registrar-key')).toBe(OLD);
    expect(await vault.list()).toMatchObject([
      { updatedBy: 'U1', updatedAt: 1_600_000_000_000, legacy: true },
    ]);

    // Under the current master key already, but re-sealed into the versioned format all the same.
    expect(await vault.rotate()).toEqual({ rotated: 1, current: 0, failed: [] });
    expect(Object.keys(await redis.hgetall(hash)).sort()).toEqual(['registrar-key', 'registrar-key:version']);
    expect(await vault.describe(A, 'registrar-key')).toMatchObject({
      updatedBy: 'U1',
      updatedAt: 1_600_000_000_000,
      legacy: false,
    });
    expect(await vault.rotate()).toEqual({ rotated: 0, current: 1, failed: [] });
    // Once versioned, the old-format copy is a rollback.
    await redis.hset(hash, 'registrar-key', legacy);
    await expect(vault.get(A, 'registrar-key')).rejects.toThrow(/rollback/);

    await redis.del(hash);
    await redis.hset(hash, { 'registrar-key': legacy, 'registrar-key:by': 'U1', 'registrar-key:at': '1' });
    await vault.put(A, 'registrar-key', NEW, 'U2');
    expect(Object.keys(await redis.hgetall(hash)).sort()).toEqual(['registrar-key', 'registrar-key:version']);
    expect(await vault.describe(A, 'registrar-key')).toMatchObject({ updatedBy: 'U2', legacy: false });
  });

  it('still reveals an auth code sealed in the unversioned format', async () => {
    const vault = new Vault(redis, keys, key);
    const id = 'apr_0000000000000009';
    const sealed = legacySeal('code-9', key, '-:TAAAA', `auth-code:${id}`);
    await redis.set(keys.key('ws:-:TAAAA', 'vault', 'auth-code', id), sealed, 'EX', 60);
    expect(await vault.getExpiring(A, 'auth-code', id)).toBe('code-9');
  });

  it('fingerprints keys with the master key: same in every process, never the plain SHA-256', async () => {
    const one = new Vault(redis, keys, key);
    const two = new Vault(redis, keys, masterKey(Buffer.from(key.key)), masterKey(randomBytes(32)));
    const other = new Vault(redis, keys, masterKey(randomBytes(32)), key);
    expect(one.fingerprint(NEW)).toMatch(/^[0-9a-f]{16}$/);
    expect(two.fingerprint(NEW)).toBe(one.fingerprint(NEW));
    expect(other.fingerprint(NEW)).not.toBe(one.fingerprint(NEW));
    expect(createHash('sha256').update(NEW).digest('hex')).not.toContain(one.fingerprint(NEW));
  });
});
