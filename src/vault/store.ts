import { LuaScript } from '../shared/lua.js';
import { type KeySpace, type Redis, scanKeys } from '../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../shared/workspace.js';
import { fingerprinter, type MasterKey, mask, open, seal, sealedKeyId, VaultDecryptError } from './crypto.js';
import {
  decodeRecord,
  encodeRecord,
  fieldsOf,
  nextVersion,
  type StoredRecord,
  storedVersion,
  type VaultRecord,
} from './record.js';

/** What the vault keeps: each workspace's registrar API key and its Slack installation (OAuth mode). */
export type SecretKind = 'registrar-key' | 'slack-installation';
export const SECRET_KINDS: readonly SecretKind[] = ['registrar-key', 'slack-installation'];

/**
 * Secrets held only for a while, one Redis key each so that Redis itself forgets them (a hash field
 * has no TTL before Redis 7.4): a transfer auth code waits 24 h for its requester to reveal it
 * (docs/requirements.md R28). They are not rotated: they are gone before a rotation could matter,
 * and the previous master key still opens them meanwhile. Each is written once under its request id,
 * so there is no older copy to roll back to: they carry a fixed version.
 */
export type ExpiringKind = 'auth-code';
const LIFETIME_SECONDS: Record<ExpiringKind, number> = { 'auth-code': 24 * 60 * 60 };
const EXPIRING_VERSION = 1;

export interface VaultEntry {
  workspace: string;
  kind: SecretKind;
  masked: string;
  /** From inside the sealed record; empty and 0 when it cannot be opened (nothing to vouch for). */
  updatedBy: string;
  updatedAt: number;
  keyId: string;
  /** False when the entry cannot be opened with the configured keys (it is listed, not hidden). */
  readable: boolean;
  /** Still in the unversioned format: the next `set` or `vault rotate` re-seals it. */
  legacy: boolean;
}

/**
 * Replace a record and its version, only with a higher version than the one stored: versions only
 * grow, so a put that loses a race to a concurrent one (same or higher version) is simply ordered
 * before it. Rotation also requires the sealed value it re-sealed to be still there, so it never
 * undoes a `set`. The clear metadata of the unversioned format goes with the first versioned write.
 * A stored version that is not a number counts as 0, so re-entering a key always repairs the record.
 * KEYS: hash. ARGV: sealed field, version field, sealed read ('' for any), new sealed, new version,
 * old `by` field, old `at` field.
 */
const WRITE = new LuaScript(`
local stored = redis.call('HGET', KEYS[1], ARGV[2])
local version = 0
if stored and #stored <= 15 and string.match(stored, '^%d+$') then version = tonumber(stored) end
if version >= tonumber(ARGV[5]) then return 0 end
if ARGV[3] ~= '' and redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4], ARGV[2], ARGV[5])
redis.call('HDEL', KEYS[1], ARGV[6], ARGV[7])
return 1`);

type OpenedRecord = VaultRecord & { keyId: string; version: number };

/**
 * Secrets in Redis, sealed per workspace and kind (see crypto.ts). Each workspace's records share one
 * hash (one hash tag); an index set lists workspaces so listing and rotation need no SCAN.
 *
 * Each record has a version, kept beside it and bound into its AAD (R25): a sealed record put back
 * from an older copy (a dump, a backup) no longer matches the current version and fails to open.
 * Whoever can also put back the version field can roll back undetected; that needs a record of
 * versions outside Redis.
 */
export class Vault {
  readonly #keys: readonly MasterKey[];
  readonly #fingerprint: (secret: string) => string;

