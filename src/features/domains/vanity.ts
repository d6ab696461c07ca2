import { z } from 'zod';
import type { Delegation } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export type VanitySet = Delegation['vanity_sets'][number];

/** The stored form: the registrar's sets as parsed (nameservers already host strings). */
const StoredVanitySets = z.lazy(() =>
  z.array(
    z.looseObject({
      id: z.number().int(),
      host: z.string().optional(),
      nameservers: z.array(z.string()),
    }),
  ),
);

/**
 * The account's vanity nameserver sets as last seen. Spec v1.6.2 has no read endpoint for them
 * (docs/registrar-api.md §2.8): they come only with the answer to a delegation change, so Regdesk
 * remembers that answer (no secret).
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

  /**
   * Undefined when not known yet, and likewise when the stored value is not valid JSON of the
   * expected shape: a damaged copy is never shown, and the next delegation change replaces it.
   */
  async known(workspace: WorkspaceRef): Promise<VanitySet[] | undefined> {
    const raw = await this.redis.get(this.#key(workspace));
    if (raw === null) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const parsed = StoredVanitySets.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  }
}
