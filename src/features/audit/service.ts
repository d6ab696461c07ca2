import { createHash } from 'node:crypto';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** What happened (docs/requirements.md R12): requests, decisions, outcomes, and changes to the workspace's key. */
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
  | 'uninstall';

export interface AuditEntry {
  action: AuditAction;
  actor: string;
  operation?: string;
  /** The domain or certificate id acted on, for `/domain audit DOMAIN`. */
  target?: string;
  requestId?: string;
  paramsHash?: string;
  outcome?: string;
}

export interface StoredAuditEntry extends AuditEntry {
  id: string;
  at: number;
}

/** Default retention: the newest 10 000 entries of a workspace (approximate trim, O(1) per append). */
export const DEFAULT_AUDIT_RETENTION = 10_000;

/** Stable SHA-256 of an operation's parameters: proves what was approved without storing values. */
export function hashParams(params: Record<string, unknown>): string {
  const canonical = JSON.stringify(params, Object.keys(params).sort());
  return createHash('sha256').update(canonical).digest('hex');
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
  ) {}

  #stream(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'audit');
  }

  async append(ref: WorkspaceRef, entry: AuditEntry): Promise<string> {
    const fields = Object.entries(entry).flatMap(([key, value]) =>
      value === undefined ? [] : [key, String(value)],
    );
    const id = await this.redis.xadd(
      this.#stream(ref),
      'MAXLEN',
      '~',
      String(this.retention),
      '*',
      ...fields,
    );
    return id ?? '';
  }

  /** Newest first; with `target`, only entries about that domain or certificate. */
  async latest(
    ref: WorkspaceRef,
    options: { limit?: number; target?: string } = {},
  ): Promise<StoredAuditEntry[]> {
    const limit = options.limit ?? 20;
    const out: StoredAuditEntry[] = [];
    let end = '+';
    // Page backwards until enough matching entries are found or the stream is exhausted.
    for (let page = 0; page < 50 && out.length < limit; page++) {
      const rows = await this.redis.xrevrange(this.#stream(ref), end, '-', 'COUNT', 200);
      for (const [id, flat] of rows) {
        const entry = toEntry(id, flat);
        if (options.target === undefined || entry.target === options.target) out.push(entry);
        if (out.length >= limit) break;
      }
      const last = rows.at(-1);
      if (rows.length < 200 || last === undefined) break;
      end = `(${last[0]}`;
    }
    return out;
  }

  async deleteWorkspace(ref: WorkspaceRef): Promise<void> {
    await this.redis.del(this.#stream(ref));
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
  };
}
