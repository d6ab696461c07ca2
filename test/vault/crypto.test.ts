import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  mask,
  masterKey,
  open,
  seal,
  sealedKeyId,
  VaultDecryptError,
  VaultKeyError,
} from '../../src/vault/crypto.js';

const key = masterKey(randomBytes(32));
const other = masterKey(randomBytes(32));

describe('vault envelope', () => {
  it('round-trips any text', () => {
    fc.assert(
      fc.property(fc.string(), (secret) => {
        expect(open(seal(secret, key, '-:T1', 'registrar-key'), [key], '-:T1', 'registrar-key')).toBe(secret);
      }),
    );
  });

  it('uses a fresh 12-byte IV for every write', () => {
    const a = seal('same', key, '-:T1', 'registrar-key');
    const b = seal('same', key, '-:T1', 'registrar-key');
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split('.')[2] ?? '', 'base64url')).toHaveLength(12);
    expect(sealedKeyId(a)).toBe(key.id);
  });

  it('fails loudly on tampering, another workspace, another kind, or the wrong key', () => {
    const sealed = seal('secret-key-1234', key, '-:T1', 'registrar-key');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => open(parts.join('.'), [key], '-:T1', 'registrar-key')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [key], '-:T2', 'registrar-key')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [key], '-:T1', 'slack-installation')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [other], '-:T1', 'registrar-key')).toThrow(/neither VAULT_MASTER_KEY/);
    expect(() => open('garbage', [key], '-:T1', 'registrar-key')).toThrow(VaultDecryptError);
  });

  it('refuses a missing or short master key', () => {
    expect(() => masterKey(undefined)).toThrow(VaultKeyError);
    expect(() => masterKey(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('masks all but the last four characters', () => {
    expect(mask('rf_live_abcdef1234')).toBe('••••1234');
    expect(mask('abc')).toBe('••••');
  });
});
