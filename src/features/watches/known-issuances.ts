import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** Issuances marked as known per workspace: enough for years of a large account's certificates. */
const MAX_KNOWN = 10_000;
/** A mark outlives any certificate it concerns (at most 398 days under the CA/B Forum's rules). */
const KNOWN_TTL_S = 400 * 86_400;

/**
 * Certificate Transparency issuances a person marked as known (**Mark as known**, mark-known.ts), by
 * their TBS SHA-256: never alerted again, whichever zone's search finds them (a parent's and a
 * child's watch see the same issuance). A sorted set by marking time, trimmed to the newest
 * MAX_KNOWN and lapsing a year after the last mark, under the workspace's hash tag.
 */
export class KnownIssuances {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'watch', 'ct-known');
  }

  /** True when it was not marked before. */
  async mark(workspace: WorkspaceRef, tbsSha256: string, now: number): Promise<boolean> {
    const key = this.#key(workspace);
    const results = await this.redis
      .multi()
      .zadd(key, 'NX', now, tbsSha256)
      .zremrangebyrank(key, 0, -(MAX_KNOWN + 1))
      .expire(key, KNOWN_TTL_S)
      .exec();
    return Number(results?.[0]?.[1] ?? 0) === 1;
  }

  async has(workspace: WorkspaceRef, tbsSha256: string): Promise<boolean> {
    return (await this.redis.zscore(this.#key(workspace), tbsSha256)) !== null;
  }
}
