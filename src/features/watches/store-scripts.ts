import { LuaScript } from '../../shared/lua.js';
/** The watch list's Lua scripts (store.ts): each runs atomically, so its checks and writes cannot interleave. */

/**
 * Adds watches unless the workspace would then watch more than its limit, or the adder more than the
 * per-person cap; all or nothing, atomic, so two people (or one person twice) adding at once cannot
 * pass either together. New items are due at once. The adder's items are counted from the items
 * themselves (at most the workspace's limit of them), so no counter can drift from the list.
 * KEYS: items, due. ARGV: limit, dueAt, cap (-1: none), adder, then field/json pairs.
 * Returns {added, total, mine}, {-1, total, mine} over the limit, {-2, total, mine} over the cap.
 */
export const ADD = new LuaScript(`
local limit = tonumber(ARGV[1])
local cap = tonumber(ARGV[3])
local fresh = {}
for i = 5, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then table.insert(fresh, i) end
end
local total = redis.call('HLEN', KEYS[1])
local mine = 0
for _, json in ipairs(redis.call('HVALS', KEYS[1])) do
  local ok, item = pcall(cjson.decode, json)
  if ok and type(item) == 'table' and item.addedBy == ARGV[4] then mine = mine + 1 end
end
if total + #fresh > limit then return {-1, total, mine} end
if cap >= 0 and mine + #fresh > cap then return {-2, total, mine} end
for _, i in ipairs(fresh) do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[i])
end
return {#fresh, total + #fresh, mine + #fresh}`);

/**
 * Removes watches with their state, atomically; with `onlyBy` set, only those that person added (the
 * others are returned apart, so the refusal can name who added them).
 * KEYS: items, state, due. ARGV: onlyBy ('' for anyone's), then fields.
 * Returns {removed item jsons, refused item jsons}.
 */
export const REMOVE = new LuaScript(`
local removed, refused = {}, {}
for i = 2, #ARGV do
  local json = redis.call('HGET', KEYS[1], ARGV[i])
  if json then
    local by = nil
    if ARGV[1] ~= '' then
      local ok, item = pcall(cjson.decode, json)
      if ok and type(item) == 'table' then by = item.addedBy end
    end
    if ARGV[1] ~= '' and by ~= ARGV[1] then
      table.insert(refused, json)
    else
      redis.call('HDEL', KEYS[1], ARGV[i])
      redis.call('HDEL', KEYS[2], ARGV[i])
      redis.call('ZREM', KEYS[3], ARGV[i])
      table.insert(removed, json)
    end
  end
end
return {removed, refused}`);
