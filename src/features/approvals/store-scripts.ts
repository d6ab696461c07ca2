import { LuaScript } from '../../shared/lua.js';

// The approval store's Lua scripts: Redis-side text that reads apart from the TypeScript that calls it.

/** A requester's places (request ids scored by when they stop counting) last until the latest one ends. */
const KEEP_MINE = (key: string) =>
  `local last = redis.call('ZRANGE', ${key}, -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', ${key}, last[2]) end`;

// A place among the requester's pending requests, taken atomically so concurrent requests cannot
// overshoot the cap. ARGV: now, until, request id, cap. Entries past their time no longer count.
export const RESERVE = new LuaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
${KEEP_MINE('KEYS[1]')}
return 1`);

// One script per transition keeps every decision a single atomic compare-and-set (docs/requirements.md R9).
// Leaving `pending` also frees the requester's place (KEYS[3]).
export const APPROVE = new LuaScript(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing'} end
if state ~= 'pending' then return {'not_pending', state} end
if tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) <= tonumber(ARGV[2]) then return {'expired'} end
if redis.call('HGET', KEYS[1], 'requester') == ARGV[1] then return {'self'} end
local list = redis.call('HGET', KEYS[1], 'approvals')
for id in string.gmatch(list, '[^,]+') do
  if id == ARGV[1] then return {'duplicate'} end
end
if list == '' then list = ARGV[1] else list = list .. ',' .. ARGV[1] end
redis.call('HSET', KEYS[1], 'approvals', list)
local count = select(2, string.gsub(list, ',', ',')) + 1
if count >= tonumber(redis.call('HGET', KEYS[1], 'needed')) then
  redis.call('HSET', KEYS[1], 'state', 'approved', 'decidedBy', ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[3])
  return {'approved'}
end
return {'recorded', tostring(count)}`);

// ARGV: from-states (comma list), to-state, request id, then field/value pairs to set.
export const TRANSITION = new LuaScript(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing'} end
local allowed = false
for s in string.gmatch(ARGV[1], '[^,]+') do
  if s == state then allowed = true end
end
if not allowed then return {'not_allowed', state} end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[2] ~= 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[3])
end
return {'ok', state}`);

// A posted request: its message is recorded, its draft lifetime dropped, and it is listed as pending
// in the same step, so App Home never lists a request that has no message. The requester's place
// (KEYS[3]) now lasts until the request expires (ARGV[4]).
export const SHOW = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'messageTs', ARGV[1])
redis.call('PERSIST', KEYS[1])
if redis.call('HGET', KEYS[1], 'state') == 'pending' then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
  ${KEEP_MINE('KEYS[3]')}
end
return 1`);

// Fields set on a request that still exists (never re-creating a finished, expired hash).
export const SET_IF_EXISTS = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`);

// The approvers' reminder goes out once, and only while the request waits (R17: at-least-once jobs).
export const REMIND_ONCE = new LuaScript(`
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then return 0 end
return redis.call('HSETNX', KEYS[1], 'reminded', '1')`);
