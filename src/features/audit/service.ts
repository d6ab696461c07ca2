import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json.js';
import { LuaScript } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/**
 * What happened (docs/requirements.md R12): requests, decisions, outcomes, changes to the workspace's
 * key, certificate orders and reissues, refusals (R33), exports of the trail itself, and watch changes.
 */
export type AuditAction =
  | 'request'
  | 'approve'
  | 'deny'
  | 'withdraw'
  | 'expire'
  | 'execute'
  | 'succeed'
  | 'fail'
  | 'key_set'
  | 'key_replace'
  | 'key_remove'
  | 'policy_change'
  | 'uninstall'
  | 'refuse'
  /** Approvers were reminded of a request still undecided late in its life. */
  | 'remind'
  /** The requester opened the modal that shows their auth code (R28: the code itself never here). */
  | 'reveal'
  | 'order'
  | 'reissue'
  | 'export'
  /** A watch added or removed, the watch digest settings saved (features/watches). */
  | 'watch_add'
  | 'watch_remove'
  | 'watch_settings'
  /** Validation records written at the registrar, and removed after issuance (features/publish). */
  | 'records_publish'
  | 'records_remove'
  /** A DNS record added, changed or deleted without an approval, as the policy allows (features/records). */
  | 'record_change';

export interface AuditEntry {
  action: AuditAction;
  actor: string;
  operation?: string;
  /** The domain or certificate id acted on, for `/domain audit DOMAIN`. */
  target?: string;
  requestId?: string;
  paramsHash?: string;
  outcome?: string;
  /** What changed, where an action changes settings: the policy before → after (no secrets in it). */
  detail?: string;
}

export interface StoredAuditEntry extends AuditEntry {
  id: string;
  at: number;
  /** Written by `append` (the shared counter of both trails); absent on entries from before it. */
  seq?: number;
}

const PAGE = 500;

// An entry and its place in the workspace's order, atomically. KEYS: the trail, the counter; ARGV:
// retention, then field/value pairs. A workspace back after an uninstall keeps its trail for good
// again (PERSIST).
const APPEND = new LuaScript(`
local seq = redis.call('INCR', KEYS[2])
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'seq', seq, unpack(ARGV, 2))
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
return id`);

/** Default retention: the newest 10 000 entries of a workspace (approximate trim, O(1) per append). */
export const DEFAULT_AUDIT_RETENTION = 10_000;

/**
 * SHA-256 of an operation's parameters in canonical JSON (keys sorted at every depth, so nested
 * values such as DS records count): proves what was approved without storing values.
 */
export function hashParams(params: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(params)).digest('hex');
}

/**
 * Append-only audit trail: one Redis stream per workspace. Entries are never edited; the stream is
 * trimmed to the retention count. Nothing secret is ever passed in (callers give hashes and ids).
 */
