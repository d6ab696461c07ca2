/** Part 8 limits of the simulated service; tests shrink them. */
export interface SandboxLimits {
  availability: { max: number; windowMs: number };
  assistantKey: { max: number; windowMs: number };
  assistantAccount: { max: number; windowMs: number };
  authcodeDomainPerDay: number;
  authcodeAccountPerDay: number;
  /** The daily per-domain nameserver change limit's value is "not shown" (docs/registrar-api.md §8); 5 chosen. */
  nsChangesPerDomainPerDay: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  availability: { max: 60, windowMs: 60_000 },
  assistantKey: { max: 10, windowMs: 60_000 },
  assistantAccount: { max: 20, windowMs: 600_000 },
  authcodeDomainPerDay: 3,
  authcodeAccountPerDay: 10,
  nsChangesPerDomainPerDay: 5,
};

const DAY = 86_400_000;

/** Sliding windows by the injected clock: the service's own counting, which Regdesk must never trip. */
export class Windows {
  readonly #hits = new Map<string, number[]>();

  /** Counts the call and returns true when `key` has room for it within `windowMs`; else refuses. */
  take(key: string, max: number, windowMs: number, now: number): boolean {
    const hits = (this.#hits.get(key) ?? []).filter((at) => at > now - windowMs);
    if (hits.length >= max) {
      this.#hits.set(key, hits);
      return false;
    }
    hits.push(now);
    this.#hits.set(key, hits);
    return true;
  }

  /** All of `checks` have room, then each is counted; otherwise none is. */
  takeAll(checks: Array<{ key: string; max: number; windowMs: number }>, now: number): boolean {
    for (const check of checks) {
      const hits = (this.#hits.get(check.key) ?? []).filter((at) => at > now - check.windowMs);
      if (hits.length >= check.max) return false;
    }
    for (const check of checks) this.take(check.key, check.max, check.windowMs, now);
    return true;
  }

  perDay(key: string, max: number, now: number): boolean {
    return this.take(key, max, DAY, now);
  }
}
