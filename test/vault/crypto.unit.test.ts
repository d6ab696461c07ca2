import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fingerprinter,
  mask,
  masterKey,
  open,
  seal,
  sealedKeyId,
  VaultDecryptError,
  VaultKeyError,
} from '../../src/vault/crypto.js';
import { legacySeal } from './legacy.js';

const key = masterKey(randomBytes(32));
const other = masterKey(randomBytes(32));

describe('vault envelope', () => {
  it('round-trips any text, with the version it was sealed at', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 2 ** 48 }), (secret, version) => {
        const sealed = seal(secret, key, '-:T1', 'registrar-key', version);
        expect(open(sealed, [key], '-:T1', 'registrar-key')).toEqual({
          plaintext: secret,
          keyId: key.id,
          version,
        });
      }),
    );
  });

  it('uses a fresh 12-byte IV for every write', () => {
    const a = seal('same', key, '-:T1', 'registrar-key', 1);
    const b = seal('same', key, '-:T1', 'registrar-key', 1);
    expect(a).not.toBe(b);
    expect(a.split('.').slice(0, 3)).toEqual(['v2', key.id, '1']);
    expect(Buffer.from(a.split('.')[3] ?? '', 'base64url')).toHaveLength(12);
    expect(sealedKeyId(a)).toBe(key.id);
  });

  it('fails loudly on tampering, another workspace, another kind, or the wrong key', () => {
    const sealed = seal('secret-key-1234', key, '-:T1', 'registrar-key', 7);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => open(parts.join('.'), [key], '-:T1', 'registrar-key')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [key], '-:T2', 'registrar-key')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [key], '-:T1', 'slack-installation')).toThrow(VaultDecryptError);
    expect(() => open(sealed, [other], '-:T1', 'registrar-key')).toThrow(/neither VAULT_MASTER_KEY/);
    expect(() => open('garbage', [key], '-:T1', 'registrar-key')).toThrow(VaultDecryptError);
  });

  it('binds the version into the AAD: a rewritten version, or a downgrade to v1, does not open', () => {
    const sealed = seal('secret-key-1234', key, '-:T1', 'registrar-key', 7);
    const [, kid, , ...rest] = sealed.split('.');
    const bumped = ['v2', kid, '8', ...rest].join('.');
    expect(() => open(bumped, [key], '-:T1', 'registrar-key')).toThrow(/failed authentication/);
    const downgraded = ['v1', kid, ...rest].join('.');
    expect(() => open(downgraded, [key], '-:T1', 'registrar-key')).toThrow(/failed authentication/);
    expect(() => seal('x', key, '-:T1', 'registrar-key', 0)).toThrow(RangeError);
  });

  it('still opens the unversioned v1 envelope, as version 0', () => {
    const sealed = legacySeal('old-key-5678', key, '-:T1', 'registrar-key');
    expect(open(sealed, [key], '-:T1', 'registrar-key')).toEqual({
      plaintext: 'old-key-5678',
      keyId: key.id,
      version: 0,
    });
    expect(sealedKeyId(sealed)).toBe(key.id);
    expect(() => open(sealed, [key], '-:T2', 'registrar-key')).toThrow(VaultDecryptError);
  });

  it('fingerprints with an HMAC keyed from the master key: stable per key, never the plain SHA-256', () => {
    const apiKey = 'rf_live_fingerprint_me_0001';
    const print = fingerprinter(key)(apiKey);
    expect(print).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprinter(masterKey(Buffer.from(key.key)))(apiKey)).toBe(print);
    expect(fingerprinter(other)(apiKey)).not.toBe(print);
    expect(fingerprinter(key)('rf_live_fingerprint_me_0002')).not.toBe(print);
    expect(createHash('sha256').update(apiKey).digest('hex')).not.toContain(print);
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
