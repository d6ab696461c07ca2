import { type Opened, VaultDecryptError } from './crypto.js';

/**
 * What a workspace record seals: the secret with who set it and when. Both sit inside the envelope,
 * so whoever can write to Redis cannot forge the "set by / set at" that admins see (R25).
 */
export interface VaultRecord {
  secret: string;
  setBy: string;
  setAt: number;
}

/**
 * The hash fields of one record kind. `by` and `at` are where the unversioned (`v1`) format kept its
 * metadata in the clear: read for such records until they are re-sealed, deleted on every write.
 */
export function fieldsOf(kind: string): { sealed: string; version: string; by: string; at: string } {
  return { sealed: kind, version: `${kind}:version`, by: `${kind}:by`, at: `${kind}:at` };
}

/** A record as read from the workspace's hash, before it is opened. */
export interface StoredRecord {
  sealed: string;
  version: string | null;
  by: string | null;
  at: string | null;
}

const VERSION = /^\d{1,15}$/;

/** The record's current version; 0 when it has none (written in the unversioned format). */
export function storedVersion(raw: string | null): number {
  if (raw === null) return 0;
  if (!VERSION.test(raw)) throw new VaultDecryptError('stored record version is corrupt (tampered)');
  return Number(raw);
}

/**
 * Versions start from the clock and then only grow (one more than the last, at least): a record
 * deleted and set again never takes a version an older copy of it carries. A stored version that is
 * not a number counts as 0 (as in store.ts's WRITE), so setting the secret again repairs it.
 */
export function nextVersion(raw: string | null, now: number): number {
  const previous = raw !== null && VERSION.test(raw) ? Number(raw) : 0;
  const next = Math.max(previous + 1, now);
  if (!VERSION.test(String(next))) {
    throw new VaultDecryptError(
      'stored record version is out of range (tampered): delete it, then set it again',
    );
  }
  return next;
}

export function encodeRecord(record: VaultRecord): string {
  return JSON.stringify({ secret: record.secret, setBy: record.setBy, setAt: record.setAt });
}

/**
 * The record inside an opened envelope. An unversioned (`v1`) envelope holds the bare secret, its
 * metadata being the clear fields beside it: trusted only until the next write or rotation re-seals it.
 */
export function decodeRecord(opened: Opened, stored: StoredRecord): VaultRecord {
  if (opened.version === 0) {
    return { secret: opened.plaintext, setBy: stored.by ?? '', setAt: Number(stored.at) || 0 };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened.plaintext);
  } catch {
    parsed = undefined;
  }
  const record = parsed as Partial<VaultRecord> | undefined;
  if (
    typeof record?.secret !== 'string' ||
    typeof record.setBy !== 'string' ||
    typeof record.setAt !== 'number'
  ) {
    throw new VaultDecryptError('stored secret opened but holds no vault record');
  }
  return { secret: record.secret, setBy: record.setBy, setAt: record.setAt };
}
