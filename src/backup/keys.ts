import { outboxKeys } from '../features/audit/keys.js';
import { presenceKey } from '../shared/backup-presence.js';
import { integrityKey } from '../shared/integrity.js';
import type { KeySpace } from '../shared/redis.js';

/**
 * The keys a backup leaves out:
 * - the integrity hash: it travels in the header, and a restore writes a new one
 *   (src/backup/restore.ts);
 * - the presence set and the audit deliverer's lease: processes running then, not data;
 * - approval execution claims' durability markers (`<approval key>:durable`,
 *   src/shared/durable-claim.ts). A claim must never be brought back by a restore; the claim files in
 *   REGDESK_DATA_DIR/claims are not Redis data and stay where they are.
 */
export function leftOut(keys: KeySpace, key: string): boolean {
  return (
    key === integrityKey(keys) ||
    key === presenceKey(keys) ||
    key === outboxKeys(keys).lease ||
    CLAIM_MARKER.test(key)
  );
}

const CLAIM_MARKER = /\}:approval:apr_[0-9a-f]+:durable$/;
