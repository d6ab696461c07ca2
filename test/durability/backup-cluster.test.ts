import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedis,
  KeySpace,
  mastersOf,
  type Redis,
  scanKeys,
  waitForReady,
} from '../../src/shared/redis.js';
import { type ClusterTopology, startRedisCluster } from '../helpers/redis-topology.js';
import { regdesk } from './restore-support.js';

/** Every key under `prefix` with its DUMP (values and types) and whether it expires. */
async function everything(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const page of scanKeys(redis, `${prefix}:*`)) {
    for (const key of page) {
      const [dump, ttl] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
      found.set(key, `${dump?.toString('base64')} ${ttl > 0 ? 'expires' : 'kept'}`);
    }
  }
  return found;
}

/**
 * Issue #41: a backup and a restore on Redis Cluster, where a SCAN sees one master only: every key
 * of every master is copied and put back where its slot lives, claims and the presence set left out.
 */
describe('regdesk backup and restore on Redis Cluster', () => {
  let cluster: ClusterTopology;
  let redis: Redis;
  let dir: string;
  const keys = new KeySpace('tcluster');
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    const seed = { host: '127.0.0.1', port: cluster.ports[0] ?? 0 };
    redis = createRedis({ target: { mode: 'cluster', nodes: [seed] }, password: cluster.password }, 'worker');
    await waitForReady(redis, 15_000);
    dir = mkdtempSync(join(tmpdir(), 'regdesk-backup-cluster-'));
    env = { ...cluster.env, REDIS_KEY_PREFIX: keys.prefix };
  });
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('copies every master’s keys and puts them back, with their deadlines; the restore is marked', async () => {
    // Data of many workspaces (so of every master), of every type Regdesk stores.
    for (let i = 0; i < 30; i++) {
      const ws = `ws:-:T${i}`;
      await redis.set(keys.key(ws, 'policy'), JSON.stringify({ needed: i }));
      await redis.hset(
        keys.key(ws, 'approval', `apr_${i.toString(16).padStart(16, '0')}`),
        'state',
        'pending',
      );
      await redis.xadd(keys.key(ws, 'audit'), '*', 'action', 'policy_change');
      await redis.set(keys.key(ws, 'card', 'x'), 'look-up', 'PX', 3_600_000);
    }
    await redis.zadd(keys.key('acct:abc', 'assistant', 'queue'), 1, 'q1');
    await redis.sadd(keys.key('vault', 'workspaces'), '-:T0');
    await redis.hset(keys.key('meta', 'integrity'), { id: 'cafe', seq: 41, epoch: 2, createdAt: '1' });
    // Left out: a claim's durability marker, and a process entry that has lapsed.
    const claim = keys.key('ws:-:T0', 'approval', 'apr_0000000000000000', 'durable');
    await redis.set(claim, '1', 'PX', 60_000);
    await redis.zadd(keys.key('meta', 'processes'), 1, '{"host":"gone","pid":1}');
    const sizes = await Promise.all(mastersOf(redis).map((node) => node.dbsize()));
    expect(sizes.length).toBe(3);
    expect(sizes.every((size) => size > 0)).toBe(true);
    const before = await everything(redis, keys.prefix);
    before.delete(claim);
    before.delete(keys.key('meta', 'processes'));
    before.delete(keys.key('meta', 'integrity'));

    const file = join(dir, 'cluster.jsonl');
    const backup = await regdesk(['backup', file], env);
    expect(backup).toMatchObject({ code: 0 });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ integrity: { id: 'cafe', seq: 41, epoch: 2 } });
    expect(lines).toHaveLength(before.size + 2);
    expect(lines.some((line) => line.includes(':durable"'))).toBe(false);

    // After the backup: a key changed, one deleted, one added.
    await redis.set(keys.key('ws:-:T3', 'policy'), 'changed');
    await redis.del(keys.key('ws:-:T4', 'audit'));
    await redis.set(keys.key('ws:-:T5', 'later'), 'after the backup');
    await redis.hset(keys.key('meta', 'integrity'), 'seq', 99);

    const restore = await regdesk(['restore', file], env);
    expect(restore.code).toBe(0);
    expect(restore.output).toContain(`Restored ${before.size} keys`);
    const after = await everything(redis, keys.prefix);
    after.delete(keys.key('meta', 'integrity'));
    expect(after).toEqual(before);
    const marker = await redis.hgetall(keys.key('meta', 'integrity'));
    // Past both the copy's counter and the replaced data's, and a new epoch.
    expect(marker).toMatchObject({ id: 'cafe', seq: '100', epoch: '3', createdAt: '1' });
    expect(JSON.parse(marker.incident ?? '{}')).toMatchObject({ kind: 'rolled_back', epoch: 3 });
  });

  it('refuses while a process is present on the cluster', async () => {
    const present = JSON.stringify({ host: 'elsewhere', pid: 4242 });
    await redis.zadd(keys.key('meta', 'processes'), Date.now() + 60_000, present);
    const backup = await regdesk(['backup', join(dir, 'refused.jsonl')], env);
    expect(backup.code).toBe(1);
    expect(backup.output).toContain('pid 4242 on elsewhere');
    await redis.del(keys.key('meta', 'processes'));
  });
});