export class AuditLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly retention = DEFAULT_AUDIT_RETENTION,
    /** Told of every entry once it is stored (the approvals-by-state metric counts from here). */
    private readonly observe?: (entry: AuditEntry) => void,
  ) {}

  #stream(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'audit');
  }

  /**
   * Refusals have a trail of their own, trimmed on its own: anyone can cause refusals (a script
   * pressing buttons), and they must not push requests, decisions and executions out of the trail.
   */
  #refusals(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'audit', 'refusals');
  }

  #streams(ref: WorkspaceRef): [string, string] {
    return [this.#stream(ref), this.#refusals(ref)];
  }

  /** One counter over both trails: entries of one millisecond keep the order they were written in. */
  #sequence(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'audit', 'seq');
  }

  async append(ref: WorkspaceRef, entry: AuditEntry): Promise<string> {
    const fields = Object.entries(entry).flatMap(([key, value]) =>
      value === undefined ? [] : [key, String(value)],
    );
    const stream = entry.action === 'refuse' ? this.#refusals(ref) : this.#stream(ref);
    const id = await APPEND.run(
      this.redis,
      2,
      stream,
      this.#sequence(ref),
      String(this.retention),
      ...fields,
    );
    this.observe?.(entry);
    return typeof id === 'string' ? id : '';
  }

  /**
   * After an uninstall the trail outlives everything else of the workspace for `keepMs`
   * (docs/requirements.md R36): the stream is the last thing that expires.
   */
  async retainAfterUninstall(ref: WorkspaceRef, keepMs: number): Promise<void> {
    for (const key of this.streamKeys(ref)) await this.redis.pexpire(key, keepMs);
  }

  /** The keys of the workspace's trail, which a purge of the workspace leaves in place. */
  streamKeys(ref: WorkspaceRef): string[] {
    return [...this.#streams(ref), this.#sequence(ref)];
  }

  /** Newest first, refusals among the rest; with `target`, only entries about that domain or certificate. */
  async latest(
    ref: WorkspaceRef,
    options: { limit?: number; target?: string } = {},
  ): Promise<StoredAuditEntry[]> {
    const limit = options.limit ?? 20;
    const each = await Promise.all(
      this.#streams(ref).map((stream) => this.#latestOf(stream, limit, options.target)),
    );
    // Stream ids are `ms-seq`: ordered in time across both streams.
    return each
      .flat()
      .sort((a, b) => inOrder(b, a))
      .slice(0, limit);
  }

  async #latestOf(stream: string, limit: number, target: string | undefined): Promise<StoredAuditEntry[]> {
    const out: StoredAuditEntry[] = [];
    let end = '+';
    // Unfiltered, the newest `limit` entries are all there is to read, however long the trail; a
    // filter pages backwards until enough entries match or the stream is exhausted.
    const count = target === undefined ? limit : 200;
    for (let page = 0; page < 50 && out.length < limit; page++) {
      const rows = await this.redis.xrevrange(stream, end, '-', 'COUNT', count);
      for (const [id, flat] of rows) {
        const entry = toEntry(id, flat);
        if (target === undefined || entry.target === target) out.push(entry);
        if (out.length >= limit) break;
      }
      const last = rows.at(-1);
      if (rows.length < count || last === undefined) break;
      end = `(${last[0]}`;
    }
    return out;
  }

  /** The whole trail, oldest first, refusals merged in (an export never holds more than a page of each). */
  async *all(ref: WorkspaceRef): AsyncGenerator<StoredAuditEntry> {
    const [mainKey, refusalsKey] = this.#streams(ref);
    const main = this.#pages(mainKey);
    const refusals = this.#pages(refusalsKey);
    let a = await main.next();
    let b = await refusals.next();
    while (!a.done || !b.done) {
      if (b.done || (!a.done && inOrder(a.value, b.value) <= 0)) {
        yield a.value as StoredAuditEntry;
        a = await main.next();
      } else {
        yield b.value;
        b = await refusals.next();
      }
    }
  }

  async *#pages(stream: string): AsyncGenerator<StoredAuditEntry> {
    let start = '-';
    for (;;) {
      const rows = await this.redis.xrange(stream, start, '+', 'COUNT', PAGE);
      for (const [id, flat] of rows) yield toEntry(id, flat);
      const last = rows.at(-1);
      if (rows.length < PAGE || last === undefined) return;
      start = `(${last[0]}`;
    }
  }

  async deleteWorkspace(ref: WorkspaceRef): Promise<void> {
    await this.redis.del(...this.streamKeys(ref));
  }
}

function toEntry(id: string, flat: string[]): StoredAuditEntry {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] ?? ''] = flat[i + 1] ?? '';
  return {
    id,
    at: Number(id.split('-')[0]),
    action: fields.action as AuditAction,
    actor: fields.actor ?? '',
    ...(fields.operation === undefined ? {} : { operation: fields.operation }),
    ...(fields.target === undefined ? {} : { target: fields.target }),
    ...(fields.requestId === undefined ? {} : { requestId: fields.requestId }),
    ...(fields.paramsHash === undefined ? {} : { paramsHash: fields.paramsHash }),
    ...(fields.outcome === undefined ? {} : { outcome: fields.outcome }),
    ...(fields.detail === undefined ? {} : { detail: fields.detail }),
    ...(fields.seq === undefined ? {} : { seq: Number(fields.seq) }),
  };
}

/**
 * The order entries were written in, across both trails: by the shared counter where both carry it
 * (entries written before it existed do not), else by stream id, which is time-ordered.
 */
function inOrder(a: StoredAuditEntry, b: StoredAuditEntry): number {
  if (a.seq !== undefined && b.seq !== undefined) return a.seq - b.seq;
  return compareIds(a.id, b.id);
}

/** Orders stream ids (`ms-seq`) as Redis does: numerically by time, then by sequence. */
function compareIds(a: string, b: string): number {
  const [at = 0, as = 0] = a.split('-').map(Number);
  const [bt = 0, bs = 0] = b.split('-').map(Number);
  return at === bt ? as - bs : at - bt;
}
