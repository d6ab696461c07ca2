import type { Readable } from 'node:stream';
import type { WorkspaceRef } from '../shared/workspace.js';
import type { Vault, VaultEntry } from './store.js';

export interface VaultCliIo {
  stdin: Readable & { isTTY?: boolean };
  out: (line: string) => void;
}

/** Checks a registrar key before it is stored; resolves to a problem text, or undefined when fine. */
export type KeyCheck = (apiKey: string) => Promise<string | undefined>;

const TEAM_ID = /^[TE][A-Z0-9]{2,}$/;

export function parseWorkspace(team: string, enterprise?: string): WorkspaceRef {
  if (!TEAM_ID.test(team)) throw new Error(`--team must be a Slack team id like T0123ABCD (got "${team}")`);
  if (enterprise !== undefined && !/^E[A-Z0-9]{2,}$/.test(enterprise)) {
    throw new Error(`--enterprise must be an Enterprise Grid id like E0123ABCD (got "${enterprise}")`);
  }
  return { teamId: team, ...(enterprise === undefined ? {} : { enterpriseId: enterprise }) };
}

/** The key comes on stdin, never as an argument: arguments show up in `ps` and shell history. */
export async function readSecret(io: VaultCliIo): Promise<string> {
  if (io.stdin.isTTY) io.out('Paste the registrar API key and press Enter, then Ctrl-D:');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const secret = Buffer.concat(chunks).toString('utf8').trim();
  if (secret === '' || /\s/.test(secret)) throw new Error('expected one API key on stdin');
  return secret;
}

export async function vaultSet(
  vault: Vault,
  ref: WorkspaceRef,
  io: VaultCliIo,
  check: KeyCheck | undefined,
  actor: string,
): Promise<void> {
  const secret = await readSecret(io);
  if (check !== undefined) {
    const problem = await check(secret);
    if (problem !== undefined) throw new Error(`not stored: ${problem}`);
  }
  await vault.put(ref, 'registrar-key', secret, actor);
  const entry = await vault.describe(ref, 'registrar-key');
  io.out(`Stored the registrar key ${entry?.masked ?? ''} for ${ref.teamId}.`);
}

export async function vaultList(vault: Vault, io: VaultCliIo): Promise<void> {
  const entries = await vault.list();
  if (entries.length === 0) {
    io.out('The vault is empty.');
    return;
  }
  io.out(['workspace', 'kind', 'secret', 'set by', 'set at', 'master key'].join('\t'));
  for (const entry of entries) {
    io.out(
      [
        entry.workspace,
        entry.kind,
        entry.masked,
        entry.updatedBy || '-',
        entry.updatedAt > 0 ? new Date(entry.updatedAt).toISOString() : '-',
        keyColumn(entry),
      ].join('\t'),
    );
  }
}

function keyColumn(entry: VaultEntry): string {
  if (!entry.readable) return `${entry.keyId} (cannot be opened with the configured keys)`;
  return entry.legacy ? `${entry.keyId} (old format: vault rotate re-seals it)` : entry.keyId;
}

export async function vaultDelete(vault: Vault, ref: WorkspaceRef, io: VaultCliIo): Promise<void> {
  const removed = await vault.delete(ref, 'registrar-key');
  io.out(
    removed
      ? `Deleted the registrar key of ${ref.teamId}.`
      : `No registrar key was stored for ${ref.teamId}.`,
  );
}

export async function vaultRotate(vault: Vault, io: VaultCliIo): Promise<boolean> {
  const result = await vault.rotate();
  io.out(`Re-encrypted ${result.rotated} secret(s); ${result.current} already under the current key.`);
  for (const failed of result.failed)
    io.out(`FAILED: ${failed} (does not open: wrong master key, tampered, or an older copy put back)`);
  return result.failed.length === 0;
}
