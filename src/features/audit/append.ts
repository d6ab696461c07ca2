import { setTimeout as sleep } from 'node:timers/promises';
import { LuaScript } from '../../shared/lua.js';
import type { Redis } from '../../shared/redis.js';
import { entryHash, formatLink, parseLink, START } from './chain.js';
import { type AuditEntry, contentFields } from './entry.js';
import type { TrailKeys } from './keys.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Appends that lose the compare-and-set to another process this many times in a row give up. */
const MAX_TRIES = 50;

/**
 * One entry, linked to its chain, atomically (docs/requirements.md R52). KEYS: the chain's stream,
 * head and anchor, the shared counter, the outbox, then the other chain's stream, head and anchor.
 * ARGV: the head Node read, the new head, the retention cutoff (ms), the count cap (0: none) and its
 * slack, the workspace id when sinks are configured (else ''), then the entry's field/value pairs.
 *
 * - Compare-and-set: the entry's hash was computed in Node from the head it read (Lua in Redis has no
 *   SHA-256), so it is written only while the head is still that one; else the head is returned and
 *   Node tries again. The new head is set in the same step.
 * - Retention: entries older than the cutoff, and the oldest beyond the count cap (refusals), are
 *   trimmed exactly, and the newest of them becomes the anchor first, so the chain stays verifiable from
 *   its oldest kept entry. The cap is trimmed only once it is exceeded by the slack: the XRANGE that
 *   finds the anchor then reads `slack` entries once per `slack` appends.
 * - Id: `<ms>-<seq>`, the shared counter as the sequence part, so no two entries of a workspace share
 *   an id across its two streams (a delivery's idempotency key). The time part never goes back (a
 *   stream id must grow), whatever Redis's clock does.
 * - Outbox: with sinks configured the entry also goes to the workspace's outbox, in the same step.
 * - Every key of the trail loses its expiry: a workspace back after an uninstall keeps its trail for
 *   good again.
 */
const APPEND = new LuaScript(`
local head = redis.call('GET', KEYS[2]) or ''
if head ~= ARGV[1] then return {0, head} end
local function anchorAt(entry)
  local f = entry[2]
  local position, hash
  for i = 1, #f, 2 do
    if f[i] == 'position' then position = f[i + 1] elseif f[i] == 'hash' then hash = f[i + 1] end
  end
  if position and hash then redis.call('SET', KEYS[3], position .. ':' .. hash) end
end
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
if oldest and tonumber(string.match(oldest[1], '^(%d+)')) < tonumber(ARGV[3]) then
  local last = redis.call('XREVRANGE', KEYS[1], '(' .. ARGV[3] .. '-0', '-', 'COUNT', 1)[1]
  if last then anchorAt(last) end
  redis.call('XTRIM', KEYS[1], 'MINID', ARGV[3])
end
local cap = tonumber(ARGV[4])
if cap > 0 then
  local len = redis.call('XLEN', KEYS[1])
  if len >= cap + tonumber(ARGV[5]) then
    local doomed = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', len - cap + 1)
    anchorAt(doomed[#doomed])
    redis.call('XTRIM', KEYS[1], 'MAXLEN', cap - 1)
  end
end
local seq = redis.call('INCR', KEYS[4])
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('EXISTS', KEYS[1]) == 1 then
  local info = redis.call('XINFO', 'STREAM', KEYS[1])
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then
      local lastMs, lastSeq = string.match(info[i + 1], '^(%d+)-(%d+)$')
      lastMs, lastSeq = tonumber(lastMs), tonumber(lastSeq)
      if ms < lastMs then ms = lastMs end
      if ms == lastMs and seq <= lastSeq then ms = lastMs + 1 end
    end
  end
end
local id = redis.call('XADD', KEYS[1], string.format('%.0f-%.0f', ms, seq), 'seq', seq, unpack(ARGV, 7))
redis.call('SET', KEYS[2], ARGV[2])
if ARGV[6] ~= '' then
  redis.call('XADD', KEYS[5], '*', 'ws', ARGV[6], 'id', id, 'seq', seq, unpack(ARGV, 7))
end
for i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end
return {1, id}`);

export interface AppendSettings {
  retentionDays: number;
  /** How many refusals are kept (the refusals chain only). */
  refusalsKept: number;
  /** The workspace id to feed the outbox under, when sinks are configured. */
  outboxAs: string | undefined;
  now: () => number;
}

/** Appends `entry` to one chain of a workspace's trail; resolves to its stream id. */
export async function appendChained(
  redis: Redis,
  keys: TrailKeys,
  chain: 'trail' | 'refusals',
  entry: AuditEntry,
  settings: AppendSettings,
): Promise<string> {
  const own = keys[chain];
  const other = chain === 'trail' ? keys.refusals : keys.trail;
  const content = contentFields(entry);
  const cap = chain === 'refusals' ? Math.max(1, settings.refusalsKept) : 0;
  // A tenth of the cap: at most 10% more kept between trims, and one anchor read per `slack` appends.
  const slack = Math.max(1, Math.ceil(cap / 10));
  let head = (await redis.get(own.head)) ?? '';
  for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
    const link = head === '' ? START : parseLink(head);
    // Only a write outside Regdesk makes a head unreadable; entries are not written onto it unlinked.
    if (link === undefined) throw new Error(`audit chain head ${own.head} is not position:hash`);
    const at = settings.now();
    const place = { position: link.position + 1, prev: link.hash, at };
    const hash = entryHash(place, content);
    const reply = (await APPEND.run(
      redis,
      8,
      own.stream,
      own.head,
      own.anchor,
      keys.seq,
      keys.outbox,
      other.stream,
      other.head,
      other.anchor,
      head,
      formatLink({ position: place.position, hash }),
      String(at - settings.retentionDays * DAY_MS),
      String(cap),
      String(slack),
      settings.outboxAs ?? '',
      ...Object.entries(content).flat(),
      'at',
      String(at),
      'position',
      String(place.position),
      'prev',
      place.prev,
      'hash',
      hash,
    )) as [number, string];
    if (reply[0] === 1) return reply[1];
    head = reply[1];
    // Several processes appending to one chain: after a few lost rounds, spread out a little.
    if (attempt >= 3) await sleep(Math.floor(Math.random() * attempt * 2));
  }
  throw new Error(`audit chain ${own.stream} stayed busy for ${MAX_TRIES} tries`);
}
