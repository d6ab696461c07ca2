import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import { masterKey } from '../vault/crypto.js';
import { localVaultKey } from '../vault/local-key.js';
import { type SecretKind, Vault } from '../vault/store.js';

/**
 * The vault as Regdesk opens it: VAULT_MASTER_KEY (and the previous one), else the private Redis's
 * sealing key beside its data, read only when it exists (doctor creates nothing). Undefined without a key.
 */
export function openVault(config: Config, redis: Redis, keys: KeySpace): Vault | undefined {
  const sealing = existsSync(join(config.dataDir, 'vault.key')) ? localVaultKey(config.dataDir) : undefined;
  const current = config.vault.masterKey ?? sealing;
  if (current === undefined) return undefined;
  const previous =
    config.vault.previousMasterKey === undefined
      ? undefined
      : masterKey(config.vault.previousMasterKey, 'VAULT_MASTER_KEY_PREVIOUS');
  return new Vault(redis, keys, masterKey(current), previous);
}

/** A stored workspace id (`E1:T1`, `-:T1`) as a reference. */
function refOf(workspace: string): WorkspaceRef {
  const [enterprise = '-', team = ''] = workspace.split(':');
  return enterprise === '-' ? { teamId: team } : { teamId: team, enterpriseId: enterprise };
}

/** Each workspace that stored a secret of `kind`, with the secret, or `unreadable` when it does not open. */
export async function storedSecrets(
  vault: Vault,
  kind: SecretKind,
): Promise<Array<{ workspace: WorkspaceRef; secret: string | 'unreadable' }>> {
  const entries = (await vault.list()).filter((entry) => entry.kind === kind);
  return Promise.all(
    entries.map(async (entry) => {
      const workspace = refOf(entry.workspace);
      if (!entry.readable) return { workspace, secret: 'unreadable' as const };
      const secret = await vault.get(workspace, kind).catch(() => undefined);
      return { workspace, secret: secret ?? ('unreadable' as const) };
    }),
  );
}

/** A workspace as a line names it: `T123`, or `E1/T123` in an Enterprise Grid. */
export function teamName(workspace: WorkspaceRef): string {
  return workspace.enterpriseId === undefined
    ? workspace.teamId
    : `${workspace.enterpriseId}/${workspace.teamId}`;
}
