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
  /** A Certificate Transparency issuance marked as known: no longer alerted (features/watches). */
  | 'ct_known'
  /** Validation records written at the registrar, and removed after issuance (features/publish). */
  | 'records_publish'
  | 'records_remove'
  /** A DNS record added, changed or deleted without an approval, as the policy allows (features/records). */
  | 'record_change'
  /** A request made during a freeze of its class, breaking the glass (features/approvals). */
  | 'break_glass'
  /** The policy's escalation contacts told of a request still short of approvals (features/approvals). */
  | 'escalate'
  /** An agent's tool call through /mcp, as the person who signed it in (features/mcp; `detail` names the client). */
  | 'agent_call'
  /** An agent's access revoked in the App Home (features/home/agents.ts; `target` is whose it was). */
  | 'agent_revoke';

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
  /** The stream id, unique in the workspace across both trails: the idempotency key of deliveries. */
  id: string;
  /** When it was written (ms): the `at` field (hashed), else, before the chain, the stream id's time. */
  at: number;
  /** Written by `append` (the shared counter of both trails); absent on entries from before it. */
  seq?: number;
  /** Its place in its chain (1, 2, …), the previous entry's hash and its own (docs/requirements.md R52). */
  position?: number;
  prev?: string;
  hash?: string;
}

/** The fields of an entry as stored: content fields only, in a fixed order, undefined ones left out. */
export function contentFields(entry: AuditEntry): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry)) if (value !== undefined) fields[key] = String(value);
  return fields;
}

/** A stream entry's flat `[field, value, …]` list as a record (a repeated field keeps its last value). */
export function fieldRecord(flat: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] ?? ''] = flat[i + 1] ?? '';
  return fields;
}

export function toEntry(id: string, flat: readonly string[]): StoredAuditEntry {
  const fields = fieldRecord(flat);
  return {
    id,
    at: fields.at === undefined ? Number(id.split('-')[0]) : Number(fields.at),
    action: fields.action as AuditAction,
    actor: fields.actor ?? '',
    ...(fields.operation === undefined ? {} : { operation: fields.operation }),
    ...(fields.target === undefined ? {} : { target: fields.target }),
    ...(fields.requestId === undefined ? {} : { requestId: fields.requestId }),
    ...(fields.paramsHash === undefined ? {} : { paramsHash: fields.paramsHash }),
    ...(fields.outcome === undefined ? {} : { outcome: fields.outcome }),
    ...(fields.detail === undefined ? {} : { detail: fields.detail }),
    ...(fields.seq === undefined ? {} : { seq: Number(fields.seq) }),
    ...(fields.position === undefined ? {} : { position: Number(fields.position) }),
    ...(fields.prev === undefined ? {} : { prev: fields.prev }),
    ...(fields.hash === undefined ? {} : { hash: fields.hash }),
  };
}

/**
 * One entry as the JSON Lines exports (`/domain audit export`, `regdesk audit export`) and the sinks
 * carry it: its time also in ISO 8601 for people reading the file, then every stored field.
 */
export function exportRecord(entry: StoredAuditEntry): Record<string, unknown> {
  return { time: new Date(entry.at).toISOString(), ...entry };
}

/**
 * The order entries were written in, across both trails: by the shared counter where both carry it
 * (entries written before it existed do not), else by stream id, which is time-ordered.
 */
export function inOrder(a: StoredAuditEntry, b: StoredAuditEntry): number {
  if (a.seq !== undefined && b.seq !== undefined) return a.seq - b.seq;
  return compareIds(a.id, b.id);
}

/** Orders stream ids (`ms-seq`) as Redis does: numerically by time, then by sequence. */
export function compareIds(a: string, b: string): number {
  const [at = 0, as = 0] = a.split('-').map(Number);
  const [bt = 0, bs = 0] = b.split('-').map(Number);
  return at === bt ? as - bs : at - bt;
}
