import type { WorkspaceRef } from '../../shared/workspace.js';
import { exportRecord, type StoredAuditEntry } from './entry.js';
import type { SinkName } from './outbox.js';

/** A delivery's outcome: every failure is a value, retried by the deliverer. */
export type Delivery = { ok: true } | { ok: false; reason: string };

/** Where audit entries go besides the trail (contract §2 AUDIT_WEBHOOK_URL, AUDIT_SYSLOG). */
export interface AuditSink {
  readonly name: SinkName;
  /** Delivers one entry; `signal` aborts it at shutdown. Never throws. */
  send(workspace: WorkspaceRef, entry: StoredAuditEntry, signal: AbortSignal): Promise<Delivery>;
  close(): Promise<void>;
}

/**
 * The JSON every sink carries: the workspace (`team`, and `enterprise` in an Enterprise Grid org) and
 * the entry as the exports hold it (`id` — unique in the workspace, the idempotency key — `hash`,
 * `prev`, `position` …). Entries hold ids and hashes, never a secret (docs/requirements.md R12).
 */
export function entryJson(workspace: WorkspaceRef, entry: StoredAuditEntry): string {
  return JSON.stringify({
    team: workspace.teamId,
    ...(workspace.enterpriseId === undefined ? {} : { enterprise: workspace.enterpriseId }),
    ...exportRecord(entry),
  });
}

/** Why a network call failed, for the log: the error's code or name, never the URL (it may hold a token). */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timeout';
  if (error.name === 'AbortError') return 'stopped';
  const cause = error.cause;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if ('code' in error && typeof error.code === 'string') return error.code;
  return error.name;
}