  constructor(
    private readonly redis: Redis,
    private readonly keySpace: KeySpace,
    private readonly current: MasterKey,
    previous?: MasterKey,
    private readonly now: () => number = Date.now,
    /** Fingerprints use the master key unless told otherwise (see `buildServices` in sandbox mode). */
    fingerprintKey: MasterKey = current,
  ) {
    this.#keys = previous === undefined ? [current] : [current, previous];
    this.#fingerprint = fingerprinter(fingerprintKey);
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

  /**
   * A keyed fingerprint of a secret (see `fingerprinter`): the name an API key goes by in Redis keys
   * (quota windows, the assistant's account queue), the same in every process with this master key.
   */
  fingerprint(secret: string): string {
    return this.#fingerprint(secret);
  }

  async put(ref: WorkspaceRef, kind: SecretKind, secret: string, actor: string): Promise<void> {
    const workspace = workspaceId(ref);
    // Index first: a crash between the two leaves an index entry without a record, which list skips.
    await this.redis.sadd(this.#index(), workspace);
    const version = await this.redis.hget(this.#hash(workspace), fieldsOf(kind).version);
    await this.#write(workspace, kind, { secret, setBy: actor, setAt: this.now() }, version);
  }

  async get(ref: WorkspaceRef, kind: SecretKind): Promise<string | undefined> {
    const workspace = workspaceId(ref);
    const stored = await this.#stored(workspace, kind);
    return stored === undefined ? undefined : this.#open(workspace, kind, stored).secret;
  }

  /**
   * Seal a short-lived secret under `kind` and `id`. The AAD binds both (R25), so a ciphertext copied
   * to another workspace or another request's record fails to open.
   */
  async putExpiring(ref: WorkspaceRef, kind: ExpiringKind, id: string, secret: string): Promise<void> {
    const workspace = workspaceId(ref);
    const sealed = seal(secret, this.current, workspace, `${kind}:${id}`, EXPIRING_VERSION);
    await this.redis.set(this.#expiring(workspace, kind, id), sealed, 'EX', LIFETIME_SECONDS[kind]);
  }

  /** The secret, or undefined once its lifetime has passed. Reading does not consume it. */
  async getExpiring(ref: WorkspaceRef, kind: ExpiringKind, id: string): Promise<string | undefined> {
    const workspace = workspaceId(ref);
    const sealed = await this.redis.get(this.#expiring(workspace, kind, id));
    return sealed === null ? undefined : open(sealed, this.#keys, workspace, `${kind}:${id}`).plaintext;
  }

  async describe(ref: WorkspaceRef, kind: SecretKind): Promise<VaultEntry | undefined> {
    return this.#entry(workspaceId(ref), kind);
  }

  async delete(ref: WorkspaceRef, kind: SecretKind): Promise<boolean> {
    const workspace = workspaceId(ref);
    const fields = fieldsOf(kind);
    const hash = this.#hash(workspace);
    const removed = await this.redis.hdel(hash, fields.sealed, fields.version, fields.by, fields.at);
    if ((await this.redis.hlen(hash)) === 0) await this.redis.srem(this.#index(), workspace);
    return removed > 0;
  }

  /** Everything the vault holds for a workspace (uninstall), short-lived records included. */
  async deleteWorkspace(ref: WorkspaceRef): Promise<void> {
    const workspace = workspaceId(ref);
    await this.redis.del(this.#hash(workspace));
    await this.redis.srem(this.#index(), workspace);
    const pattern = this.keySpace.key(`ws:${workspace}`, 'vault', '*');
    for await (const found of scanKeys(this.redis, pattern)) await this.redis.del(...found);
  }

  async list(): Promise<VaultEntry[]> {
    const workspaces = (await this.redis.smembers(this.#index())).sort();
    const entries: VaultEntry[] = [];
    for (const workspace of workspaces) {
      for (const kind of SECRET_KINDS) {
        const entry = await this.#entry(workspace, kind);
        if (entry !== undefined) entries.push(entry);
      }
    }
    return entries;
  }

  /**
   * Re-seal every record that is not under the current key, or still in the unversioned format.
   * Each record is swapped with a compare-and-set, so the run is safe to interrupt and to repeat, and
   * never overwrites a newer set. Records that do not open (or were rolled back) are reported.
   */
  async rotate(): Promise<{ rotated: number; current: number; failed: string[] }> {
    const result = { rotated: 0, current: 0, failed: [] as string[] };
    for (const workspace of await this.redis.smembers(this.#index())) {
      for (const kind of SECRET_KINDS) {
        const stored = await this.#stored(workspace, kind);
        if (stored === undefined) continue;
        try {
          const record = this.#open(workspace, kind, stored);
          if (record.keyId === this.current.id && record.version > 0) {
            result.current++;
          } else if (await this.#write(workspace, kind, record, stored.version, stored.sealed)) {
            result.rotated++;
          } else {
            result.current++; // a concurrent set wrote it under the current key
          }
        } catch {
          result.failed.push(`${workspace} ${kind}`);
        }
      }
    }
    return result;
  }

  async #stored(workspace: string, kind: SecretKind): Promise<StoredRecord | undefined> {
    const fields = fieldsOf(kind);
    const [sealed, version, by, at] = await this.redis.hmget(
      this.#hash(workspace),
      fields.sealed,
      fields.version,
      fields.by,
      fields.at,
    );
    return sealed == null ? undefined : { sealed, version: version ?? null, by: by ?? null, at: at ?? null };
  }

  /** Opens a record and refuses it unless the version sealed inside is the record's current one. */
  #open(workspace: string, kind: SecretKind, stored: StoredRecord): OpenedRecord {
    const expected = storedVersion(stored.version);
    const opened = open(stored.sealed, this.#keys, workspace, kind);
    if (opened.version !== expected) {
      throw new VaultDecryptError(
        `stored secret is version ${opened.version} but the record is at version ${expected}: ` +
          'an older copy was put back (rollback), or it was tampered with',
      );
    }
    return { ...decodeRecord(opened, stored), keyId: opened.keyId, version: opened.version };
  }

  /**
   * Seals `record` at a version above `version` (the one read) and stores it if no write with a
   * version as high came first; with `sealedRead`, only if that sealed value is still the record.
   */
  async #write(
    workspace: string,
    kind: SecretKind,
    record: VaultRecord,
    version: string | null,
    sealedRead = '',
  ): Promise<boolean> {
    const next = nextVersion(version, this.now());
    const sealed = seal(encodeRecord(record), this.current, workspace, kind, next);
    const fields = fieldsOf(kind);
    const written = await WRITE.run(
      this.redis,
      1,
      this.#hash(workspace),
      fields.sealed,
      fields.version,
      sealedRead,
      sealed,
      String(next),
      fields.by,
      fields.at,
    );
    return written === 1;
  }

  async #entry(workspace: string, kind: SecretKind): Promise<VaultEntry | undefined> {
    const stored = await this.#stored(workspace, kind);
    if (stored === undefined) return undefined;
    try {
      const record = this.#open(workspace, kind, stored);
      return {
        workspace,
        kind,
        masked: kind === 'registrar-key' ? mask(record.secret) : '(installation)',
        updatedBy: record.setBy,
        updatedAt: record.setAt,
        keyId: record.keyId,
        readable: true,
        legacy: record.version === 0,
      };
    } catch {
      const keyId = sealedKeyId(stored.sealed) ?? '?';
      return {
        workspace,
        kind,
        masked: '(unreadable)',
        updatedBy: '',
        updatedAt: 0,
        keyId,
        readable: false,
        legacy: false,
      };
    }
  }
}
