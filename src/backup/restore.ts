import { randomBytes } from 'node:crypto';
import type { IntegrityMark } from '../shared/data-dir-mark.js';
import { type Incident, integrityKey } from '../shared/integrity.js';
import { LuaScript } from '../shared/lua.js';
import { type KeySpace, mastersOf, type Redis } from '../shared/redis.js';
import { type BackupHeader, type BackupKey, readBackup } from './format.js';

export interface Restored {
  header: BackupHeader;
  restored: number;
  /** Keys whose deadline passed between the backup and now: left out. */
  expired: number;
  /** Keys under the prefix before the restore, deleted. */
  removed: number;
  /** The integrity hash as the restore left it. */
  seq: number;
  epoch: number;
}

/** Reads the whole file once before Redis is touched: a damaged or foreign one changes nothing. */
export async function inspectBackup(path: string, keys: KeySpace): Promise<BackupHeader> {
  const samePrefix = (header: BackupHeader) => {
    if (header.prefix === keys.prefix) return;
    throw new Error(
      `${path} is a backup of the key prefix "${header.prefix}", and this Regdesk uses "${keys.prefix}" ` +
        `(REDIS_KEY_PREFIX). Set REDIS_KEY_PREFIX=${header.prefix} to restore it.`,
    );
  };
  const header = await readBackup(path, async ({ key }, found) => {
    samePrefix(found);
    if (!key.startsWith(`${keys.prefix}:`)) {
      throw new Error(`${path} holds the key ${key}, outside the key prefix "${keys.prefix}".`);
    }
  });
  samePrefix(header);
  return header;
}

// KEYS[1]: the integrity hash. ARGV: the copy's id, the lowest seq and epoch to move past, the copy's
// createdAt, the incident JSON (its epoch filled in here). The counter and the epoch move past the
// copy's, the replaced data's and the mark's.
const MARK_RESTORED = new LuaScript(`
local seq = math.max(tonumber(redis.call('HGET', KEYS[1], 'seq') or 0), tonumber(ARGV[2])) + 1
local epoch = math.max(tonumber(redis.call('HGET', KEYS[1], 'epoch') or 0), tonumber(ARGV[3])) + 1
local incident = cjson.decode(ARGV[5])
incident.epoch = epoch
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'seq', seq, 'epoch', epoch, 'createdAt', ARGV[4],
  'incident', cjson.encode(incident))
return {tostring(seq), tostring(epoch)}`);

const BATCH = 200;

/**
 * Replaces every key under the prefix with the copy's (docs/requirements.md R40). First of all the
 * integrity hash records the restore as an open incident and moves the approval epoch past every
 * request in the copy and in the data it replaces: whatever happens after, a request from before the
 * restore never executes, and every process that starts sees the incident (/readyz 503) until an
 * operator runs `regdesk data accept`. Only then are the old keys deleted and the copy's restored, so
 * a restore cut short leaves the data marked, never half-restored and unmarked.
 */
export async function restoreBackup(
  redis: Redis,
  keys: KeySpace,
  path: string,
  header: BackupHeader,
  mark: IntegrityMark | undefined,
): Promise<Restored> {
  const copy = header.integrity;
  const incident: Incident = {
    kind: 'rolled_back',
    detectedAt: Date.now(),
    detail: `restored with \`regdesk restore\` from a backup taken at ${header.takenAt}: approval requests from before the restore will not execute`,
    epoch: 0,
  };
  const id = copy?.id ?? (await redis.hget(integrityKey(keys), 'id')) ?? randomBytes(12).toString('hex');
  // The private Redis's mark saw what its data held last: nothing goes back behind it either.
  const marked = mark?.read();
  const [seq = '0', epoch = '0'] = (await MARK_RESTORED.run(
    redis,
    1,
    integrityKey(keys),
    id,
    String(Math.max(copy?.seq ?? 0, marked?.seq ?? 0)),
    String(Math.max(copy?.epoch ?? 0, marked?.epoch ?? 0)),
    copy?.createdAt ?? String(Date.now()),
    JSON.stringify(incident),
  )) as string[];
  const removed = await deleteAllBut(redis, keys, integrityKey(keys));
  let restored = 0;
  let expired = 0;
  let batch: BackupKey[] = [];
  const flush = async () => {
    const now = Date.now();
    const live = batch.filter((key) => key.expiresAt === null || key.expiresAt > now);
    expired += batch.length - live.length;
    await Promise.all(live.map((key) => restoreKey(redis, key, header)));
    restored += live.length;
    batch = [];
  };
  await readBackup(path, async (key) => {
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  });
  await flush();
  const state = { id, seq: Number(seq), epoch: Number(epoch) };
  mark?.write(state);
  return { header, restored, expired, removed, seq: state.seq, epoch: state.epoch };
}

/** Deletes every key under the prefix except `kept`, master by master; returns how many. */
async function deleteAllBut(redis: Redis, keys: KeySpace, kept: string): Promise<number> {
  let removed = 0;
  for (const node of mastersOf(redis)) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', `${keys.prefix}:*`, 'COUNT', 500);
      cursor = next;
      const doomed = found.filter((key) => key !== kept);
      if (doomed.length === 0) continue;
      // One key per UNLINK: on Redis Cluster keys of different slots never share a command.
      const pipeline = node.pipeline();
      for (const key of doomed) pipeline.unlink(key);
      for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
      removed += doomed.length;
    } while (cursor !== '0');
  }
  return removed;
}

async function restoreKey(redis: Redis, key: BackupKey, header: BackupHeader): Promise<void> {
  const payload = Buffer.from(key.dump, 'base64');
  const ttl =
    key.expiresAt === null
      ? ['0', payload, 'REPLACE']
      : [String(key.expiresAt), payload, 'REPLACE', 'ABSTTL'];
  try {
    await redis.call('RESTORE', key.key, ...ttl);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Redis refused the copy of ${key.key} (${why}). The backup was taken from Redis ${header.redis}: ` +
        'its copies open only on that version of Redis or a newer one.',
    );
  }
}
