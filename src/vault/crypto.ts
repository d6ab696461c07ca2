import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Envelope for one secret (OWASP cryptographic storage; docs/requirements.md R25):
 * AES-256-GCM, a fresh random 12-byte IV per write, and additional authenticated data binding the
 * workspace, the record kind, the master key's id and the record's version, so a ciphertext copied to
 * another workspace or kind fails to open, and the store can refuse an older copy of a record.
 * Format: `v2.<kid>.<version>.<iv>.<ciphertext>.<tag>` (binary parts base64url). The key id and the
 * version are readable without the key, and authenticated through the AAD.
 *
 * `v1.<kid>.<iv>.<ciphertext>.<tag>` (AAD without a version) is what Regdesk wrote before record
 * versions; it still opens, as version 0, so existing records keep working until they are re-sealed.
 */
const FORMAT = 'v2';
const LEGACY_FORMAT = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;
const FINGERPRINT_INFO = 'regdesk key fingerprint v1';

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

export interface Opened {
  plaintext: string;
  keyId: string;
  /** The version bound into the AAD; 0 for a record of the `v1` format. */
  version: number;
}

export function masterKey(key: Buffer | undefined, variable = 'VAULT_MASTER_KEY'): MasterKey {
  if (key === undefined || key.length !== KEY_BYTES) {
    throw new VaultKeyError(`${variable} must be ${KEY_BYTES} bytes (base64 of 32 random bytes)`);
  }
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 12), key: Buffer.from(key) };
}

function aad(workspace: string, kind: string, keyId: string, version: number): Buffer {
  const bound = version === 0 ? [workspace, kind, keyId] : [workspace, kind, keyId, String(version)];
  return Buffer.from(bound.join('|'), 'utf8');
}

export function seal(
  plaintext: string,
  key: MasterKey,
  workspace: string,
  kind: string,
  version: number,
): string {
  if (!Number.isSafeInteger(version) || version < 1) throw new RangeError(`bad record version ${version}`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(workspace, kind, key.id, version));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return [FORMAT, key.id, String(version), ...parts].join('.');
}

interface Envelope {
  keyId: string;
  version: number;
  iv: string;
  body: string;
  tag: string;
}

function parse(sealed: string): Envelope | undefined {
  const parts = sealed.split('.');
  if (parts[0] === LEGACY_FORMAT && parts.length === 5) parts.splice(2, 0, '0');
  const [format, keyId, versionText, iv, body, tag, ...rest] = parts;
  const known = format === FORMAT || format === LEGACY_FORMAT;
  if (!known || !keyId || !versionText || !/^\d{1,15}$/.test(versionText)) return undefined;
  if (!iv || body === undefined || !tag || rest.length > 0) return undefined;
  return { keyId, version: Number(versionText), iv, body, tag };
}

/** The id of the master key that sealed `sealed`, without opening it. */
export function sealedKeyId(sealed: string): string | undefined {
  return parse(sealed)?.keyId;
}

export function open(sealed: string, keys: readonly MasterKey[], workspace: string, kind: string): Opened {
  const envelope = parse(sealed);
  if (envelope === undefined)
    throw new VaultDecryptError('stored secret is not in a format this vault reads');
  const key = keys.find((candidate) => candidate.id === envelope.keyId);
  if (key === undefined) {
    throw new VaultDecryptError(
      `stored secret was sealed with master key ${envelope.keyId}, which is neither VAULT_MASTER_KEY nor VAULT_MASTER_KEY_PREVIOUS`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(envelope.iv, 'base64url'));
    decipher.setAAD(aad(workspace, kind, key.id, envelope.version));
    decipher.setAuthTag(Buffer.from(envelope.tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(envelope.body, 'base64url')), decipher.final()]);
    return { plaintext: plain.toString('utf8'), keyId: key.id, version: envelope.version };
  } catch {
    // GCM says only "unable to authenticate": tampering, another workspace's record, or the wrong key.
    throw new VaultDecryptError(
      'stored secret failed authentication (tampered, or moved from another workspace)',
    );
  }
}

/**
 * A keyed fingerprint of a secret (16 hex digits of HMAC-SHA256), for naming Redis keys after an API
 * key. Unlike a plain hash, a Redis dump gives nothing to test a guessed key against (R18). The HMAC
 * key is derived from the master key (HKDF), so every process sharing it agrees on fingerprints.
 */
export function fingerprinter(key: MasterKey): (secret: string) => string {
  const hmacKey = Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), FINGERPRINT_INFO, KEY_BYTES));
  return (secret) => createHmac('sha256', hmacKey).update(secret, 'utf8').digest('hex').slice(0, 16);
}

/** `••••abcd`: enough to recognise a key, never enough to use it. */
export function mask(secret: string): string {
  return secret.length <= 4 ? '••••' : `••••${secret.slice(-4)}`;
}
