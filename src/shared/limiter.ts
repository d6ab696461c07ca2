import { randomBytes } from 'node:crypto';
import type { LimitWindow } from '../config.js';
import type { Redis } from './redis.js';

/**
 * Sliding-window quotas shared by every process through Redis (docs/requirements.md R14). A single script
 * checks all windows of a call at once (say, per key and per account) and records the call in every
 * one only when all have room, so two windows never disagree. Time is Redis's own clock, which all
 * processes share. `rate-limiter-flexible` offers fixed windows or one window per call; the registrar
 * counts in sliding windows, and a burst at a fixed window's edge would cause the 429 we must avoid.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i = 1, #KEYS do
  local max = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  if redis.call('ZCARD', KEYS[i]) >= max then
    local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    local until_free = tonumber(oldest[2]) + window - now + 1
    if until_free > wait then wait = until_free end
  end
end
if wait > 0 or ARGV[#ARGV - 1] == 'peek' then return wait end
local member = ARGV[#ARGV]
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return 0`;

export interface QuotaWindow extends LimitWindow {
  /** Redis key of the window; windows used together must share a hash tag. */
  key: string;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterMs: number };

export class Limiter {
  constructor(private readonly redis: Redis) {}

  /** Take one unit from every window, or none and say how long until all have room. */
  acquire(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'take');
  }

  /** Would `acquire` succeed now? Takes nothing (used to refuse a request before it is even queued). */
  peek(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'peek');
  }

  async #run(windows: readonly QuotaWindow[], mode: 'take' | 'peek'): Promise<QuotaResult> {
    if (windows.length === 0) return { ok: true };
    const args = windows.flatMap((w) => [String(w.max), String(w.windowMs)]);
    const member = `${Date.now()}-${randomBytes(6).toString('hex')}`;
    const wait = Number(
      await this.redis.eval(ACQUIRE, windows.length, ...windows.map((w) => w.key), ...args, mode, member),
    );
    return wait > 0 ? { ok: false, retryAfterMs: wait } : { ok: true };
  }

  /** Wait for room (bounded by `maxWaitMs`), then take it. Resolves false when the wait would be longer. */
  async acquireWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const result = await this.acquire(windows);
      if (result.ok) return true;
      if (Date.now() + result.retryAfterMs > deadline || signal?.aborted) return false;
      // A little jitter so waiting processes do not all retry in the same millisecond.
      await new Promise((resolve) => setTimeout(resolve, result.retryAfterMs + Math.random() * 25));
    }
  }
}

/**
 * A slot is taken here a little before the registrar counts the call (network latency varies per
 * request), so a schedule that is exact at our end can be a hair over at theirs. The window is
 * widened by 2 % (at least 250 ms): with the documented 60 per minute that costs about one check a
 * minute at full speed, and it removes the 429s.
 */
export function withLatencyMargin(windowMs: number): number {
  return windowMs + Math.max(250, Math.ceil(windowMs * 0.02));
}
