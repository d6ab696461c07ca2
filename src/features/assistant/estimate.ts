import type { LimitWindow } from '../../config.js';
import type { Redis } from '../../shared/redis.js';
import { text } from '../../text/index.js';
import type { AssistantKeys } from './keys.js';

/** Until a few questions were answered, an answer is assumed to take this long. */
export const DEFAULT_ANSWER_MS = 5_000;
/** Weight of the newest measurement in the running average of answer times. */
const SMOOTHING = 0.3;
const TYPICAL_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A rate window as it stands: its limit, and when each call still inside it was made. */
export interface WindowState extends LimitWindow {
  /** Start times (ms, Redis clock) of the calls inside the window, oldest first. */
  calls: number[];
}

/**
 * When the question `ahead + 1`-th in line will have its answer, in ms from `now`. Questions run one
 * at a time (docs/requirements.md R13), each taking `typicalMs`, and each start must find room in
 * every rate window (R14), counting the starts predicted before it: the k-th start waits until the
 * window's oldest calls have aged out. Exact for a steady registrar; an estimate, not a promise.
 */
export function estimateMs(
  ahead: number,
  typicalMs: number,
  windows: readonly WindowState[],
  now: number,
): number {
  const starts: number[] = [];
  let at = now;
  for (let k = 0; k <= ahead; k++) {
    if (k > 0) at = Math.max(at, (starts[k - 1] ?? now) + typicalMs);
    // Each window may push the start later, which another window then checks again.
    for (const window of [...windows, ...windows]) {
      const calls = [...window.calls, ...starts].sort((a, b) => a - b);
      const inside = calls.filter((t) => t > at - window.windowMs);
      if (inside.length >= window.max) {
        const freeing = inside[inside.length - window.max];
        if (freeing !== undefined) at = Math.max(at, freeing + window.windowMs);
      }
    }
    starts.push(at);
  }
  return Math.max(0, (starts[ahead] ?? now) + typicalMs - now);
}

/** "about 40 s", "about 3 min": coarse on purpose, since the estimate moves as the queue does. */
export function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 10) return text.assistant.waitFewSeconds;
  if (seconds < 60) return text.assistant.waitSeconds({ seconds: Math.ceil(seconds / 5) * 5 });
  return text.assistant.waitMinutes({ minutes: Math.round(seconds / 60) });
}

/**
 * Estimates from what every process shares in Redis: the account's rate windows (the limiter's
 * sorted sets, scored by Redis time) and its typical answer time (a running average).
 */
export class Estimator {
  constructor(
    private readonly redis: Redis,
    private readonly keys: AssistantKeys,
    private readonly limits: { assistantKey: LimitWindow; assistantAccount: LimitWindow },
  ) {}

  /** When a question with `ahead` questions before it will be answered, in ms from now. */
  async estimate(account: string, ahead: number): Promise<number> {
    const [seconds, micros] = await this.redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const [typical, perKey, perAccount] = await Promise.all([
      this.typical(account),
      this.#window(this.keys.perKey(account), this.limits.assistantKey, now),
      this.#window(this.keys.perAccount(account), this.limits.assistantAccount, now),
    ]);
    return estimateMs(ahead, typical, [perKey, perAccount], now);
  }

  async typical(account: string): Promise<number> {
    const raw = await this.redis.get(this.keys.typical(account));
    const value = raw === null ? Number.NaN : Number(raw);
    return Number.isFinite(value) && value > 0 ? value : DEFAULT_ANSWER_MS;
  }

  /** One measured answer time (registrar call to answer) joins the running average. */
  async record(account: string, ms: number): Promise<void> {
    const key = this.keys.typical(account);
    const raw = await this.redis.get(key);
    const previous = raw === null ? Number.NaN : Number(raw);
    const next = Number.isFinite(previous) ? previous + SMOOTHING * (ms - previous) : ms;
    await this.redis.set(key, String(Math.max(1, Math.round(next))), 'EX', TYPICAL_TTL_SECONDS);
  }

  async #window(key: string, limit: LimitWindow, now: number): Promise<WindowState> {
    const scores = await this.redis.zrangebyscore(key, now - limit.windowMs, '+inf', 'WITHSCORES');
    const calls: number[] = [];
    // A call still in flight is scored ahead of now until its answer (limiter.ts): for an estimate it
    // counts from now, the soonest its answer can come.
    for (let i = 1; i < scores.length; i += 2) calls.push(Math.min(Number(scores[i]), now));
    return { ...limit, calls };
  }
}
