import type { KeySpace, Redis } from '../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../shared/workspace.js';
import { type MasterKey, mask, open, seal, sealedKeyId } from './crypto.js';

/** What the vault keeps: each workspace's registrar API key and its Slack installation (OAuth mode). */
export type SecretKind = 'registrar-key' | 'slack-installation';
export const SECRET_KINDS: readonly SecretKind[] = ['registrar-key', 'slack-installation'];

/**
 * Secrets held only for a while, one Redis key each so that Redis itself forgets them (a hash field
 * has no TTL before Redis 7.4): a transfer auth code waits 24 h for its requester to reveal it
 * (docs/requirements.md R28). They are not rotated: they are gone before a rotation could matter,
 * and the previous master key still opens them meanwhile.
 */
export type ExpiringKind = 'auth-code';
const LIFETIME_SECONDS: Record<ExpiringKind, number> = { 'auth-code': 24 * 60 * 60 };

export interface VaultEntry {
  workspace: string;
  kind: SecretKind;
  masked: string;
  updatedBy: string;
  updatedAt: number;
  keyId: string;
  /** False when the entry cannot be opened with the configured keys (it is listed, not hidden). */
  readable: boolean;
}

// Replace a field only if it still holds what rotation read, so a concurrent `set` always wins.
const COMPARE_AND_SET = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`;

/**
 * Secrets in Redis, sealed per workspace and kind (see crypto.ts). Each workspace's records share one
 * hash (one hash tag); an index set lists workspaces so listing and rotation need no SCAN.
 */
export class Vault {
  readonly #keys: readonly MasterKey[];

  constructor(
    private readonly redis: Redis,
    private readonly keySpace: KeySpace,
    private readonly current: MasterKey,
    previous?: MasterKey,
    private readonly now: () => number = Date.now,
  ) {
    this.#keys = previous === undefined ? [current] : [current, previous];
  }

  #hash(workspace: string): string {
    return this.keySpace.key(`ws:${workspace}`, 'vault');
  }

  #index(): string {
    return this.keySpace.key('vault', 'workspaces');
  }

  /** Same hash tag as the workspace's other records; the id (a request id) names the record. */
  #expiring(workspace: string, kind: ExpiringKind, id: string): string {
    return this.keySpace.key(`ws:${workspace}`, 'vault', kind, id);
  }

  async put(ref: WorkspaceRef, kind: SecretKind, secret: string, actor: string): Promise<void> {
    const workspace = workspaceId(ref);
    // Index first: a crash between the two leaves an index entry without a record, which list skips.
    await this.redis.sadd(this.#index(), workspace);
    await this.redis.hset(this.#hash(workspace), {
      [kind]: seal(secret, this.current, workspace, kind),
      [`${kind}:by`]: actor,
      [`${kind}:at`]: String(this.now()),
    });
  }

  async get(ref: WorkspaceRef, kind: SecretKind): Promise<string | undefined> {
    const workspace = workspaceId(ref);
    const sealed = await this.redis.hget(this.#hash(workspace), kind);
    return sealed === null ? undefined : open(sealed, this.#keys, workspace, kind);
  }

  /**
   * Seal a short-lived secret under `kind` and `id`. The AAD binds both (R25), so a ciphertext copied
   * to another workspace or another request's record fails to open.
   */
  async putExpiring(ref: WorkspaceRef, kind: ExpiringKind, id: string, secret: string): Promise<void> {
    const workspace = workspaceId(ref);
    const sealed = seal(secret, this.current, workspace, `${kind}:${id}`);
    await this.redis.set(this.#expiring(workspace, kind, id), sealed, 'EX', LIFETIME_SECONDS[kind]);
  }

  /** The secret, or undefined once its lifetime has passed. Reading does not consume it. */
  async getExpiring(ref: WorkspaceRef, kind: ExpiringKind, id: string): Promise<string | undefined> {
    const workspace = workspaceId(ref);
    const sealed = await this.redis.get(this.#expiring(workspace, kind, id));
    return sealed === null ? undefined : open(sealed, this.#keys, workspace, `${kind}:${id}`);
  }

  async describe(ref: WorkspaceRef, kind: SecretKind): Promise<VaultEntry | undefined> {
    const workspace = workspaceId(ref);
    const fields = await this.redis.hgetall(this.#hash(workspace));
    return this.#entry(workspace, kind, fields);
  }

  async delete(ref: WorkspaceRef, kind: SecretKind): Promise<boolean> {
    const workspace = workspaceId(ref);
    const removed = await this.redis.hdel(this.#hash(workspace), kind, `${kind}:by`, `${kind}:at`);
    if ((await this.redis.hlen(this.#hash(workspace))) === 0) await this.redis.srem(this.#index(), workspace);
    return removed > 0;
  }

  /** Everything the vault holds for a workspace (uninstall), short-lived records included. */
  async deleteWorkspace(ref: WorkspaceRef): Promise<void> {
    const workspace = workspaceId(ref);
    await this.redis.del(this.#hash(workspace));
    await this.redis.srem(this.#index(), workspace);
    const pattern = this.keySpace.key(`ws:${workspace}`, 'vault', '*');
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (found.length > 0) await this.redis.del(...found);
    } while (cursor !== '0');
  }

  async list(): Promise<VaultEntry[]> {
    const workspaces = (await this.redis.smembers(this.#index())).sort();
    const entries: VaultEntry[] = [];
    for (const workspace of workspaces) {
      const fields = await this.redis.hgetall(this.#hash(workspace));
      for (const kind of SECRET_KINDS) {
        const entry = this.#entry(workspace, kind, fields);
        if (entry !== undefined) entries.push(entry);
      }
    }
    return entries;
  }

  /**
   * Re-seal every record that is not under the current key. Each record is swapped with a
   * compare-and-set, so the run is safe to interrupt and to repeat, and never overwrites a newer set.
   */
  async rotate(): Promise<{ rotated: number; current: number; failed: string[] }> {
    const result = { rotated: 0, current: 0, failed: [] as string[] };
    for (const workspace of await this.redis.smembers(this.#index())) {
      const hash = this.#hash(workspace);
      for (const kind of SECRET_KINDS) {
        const sealed = await this.redis.hget(hash, kind);
        if (sealed === null) continue;
        if (sealedKeyId(sealed) === this.current.id) {
          result.current++;
          continue;
        }
        try {
          const resealed = seal(open(sealed, this.#keys, workspace, kind), this.current, workspace, kind);
          const swapped = await this.redis.eval(COMPARE_AND_SET, 1, hash, kind, sealed, resealed);
          if (swapped === 1) result.rotated++;
          else result.current++;
        } catch {
          result.failed.push(`${workspace} ${kind}`);
        }
      }
    }
    return result;
  }

  #entry(workspace: string, kind: SecretKind, fields: Record<string, string>): VaultEntry | undefined {
    const sealed = fields[kind];
    if (sealed === undefined) return undefined;
    let masked = '(unreadable)';
    let readable = true;
    try {
      const plaintext = open(sealed, this.#keys, workspace, kind);
      masked = kind === 'registrar-key' ? mask(plaintext) : '(installation)';
    } catch {
      readable = false;
    }
    return {
      workspace,
      kind,
      masked,
      updatedBy: fields[`${kind}:by`] ?? '',
      updatedAt: Number(fields[`${kind}:at`] ?? 0),
      keyId: sealedKeyId(sealed) ?? '?',
      readable,
    };
  }
}
