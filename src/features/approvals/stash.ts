import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/**
 * A request not made yet, kept while its requester gives a reason (the policy's `reason: required`)
 * or decides to break a freeze's glass: what a button or a modal carries is only this id (R10), so
 * the parameters cannot be edited on the way.
 */
export interface StashedRequest {
  requester: string;
  channel: string;
  operation: string;
  params: Record<string, unknown>;
  /** What the reason modal shows (the operation's summary, in the requester's language). */
  summary: string;
  breakGlass: boolean;
  /** The publish class's "needs an approval whatever the policy says" (someone else's order). */
  alwaysAsk: boolean;
  /** The policy lets this one through without approval (an exempt record type or person). */
  exempt: boolean;
}

const Stashed = z.lazy(() =>
  z.object({
    requester: z.string(),
    channel: z.string(),
    operation: z.string(),
    params: z.record(z.string(), z.unknown()),
    summary: z.string(),
    breakGlass: z.boolean(),
    alwaysAsk: z.boolean(),
    exempt: z.boolean(),
  }),
);

/** Long enough to write a reason or ask a colleague; a stale one is simply asked for again. */
const STASH_TTL_SECONDS = 15 * 60;

export class RequestStash {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(ref: WorkspaceRef, id: string): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'approvals', 'stash', id);
  }

  async put(ref: WorkspaceRef, request: StashedRequest): Promise<string> {
    const id = `stash_${randomBytes(8).toString('hex')}`;
    await this.redis.set(this.#key(ref, id), JSON.stringify(request), 'EX', STASH_TTL_SECONDS);
    return id;
  }

  /**
   * The stashed request, once, for its own requester only: another person's press neither sees nor
   * spends it. Undefined when it is gone, expired or not theirs.
   */
  async take(ref: WorkspaceRef, requester: string, id: string): Promise<StashedRequest | undefined> {
    const stashed = await this.peek(ref, requester, id);
    // Spent by the first press: a second press of the same button makes no second request.
    if (stashed === undefined || (await this.redis.del(this.#key(ref, id))) !== 1) return undefined;
    return stashed;
  }

  /** The stashed request without spending it (the reason modal shows its summary). */
  async peek(ref: WorkspaceRef, requester: string, id: string): Promise<StashedRequest | undefined> {
    if (!/^stash_[0-9a-f]{16}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.#key(ref, id));
    if (raw === null) return undefined;
    let parsed: ReturnType<typeof Stashed.safeParse>;
    try {
      parsed = Stashed.safeParse(JSON.parse(raw));
    } catch {
      return undefined;
    }
    return parsed.success && parsed.data.requester === requester ? parsed.data : undefined;
  }
}
