import { createCipheriv, randomBytes } from 'node:crypto';
import type { MasterKey } from '../../src/vault/crypto.js';

/**
 * The envelope Regdesk wrote before record versions (`v1`, AAD workspace|kind|key id, the bare secret
 * inside), built here by hand: the vault only reads it now.
 */
export function legacySeal(plaintext: string, master: MasterKey, workspace: string, kind: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(Buffer.from(`${workspace}|${kind}|${master.id}`, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return ['v1', master.id, ...parts].join('.');
}
