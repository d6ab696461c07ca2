import type { Delegation } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export type VanitySet = Delegation['vanity_sets'][number];

/**
 * The account's vanity nameserver sets as last seen. Spec v1.6.2 has no read endpoint for them:
 * they come only with the answer to a delegation change, so Regdesk remembers that answer (no secret).
 */
export class VanitySets {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'vanity-sets');
  }

  async remember(workspace: WorkspaceRef, sets: readonly VanitySet[]): Promise<void> {
    await this.redis.set(this.#key(workspace), JSON.stringify(sets));
  }

  async known(workspace: WorkspaceRef): Promise<VanitySet[] | undefined> {
    const raw = await this.redis.get(this.#key(workspace));
    return raw === null ? undefined : (JSON.parse(raw) as VanitySet[]);
  }
}
