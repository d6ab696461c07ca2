/** Slack's posting rule: one message a second per channel; arrivals this much early are let through (jitter). */
const POST_INTERVAL_MS = 1_000;
const POST_JITTER_MS = 100;
/** Tier 3 methods: about 50 calls a minute per workspace and method (docs.slack.dev "Rate limits"). */
const TIER3 = new Set(['chat.update', 'chat.delete', 'reactions.add', 'reactions.remove']);
const TIER3_LIMIT = { max: 50, windowMs: 60_000 };

/**
 * Slack's rate limits, for a stand-in that must not be more forgiving than Slack (the bench):
 * `chat.postMessage` once a second per channel, Tier 3 methods 50 a minute per method. A call
 * beyond them is answered 429 with `Retry-After` and counted in `limited`.
 */
export class SlackPacing {
  /** Calls answered 429, by method. */
  readonly limited = new Map<string, number>();
  readonly #lastPost = new Map<string, number>();
  readonly #tier3 = new Map<string, number[]>();

  /** Seconds to wait when Slack would refuse this call now, else undefined (and the call is counted). */
  refusal(method: string, args: Record<string, unknown>, at: number): number | undefined {
    let waitMs: number | undefined;
    if (method === 'chat.postMessage') {
      const channel = String(args.channel ?? '');
      const last = this.#lastPost.get(channel);
      if (last !== undefined && at - last < POST_INTERVAL_MS - POST_JITTER_MS)
        waitMs = last + POST_INTERVAL_MS - at;
      else this.#lastPost.set(channel, at);
    } else if (TIER3.has(method)) {
      const recent = (this.#tier3.get(method) ?? []).filter((t) => t > at - TIER3_LIMIT.windowMs);
      if (recent.length >= TIER3_LIMIT.max) waitMs = (recent[0] ?? at) + TIER3_LIMIT.windowMs - at;
      else recent.push(at);
      this.#tier3.set(method, recent);
    }
    if (waitMs === undefined) return undefined;
    this.limited.set(method, (this.limited.get(method) ?? 0) + 1);
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  /** Total 429 answers for the given methods (all methods when none are named). */
  limitedCount(...methods: string[]): number {
    let total = 0;
    for (const [method, count] of this.limited)
      if (methods.length === 0 || methods.includes(method)) total += count;
    return total;
  }
}
