import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LuaScript } from './lua.js';
import type { KeySpace, Redis } from './redis.js';

/**
 * Who uses Regdesk's data now, so that `regdesk backup` and `restore` refuse while a process runs: a
 * copy taken under running processes is not one moment's data, and a restore under them would mix
 * two. Every process enters itself in `{meta}:processes` at each integrity check
 * (src/shared/integrity.ts), scored by when its entry lapses by Redis's own clock (hosts' clocks may
 * differ), and leaves at a clean stop. A process that dies without stopping counts until its entry
 * lapses: three check intervals.
 */

export function presenceKey(keys: KeySpace): string {
  return keys.key('meta', 'processes');
}

/** This process's entry: where it runs, for the refusal's message. */
export function presenceMember(): string {
  return JSON.stringify({ host: hostname(), pid: process.pid, n: randomBytes(4).toString('hex') });
}

/**
 * Lua for a script whose KEYS[2] is the presence set: enters ARGV[1] until Redis's now + ARGV[2] ms,
 * drops lapsed entries, and lets the set expire with its last entry.
 */
export const ENTER_PRESENCE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIREAT', KEYS[2], redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')[2])`;

// The entries that have not lapsed, with the ms each has left.
const PRESENT = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES')
for i = 2, #found, 2 do found[i] = tostring(tonumber(found[i]) - now) end
return found`);

export interface PresentProcess {
  host: string;
  pid: number;
  /** How long it still counts as running without another check. */
  lapsesInMs: number;
}

export async function presentProcesses(redis: Redis, keys: KeySpace): Promise<PresentProcess[]> {
  const found = (await PRESENT.run(redis, 1, presenceKey(keys))) as string[];
  const present: PresentProcess[] = [];
  for (let i = 0; i + 1 < found.length; i += 2) {
    const { host = '?', pid = 0 } = parseMember(found[i] ?? '');
    present.push({ host, pid, lapsesInMs: Number(found[i + 1]) });
  }
  return present;
}

function parseMember(member: string): { host?: string; pid?: number } {
  try {
    return JSON.parse(member) as { host?: string; pid?: number };
  } catch {
    return {};
  }
}
