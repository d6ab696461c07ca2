import { describe, expect, it } from 'vitest';
import { csrMismatch, parseCsr } from '../../src/features/tls/csr.js';
import { demoCsr } from '../../src/playground/demo-csr.js';
import { DemoCsrSchema } from '../../src/playground/inputs.js';

/** The playground's demo CSR, read by the very parser and checks Regdesk's order modal uses. */
describe('the playground’s demo CSR', () => {
  it('is a CSR Regdesk accepts for exactly the names asked: signed, an EC P-256 key', () => {
    const pem = demoCsr(['shop.example.com', 'example.com', 'www.example.com']);
    expect(pem).toMatch(
      /^-----BEGIN CERTIFICATE REQUEST-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE REQUEST-----\n$/,
    );
    const csr = parseCsr(pem);
    expect(csr.commonName).toBe('shop.example.com');
    expect(csr.dnsNames).toEqual(['shop.example.com', 'example.com', 'www.example.com']);
    expect(csr.key).toEqual({ type: 'ec', curve: 'P-256' });
    expect(csrMismatch(pem, 'shop.example.com', ['example.com', 'www.example.com'], 'order')).toBeUndefined();
    // Not a key anyone could use twice: every CSR has a key of its own.
    expect(parseCsr(demoCsr(['shop.example.com'])).keySha256).not.toBe(csr.keySha256);
  });

  it('is asked for with names only, at most 100, each a DNS name’s length', () => {
    expect(DemoCsrSchema.safeParse({ names: [] }).success).toBe(false);
    expect(DemoCsrSchema.safeParse({ names: ['x'.repeat(254)] }).success).toBe(false);
    expect(
      DemoCsrSchema.safeParse({ names: Array.from({ length: 101 }, (_, i) => `n${i}.example`) }).success,
    ).toBe(false);
    expect(DemoCsrSchema.parse({ names: [' www.example.com '] }).names).toEqual(['www.example.com']);
  });
});
