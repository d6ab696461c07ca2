import { readFileSync } from 'node:fs';
import { CertificationRequest } from '@peculiar/asn1-csr';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { describe, expect, it } from 'vitest';
import { type CsrInfo, csrProblems, parseCsr } from '../../src/features/tls/csr.js';

// Fixtures are real openssl CSRs (see test/fixtures/csr/README.md); all name www.example.com and example.com.
const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/csr/${name}.csr`, import.meta.url), 'utf8');

const NAMES = { commonName: 'www.example.com', dnsNames: ['www.example.com', 'example.com'] };
const BAD_SIGNATURE = "the CSR's signature does not verify (was it edited after signing?)";

/** The PEM re-wrapped around `der`, to build odd inputs from a valid fixture. */
function pem(der: Uint8Array): string {
  const body = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}\n-----END CERTIFICATE REQUEST-----\n`;
}
const der = (name: string): Buffer => Buffer.from(fixture(name).replace(/-----[^-]+-----|\s/g, ''), 'base64');

describe('parseCsr with valid CSRs', () => {
  it.each<[string, CsrInfo['key']]>([
    ['rsa-2048', { type: 'rsa', bits: 2048 }],
    ['rsa-2048-pss', { type: 'rsa', bits: 2048 }],
    ['rsa-4096', { type: 'rsa', bits: 4096 }],
    ['rsa-2047', { type: 'rsa', bits: 2047 }],
    ['ec-p256', { type: 'ec', curve: 'P-256' }],
    ['ec-p384', { type: 'ec', curve: 'P-384' }],
    ['ec-p521', { type: 'ec', curve: 'P-521' }],
    ['ed25519', { type: 'ed25519' }],
  ])('%s: verifies and reads the names and the exact key', (name, key) => {
    expect(parseCsr(fixture(name))).toEqual({
      ...NAMES,
      key,
      keySha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('accepts the NEW CERTIFICATE REQUEST armour and surrounding text', () => {
    const text = fixture('ec-p256').replaceAll('CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST');
    expect(parseCsr(`Here it is:\n${text}\nthanks`).key).toEqual({ type: 'ec', curve: 'P-256' });
  });
});

describe('csrProblems on key types', () => {
  const problems = (name: string) => csrProblems(parseCsr(fixture(name)), 'www.example.com', ['example.com']);

  it('accepts RSA 2048/4096 and EC P-256/P-384 for the right names', () => {
    for (const name of ['rsa-2048', 'rsa-2048-pss', 'rsa-4096', 'ec-p256', 'ec-p384']) {
      expect(problems(name), name).toEqual([]);
    }
  });

  it('refuses a 2047-bit RSA key as 2047 bits', () => {
    expect(problems('rsa-2047')).toEqual(['its RSA key has 2047 bits; at least 2048 are needed']);
  });

  it('refuses EC P-521', () => {
    expect(problems('ec-p521')).toEqual(['its EC curve P-521 is not accepted (P-256, P-384)']);
  });

  it('refuses Ed25519, which public CAs do not issue for', () => {
    expect(problems('ed25519')).toEqual([
      'Ed25519 keys are not accepted by public certificate authorities; use RSA 2048+ or EC P-256/P-384',
    ]);
  });

  it('still names every name mismatch', () => {
    const info = parseCsr(fixture('rsa-2048'));
    expect(csrProblems(info, 'shop.example.com', [])).toEqual([
      'its common name is www.example.com, not shop.example.com',
      'it names www.example.com, example.com, which the order does not',
    ]);
    expect(csrProblems(info, 'www.example.com', ['example.com', 'api.example.com'])).toEqual([
      'it lacks api.example.com',
    ]);
  });
});

describe('parseCsr refuses', () => {
  it('a CSR edited after signing (one byte of the subject flipped)', () => {
    expect(() => parseCsr(fixture('rsa-2048-tampered'))).toThrow(BAD_SIGNATURE);
  });

  it('a CSR whose SAN was edited after signing', () => {
    const bytes = der('ec-p256');
    const at = bytes.lastIndexOf('example.com');
    bytes[at] = 0x78; // the second SAN, "example.com", becomes "xxample.com"
    expect(() => parseCsr(pem(bytes))).toThrow(BAD_SIGNATURE);
  });

  it('a re-encoded CSR: the signed bytes are checked, not a normalised copy', () => {
    // Same content, but the TBS length in non-minimal long form (30 83 00 01 81 for 30 82 01 81);
    // a DER re-encoding would restore the signed bytes and wrongly verify.
    const bytes = der('rsa-2048');
    expect([...bytes.subarray(0, 8)]).toEqual([0x30, 0x82, 0x02, 0x99, 0x30, 0x82, 0x01, 0x81]);
    const odd = Buffer.concat([Buffer.from([0x30, 0x82, 0x02, 0x9a, 0x30, 0x83, 0x00]), bytes.subarray(6)]);
    expect(() => parseCsr(pem(odd))).toThrow(BAD_SIGNATURE);
  });

  it('a CSR whose signature bytes were changed', () => {
    for (const name of ['rsa-2048', 'rsa-2048-pss', 'ec-p384', 'ed25519']) {
      const bytes = der(name);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
      expect(() => parseCsr(pem(bytes)), name).toThrow(BAD_SIGNATURE);
    }
  });

  it('an unknown or weak signature algorithm, naming its OID', () => {
    const bytes = der('rsa-2048');
    // sha256WithRSAEncryption (1.2.840.113549.1.1.11) -> sha1WithRSAEncryption (…1.5), same length.
    const oid = Buffer.from('2a864886f70d01010b', 'hex');
    const at = bytes.lastIndexOf(oid);
    bytes[at + oid.length - 1] = 0x05;
    expect(() => parseCsr(pem(bytes))).toThrow(
      /signature algorithm \(OID 1\.2\.840\.113549\.1\.1\.5\) is not supported/,
    );
  });

  it('a signature algorithm that does not fit the key', () => {
    // Re-encoding is fine here: openssl's DER round-trips, and only the algorithm is meant to change.
    const request = AsnConvert.parse(der('ec-p256'), CertificationRequest);
    request.signatureAlgorithm = new AlgorithmIdentifier({ algorithm: '1.3.101.112' }); // Ed25519
    const swapped = new Uint8Array(AsnConvert.serialize(request));
    expect(() => parseCsr(pem(swapped))).toThrow("the CSR's signature algorithm does not match its key");
  });

  it.each([
    ['empty input', ''],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'],
    ['bare base64', der('rsa-2048').toString('base64')],
    [
      'garbage inside the armour',
      '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----',
    ],
  ])('%s', (_label, input) => {
    expect(() => parseCsr(input)).toThrow(
      /^(not a PEM certificate signing request|the CSR cannot be decoded)$/,
    );
  });

  it('a truncated CSR and one with trailing bytes', () => {
    const bytes = der('rsa-2048');
    expect(() => parseCsr(pem(bytes.subarray(0, bytes.length - 10)))).toThrow('the CSR cannot be decoded');
    expect(() => parseCsr(pem(Buffer.concat([bytes, Buffer.from([0, 0])])))).toThrow(
      'the CSR cannot be decoded',
    );
  });
});
