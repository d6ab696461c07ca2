import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sealing key of `regdesk start`'s private Redis, kept beside its data (docs/requirements.md R38):
 * without VAULT_MASTER_KEY a process would seal with a key of its own and a second start could not
 * open the registrar key it finds. Only for the sandbox set-up of `npm start`: against a real
 * registrar VAULT_MASTER_KEY is required, and belongs in a secret store, not next to the data.
 */
export function localVaultKey(dataDir: string): Buffer {
  const path = join(dataDir, 'vault.key');
  if (existsSync(path)) {
    if ((statSync(path).mode & 0o077) !== 0) {
      throw new Error(`${path} is readable by other users: run \`chmod 600 ${path}\` and start again.`);
    }
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32)
      throw new Error(`${path} does not hold a 32-byte base64 key; restore it from your backup.`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
