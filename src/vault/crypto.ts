import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Envelope for one secret (OWASP cryptographic storage; R25):
 * AES-256-GCM, a fresh random 12-byte IV per write, and additional authenticated data binding the
 * workspace, the record kind and the master key's id, so a ciphertext copied to another workspace or
 * kind fails to open. Format: `v1.<kid>.<iv>.<ciphertext>.<tag>` (base64url parts).
 */
const FORMAT = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

export class VaultKeyError extends Error {
  override readonly name = 'VaultKeyError';
}

export class VaultDecryptError extends Error {
  override readonly name = 'VaultDecryptError';
}

export interface MasterKey {
  /** Short public id of the key (a hash prefix), stored beside each ciphertext. */
  id: string;
  key: Buffer;
}

export function masterKey(key: Buffer | undefined, variable = 'VAULT_MASTER_KEY'): MasterKey {
  if (key === undefined || key.length !== KEY_BYTES) {
    throw new VaultKeyError(`${variable} must be ${KEY_BYTES} bytes (base64 of 32 random bytes)`);
  }
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 12), key: Buffer.from(key) };
}

function aad(workspace: string, kind: string, keyId: string): Buffer {
  return Buffer.from(`${workspace}|${kind}|${keyId}`, 'utf8');
}

export function seal(plaintext: string, key: MasterKey, workspace: string, kind: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(workspace, kind, key.id));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return [FORMAT, key.id, ...parts].join('.');
}

/** The id of the master key that sealed `sealed`, without opening it. */
export function sealedKeyId(sealed: string): string | undefined {
  const [format, keyId] = sealed.split('.');
  return format === FORMAT ? keyId : undefined;
}

export function open(sealed: string, keys: readonly MasterKey[], workspace: string, kind: string): string {
  const [format, keyId, ivText, bodyText, tagText, ...rest] = sealed.split('.');
  if (format !== FORMAT || !keyId || !ivText || bodyText === undefined || !tagText || rest.length > 0) {
    throw new VaultDecryptError('stored secret is not in a format this vault reads');
  }
  const key = keys.find((candidate) => candidate.id === keyId);
  if (key === undefined) {
    throw new VaultDecryptError(
      `stored secret was sealed with master key ${keyId}, which is neither VAULT_MASTER_KEY nor VAULT_MASTER_KEY_PREVIOUS`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(ivText, 'base64url'));
    decipher.setAAD(aad(workspace, kind, key.id));
    decipher.setAuthTag(Buffer.from(tagText, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(bodyText, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    // GCM says only "unable to authenticate": tampering, another workspace's record, or the wrong key.
    throw new VaultDecryptError(
      'stored secret failed authentication (tampered, or moved from another workspace)',
    );
  }
}

/** `••••abcd`: enough to recognise a key, never enough to use it. */
export function mask(secret: string): string {
  return secret.length <= 4 ? '••••' : `••••${secret.slice(-4)}`;
}
