import { randomBytes } from 'node:crypto';
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
local lease = tonumber(ARGV[#ARGV - 1])
local wait = 0
for i = 1, #KEYS do
  local max = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  if redis.call('ZCARD', KEYS[i]) >= max then
    local oldest = tonumber(redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')[2])
    -- A call still in flight frees its unit a whole window after its answer, at the soonest.
    local until_free = (oldest > now and window or oldest + window - now) + 1
    if until_free > wait then wait = until_free end
  end
end
if wait > 0 or ARGV[#ARGV - 2] == 'peek' then return wait end
local member = ARGV[#ARGV]
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + lease, member)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]) + lease)
end
return 0`);

/**
 * How long a slot counts as in flight when it is never settled: its process died mid-call. Longer
 * than the registrar client's timeout (15 s), so a live call is always settled before it lapses.
 */
export const IN_FLIGHT_LEASE_MS = 30_000;

/** At most `max` calls per `windowMs` (the configuration's `REGFISH_LIMITS` entries have this shape). */
export interface LimitWindow {
  max: number;
  windowMs: number;
}

export interface QuotaWindow extends LimitWindow {
  /** Redis key of the window; windows used together must share a hash tag. */
  key: string;
}

export type QuotaResult = { ok: true } | { ok: false; retryAfterMs: number };

export class Limiter {
  constructor(private readonly redis: Redis) {}

  /** Take one unit from every window, or none and say how long until all have room. */
  acquire(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'take', newMember(), 0).then((wait) =>
      wait > 0 ? { ok: false, retryAfterMs: wait } : { ok: true },
    );
  }

  /** Would `acquire` succeed now? Takes nothing (used to refuse a request before it is even queued). */
  peek(windows: readonly QuotaWindow[]): Promise<QuotaResult> {
    return this.#run(windows, 'peek', newMember(), 0).then((wait) =>
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

  /** `leaseMs` > 0 takes the unit as in flight: counted until `now + leaseMs` unless settled sooner. */
  async #run(
    windows: readonly QuotaWindow[],
    mode: 'take' | 'peek',
    member: string,
    leaseMs: number,
  ): Promise<number> {
    if (windows.length === 0) return 0;
    const args = windows.flatMap((w) => [String(w.max), String(w.windowMs)]);
    return Number(
      await ACQUIRE.run(
        this.redis,
        windows.length,
        ...windows.map((w) => w.key),
        ...args,
        mode,
        String(leaseMs),
        member,
      ),
    );
  }

  /**
   * Wait for room (bounded by `maxWaitMs`), then take it, counted from now. Resolves false when the
   * wait would be longer. For calls whose answer is not awaited here; see `slotWithin` otherwise.
   */
  async acquireWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return (await this.#takeWithin(windows, maxWaitMs, 0, signal)) !== undefined;
  }

  /**
   * Like `acquireWithin`, for a call to an upstream that counts it on arrival. The slot counts as in
   * flight (later than any present moment) until `settle()`, called once the answer is in, puts it at
   * that moment. The upstream counted the call somewhere in between, so a window measured from the
   * settled time is never shorter than the upstream's, and no other call can take the unit while
   * this one is on its way, however long the way is: no safety margin is tuned to a machine's speed,
   * and none is wasted when the network is fast (docs/requirements.md R44).
   */
  async slotWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    signal?: AbortSignal,
  ): Promise<Slot | undefined> {
    const member = await this.#takeWithin(windows, maxWaitMs, IN_FLIGHT_LEASE_MS, signal);
    return member === undefined ? undefined : { settle: () => this.#settle(windows, member) };
  }

  async #takeWithin(
    windows: readonly QuotaWindow[],
    maxWaitMs: number,
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const deadline = Date.now() + maxWaitMs;
    const member = newMember();
    for (;;) {
      const wait = await this.#run(windows, 'take', member, leaseMs);
      if (wait === 0) return member;
      if (Date.now() + wait > deadline || signal?.aborted) return undefined;
      // A little jitter so waiting processes do not all retry in the same millisecond.
      await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * 10));
    }
  }

  /** `slotWithin` without waiting: the slot, or how long until there is room. */
  async take(
    windows: readonly QuotaWindow[],
  ): Promise<(Slot & { ok: true }) | { ok: false; retryAfterMs: number }> {
    const member = newMember();
    const wait = await this.#run(windows, 'take', member, IN_FLIGHT_LEASE_MS);
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
      // Other units of the window may still be in flight: the key lives as long as they might.
      String(IN_FLIGHT_LEASE_MS),
    );
  }
}

/**
 * A slot taken from quota windows, in flight until `settle()`: call it once the upstream has
 * answered or failed, or the call was not made after all (it then counts from that moment).
 */
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

/** Puts an in-flight slot at Redis's present time, in every window that still holds it. */
const SETTLE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  if redis.call('ZADD', KEYS[i], 'XX', 'CH', now, ARGV[1]) == 1 then
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[i + 1]) + tonumber(ARGV[#ARGV]))
  end
end
return 0`);

/**
 * The margin left on a window for what settling cannot see: the registrar's clock measuring the
 * window a little longer than Redis's does. Latency needs none (slots are in flight until answered,
 * `Limiter.slotWithin`), so this stays small and is not tuned to any machine: 1 % of the window, at
 * least 20 ms — with the documented 60 per minute, 0.6 s a minute (docs/requirements.md R14, R44).
 */
export function withLatencyMargin(windowMs: number): number {
  return windowMs + Math.max(20, Math.ceil(windowMs * 0.01));
}
