/**
 * What one live check may cost (contract §3 "Live DNS against the open internet", docs/requirements.md
 * R49): a zone chooses how many nameservers and addresses it names, so without bounds one `/dns check`
 * of a hostile zone opens thousands of sockets and waits for every one.
 */
export interface CheckLimits {
  /** Addresses asked per nameserver host. */
  perHost: number;
  /** Distinct addresses asked directly (nameservers, not the configured resolvers) in one check. */
  direct: number;
  /** Questions in flight at once. */
  concurrent: number;
  /** The whole check answers within this; what is left unasked then is "could not check". */
  deadlineMs: number;
}

export const CHECK_LIMITS: CheckLimits = { perHost: 4, direct: 16, concurrent: 8, deadlineMs: 20_000 };

/** The bounds of one check: a deadline, a budget of direct addresses and a queue of questions. */
export class CheckBounds {
  readonly limits: CheckLimits;
  readonly #deadline: number;
  readonly #asked = new Set<string>();
  readonly #waiting: Array<() => void> = [];
  #running = 0;

  constructor(limits: CheckLimits = CHECK_LIMITS, now = Date.now()) {
    this.limits = limits;
    this.#deadline = now + limits.deadlineMs;
  }

  /** Milliseconds left before the deadline (0 once it has passed). */
  remainingMs(): number {
    return Math.max(0, this.#deadline - Date.now());
  }

  /** Whether `address` may still be asked directly: already asked, or the budget has room (and takes it). */
  takeAddress(address: string): boolean {
    if (this.#asked.has(address)) return true;
    if (this.#asked.size >= this.limits.direct) return false;
    this.#asked.add(address);
    return true;
  }

  /** Runs `question` when fewer than `concurrent` are in flight; undefined when the deadline passed first. */
  async run<T>(question: (remainingMs: number) => Promise<T>): Promise<T | undefined> {
    if (this.#running >= this.limits.concurrent)
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running++;
    try {
      const remaining = this.remainingMs();
      return remaining === 0 ? undefined : await question(remaining);
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }
}
