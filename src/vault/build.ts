import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { BaseDeps } from '../shared/deps.js';
import type { Logger } from '../shared/logger.js';
import { masterKey } from './crypto.js';
import { Vault } from './store.js';

export interface VaultDeps extends BaseDeps {
  vault: Config['vault'];
}

/** The vault, sealed with VAULT_MASTER_KEY (or, in sandbox mode without one, a key of this process). */
export function buildVault(deps: VaultDeps): Vault {
  const { vault } = deps;
  const current = vault.masterKey ?? ephemeralKey(deps.logger);
  const previous = vault.previousMasterKey;
  return new Vault(
    deps.redis,
    deps.keys,
    masterKey(current),
    previous === undefined ? undefined : masterKey(previous, 'VAULT_MASTER_KEY_PREVIOUS'),
    deps.now,
    // Processes must agree on key fingerprints (they name quota windows and the assistant's account
    // queue). With a temporary sealing key each process has its own, so in that sandbox-only case
    // fingerprints use a fixed key: they then protect nothing, and the sandbox's keys are demo keys.
    vault.masterKey === undefined ? masterKey(SANDBOX_FINGERPRINT_KEY) : undefined,
  );
}

/** Sandbox mode without VAULT_MASTER_KEY: a key for this process only, so nothing survives a restart. */
const SANDBOX_FINGERPRINT_KEY = createHash('sha256').update('regdesk sandbox fingerprints').digest();

function ephemeralKey(logger: Logger): Buffer {
  logger.warn(
    'VAULT_MASTER_KEY is not set: secrets stored now are sealed with a temporary key and lost on restart',
  );
  return randomBytes(32);
}
