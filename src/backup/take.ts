import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import type { Redis as SingleRedis } from 'ioredis';
import { integrityKey } from '../shared/integrity.js';
import { type KeySpace, mastersOf, type Redis } from '../shared/redis.js';
import { packageVersion } from '../shared/version.js';
import {
  type BackupHeader,
  type BackupIntegrity,
  endLine,
  FORMAT,
  headerLine,
  keyLine,
  VERSION,
} from './format.js';
import { leftOut } from './keys.js';

export interface TakenBackup {
  header: BackupHeader;
  keys: number;
}

/**
 * Copies every key under the prefix into `path` (src/backup/format.ts), master by master on Redis
 * Cluster (a SCAN sees one node). Regdesk is stopped (src/backup/target.ts), so the keys read one
 * after another are one moment's data. Written aside and renamed into place: a failed backup never
 * leaves a cut file under the name, nor destroys an earlier backup there.
 */
export async function takeBackup(redis: Redis, keys: KeySpace, path: string): Promise<TakenBackup> {
  const header: BackupHeader = {
    format: FORMAT,
    version: VERSION,
    prefix: keys.prefix,
    takenAt: new Date().toISOString(),
    regdesk: packageVersion(),
    redis: await redisVersion(redis),
    integrity: await readIntegrity(redis, keys),
  };
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // The copy holds the sealed vault, approval requests and the audit trail: the owner's alone.
  const file = await open(aside, 'wx', 0o600).catch((error: unknown) => {
    throw new Error(`cannot write ${path}: ${whyNot(error)}.`);
  });
  let count = 0;
  try {
    await file.write(headerLine(header));
    for (const node of mastersOf(redis)) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', `${keys.prefix}:*`, 'COUNT', 500);
        cursor = next;
        const lines = await copies(
          node,
          found.filter((key) => !leftOut(keys, key)),
        );
        if (lines.length > 0) await file.write(lines.join(''));
        count += lines.length;
      } while (cursor !== '0');
    }
    await file.write(endLine(count));
    await file.sync();
  } catch (error) {
    await file.close();
    await unlink(aside).catch(() => {});
    throw error;
  }
  await file.close();
  await rename(aside, path).catch(async (error: unknown) => {
    await unlink(aside).catch(() => {});
    throw new Error(`cannot write ${path}: ${whyNot(error)}.`);
  });
  return { header, keys: count };
}

/** The backup lines of `wanted`, all held by `node` (it answered the SCAN): one round trip. */
async function copies(node: SingleRedis, wanted: string[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const pipeline = node.pipeline();
  for (const key of wanted) pipeline.dumpBuffer(key).pttl(key);
  const replies = (await pipeline.exec()) ?? [];
  const now = Date.now();
  const lines: string[] = [];
  for (const [i, key] of wanted.entries()) {
    const [dumpError, dump] = replies[2 * i] ?? [];
    const [ttlError, ttl] = replies[2 * i + 1] ?? [];
    if (dumpError) throw dumpError;
    if (ttlError) throw ttlError;
    // Gone between the SCAN and the DUMP: it expired.
    if (!Buffer.isBuffer(dump) || typeof ttl !== 'number' || ttl === -2) continue;
    lines.push(keyLine({ key, expiresAt: ttl < 0 ? null : now + ttl, dump: dump.toString('base64') }));
  }
  return lines;
}

function whyNot(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'its folder does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

async function readIntegrity(redis: Redis, keys: KeySpace): Promise<BackupIntegrity | null> {
  const fields = await redis.hgetall(integrityKey(keys));
  if (fields.id === undefined) return null;
  return {
    id: fields.id,
    seq: Number(fields.seq ?? 0),
    epoch: Number(fields.epoch ?? 0),
    createdAt: fields.createdAt ?? '',
  };
}

async function redisVersion(redis: Redis): Promise<string> {
  const [first] = mastersOf(redis);
  const info = first === undefined ? '' : await first.info('server');
  return /redis_version:([\d.]+)/.exec(info)?.[1] ?? 'unknown';
}
