import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimDurability, ClaimNotDurableError } from '../../src/shared/durable-claim.js';
import { createRedis, type Redis, waitForReady } from '../../src/shared/redis.js';
import { memoryLogger } from '../helpers/app-harness.js';
import { type SingleServer, startRedisServer } from '../helpers/redis-topology.js';

/**
 * docs/requirements.md R40 on Debian's Redis 7.0 (no WAITAOF): without a replica the claim is made
 * durable by a local claim file; with one, by `WAIT`.
 */
describe('an approval claim is durable before the registrar is called', () => {
  const servers: SingleServer[] = [];
  const connections: Redis[] = [];
  const dirs: string[] = [];
  let lone: SingleServer;

  beforeAll(async () => {
    lone = await startRedisServer(['appendonly yes']);
    servers.push(lone);
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await Promise.all(servers.map((server) => server.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function connect(url: string): Promise<Redis> {
    const redis = createRedis(url, 'request');
    connections.push(redis);
    await waitForReady(redis);
    return redis;
  }
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'regdesk-claims-'));
    dirs.push(dir);
    return dir;
  };

  it('writes a claim file on a lone Redis 7.0, and knows the claim afterwards', async () => {
    const redis = await connect(lone.url);
    const journal = join(tempDir(), 'claims');
    const durability = new ClaimDurability(redis, journal, memoryLogger().logger);
    const key = 'tclaim:{ws:-:T1}:approval:apr_0000000000000001';
    await redis.hset(key, 'state', 'executing');
    expect(durability.claimedHere(key)).toBe(false);
    await durability.confirm(key);
    expect(durability.claimedHere(key)).toBe(true);
    expect(readdirSync(journal)).toHaveLength(1);
    // Confirming again (a re-run of the same claim) is not an error.
    await durability.confirm(key);
    await durability.close();
  });

  it('refuses when neither the server nor a claim file can vouch for the claim', async () => {
    const redis = await connect(lone.url);
    const blocked = join(tempDir(), 'not-a-folder');
    writeFileSync(blocked, 'a file where the claim folder should be');
    const { logger, logs } = memoryLogger();
    const durability = new ClaimDurability(redis, blocked, logger);
    await expect(durability.confirm('tclaim:{ws:-:T1}:approval:apr_0000000000000002')).rejects.toBeInstanceOf(
      ClaimNotDurableError,
    );
    expect(logs.some((line) => line.includes('"level":"error"') && line.includes('claim not durable'))).toBe(
      true,
    );
    await durability.close();
  });

  it('with a replica attached, WAIT vouches for the claim even when no claim file can be written', async () => {
    const primary = await startRedisServer(['appendonly yes']);
    servers.push(primary);
    const replica = await startRedisServer([`replicaof 127.0.0.1 ${primary.port}`]);
    servers.push(replica);
    await expect
      .poll(async () => /state=online/.test(await primary.client.info('replication')), {
        timeout: 20_000,
      })
      .toBe(true);
    const redis = await connect(primary.url);
    const blocked = join(tempDir(), 'not-a-folder');
    writeFileSync(blocked, '');
    const { logger, logs } = memoryLogger();
    const durability = new ClaimDurability(redis, blocked, logger);
    const key = 'tclaim:{ws:-:T1}:approval:apr_0000000000000003';
    await redis.hset(key, 'state', 'executing');
    await durability.confirm(key);
    expect(logs.join('')).not.toContain('did not confirm');
    // What WAIT waited for is on the replica.
    expect(await replica.client.hget(key, 'state')).toBe('executing');
    expect(existsSync(join(blocked, 'x'))).toBe(false);
    await durability.close();
  });
});
