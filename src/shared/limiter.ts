import { randomBytes } from 'node:crypto';
import type { LimitWindow } from '../config.js';
import { LuaScript } from './lua.js';
import type { Redis } from './redis.js';

/**
 * Sliding-window quotas shared by every process through Redis (docs/requirements.md R14). A single script
 * checks all windows of a call at once (say, per key and per account) and records the call in every
 * one only when all have room, so two windows never disagree. Time is Redis's own clock, which all
 * processes share. `rate-limiter-flexible` offers fixed windows or one window per call; the registrar
 * counts in sliding windows, and a burst at a fixed window's edge would cause the 429 we must avoid.
 */
const ACQUIRE = new LuaScript(`
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
return 0`);

export interface QuotaWindow extends LimitWindow {
  /** Redis key of the window; windows used together must share a hash tag. */
  key: string;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterMs: number };

export class Limiter {
  constructor(private readonly redis: Redis) {}

  /** Take one unit from every window, or none and say how long until all have room. */
  acquire(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'take', newMember()).then((wait) =>
      wait > 0 ? { ok: false, retryAfterMs: wait } : { ok: true },
    );
  }

  /** Would `acquire` succeed now? Takes nothing (used to refuse a request before it is even queued). */
  peek(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'peek', newMember()).then((wait) =>
      wait > 0 ? { ok: false, retryAfterMs: wait } : { ok: true },
    );
  }

  /**
   * Counts a call that has just been answered, at the moment of its answer, whatever the windows
   * hold: the upstream counted it on arrival, somewhere before now, so the next call measured from
   * now cannot land inside the same window however long the network took (docs/requirements.md R44).
   */
  async record(windows: readonly QuotaWindow[]): Promise<void> {
    if (windows.length === 0) return;
    await RECORD.run(
      this.redis,
      windows.length,
      ...windows.map((w) => w.key),
      newMember(),
      ...windows.map((w) => String(w.windowMs)),
    );
  }

  async #run(windows: readonly QuotaWindow[], mode: 'take' | 'peek', member: string): Promise<number> {
    if (windows.length === 0) return 0;
    const args = windows.flatMap((w) => [String(w.max), String(w.windowMs)]);
    return Number(
      await ACQUIRE.run(this.redis, windows.length, ...windows.map((w) => w.key), ...args, mode, member),
    );
  }

  /** Wait for room (bounded by `maxWaitMs`), then take it. Resolves false when the wait would be longer. */
  async acquireWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return (await this.slotWithin(windows, maxWaitMs, signal)) !== undefined;
  }

  /**
   * Like `acquireWithin`, for a call to an upstream that counts it on arrival: the slot is first
   * recorded at the moment it is taken, and `settle()` (called once the answer is in) moves it to
   * that later moment. The upstream counted the call somewhere in between, so a window measured from
   * the settled time is never shorter than the upstream's, whatever the latency was: no fixed safety
   * margin is needed, and none is wasted when the network is fast.
   */
  async slotWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    signal?: AbortSignal,
  ): Promise<Slot | undefined> {
    const deadline = Date.now() + maxWaitMs;
    const member = newMember();
    for (;;) {
      const wait = await this.#run(windows, 'take', member);
      if (wait === 0) return { settle: () => this.#settle(windows, member) };
      if (Date.now() + wait > deadline || signal?.aborted) return undefined;
      // A little jitter so waiting processes do not all retry in the same millisecond.
      await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * 10));
    }
  }

  /**
   * `acquire` for a call whose slot is moved up to the moment it is sent (`settle()` just before the
   * request): work between taking the slot and sending (reading the key, building the question) then
   * cannot shift the upstream's count past the window's end.
   */
  async take(
    windows: readonly QuotaWindow[],
  ): Promise<(Slot & { ok: true }) | { ok: false; retryAfterMs: number }> {
    const member = newMember();
    const wait = await this.#run(windows, 'take', member);
    return wait > 0
      ? { ok: false, retryAfterMs: wait }
      : { ok: true, settle: () => this.#settle(windows, member) };
  }

  async #settle(windows: readonly QuotaWindow[], member: string): Promise<void> {
    if (windows.length === 0) return;
    await SETTLE.run(
      this.redis,
      windows.length,
      ...windows.map((w) => w.key),
      member,
      ...windows.map((w) => String(w.windowMs)),
    );
  }
}

/** A slot taken from quota windows; `settle()` once the upstream has answered (or failed). */
export interface Slot {
  settle(): Promise<void>;
}

const newMember = () => `${Date.now()}-${randomBytes(6).toString('hex')}`;

/** Moves a slot to Redis's present time, in every window that still holds it (never backwards). */
const RECORD = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[i + 1]))
end
return 0`);

const SETTLE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  local score = redis.call('ZSCORE', KEYS[i], ARGV[1])
  if score and tonumber(score) < now then
    redis.call('ZADD', KEYS[i], 'XX', now, ARGV[1])
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[i + 1]))
  end
end
return 0`);

/**
 * The margin left on a window for what settling cannot see: clock steps between Redis and the
 * upstream, and a slot that is never settled (its process died mid-call). Settled slots already
 * carry the real latency (see `Limiter.slotWithin`), so this stays small: 1 % of the window, at
 * least 20 ms — with the documented 60 per minute, 0.6 s a minute instead of a fixed ≥ 250 ms per
 * window (docs/requirements.md R14).
 */
export function withLatencyMargin(windowMs: number): number {
  return windowMs + Math.max(20, Math.ceil(windowMs * 0.01));
}
