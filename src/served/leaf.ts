import { createHash, X509Certificate } from 'node:crypto';

/**
 * What identifies a certificate for comparison: its key (SPKI SHA-256, the form Certificate
 * Transparency search and HPKP use), its serial and its dates. Trust is not part of it: a served
 * certificate is compared with the one the registrar issued, not validated (probe.ts says why).
 */
export interface LeafIdentity {
  /** Hex SHA-256 of the DER SubjectPublicKeyInfo. */
  spkiSha256: string;
  /** Upper-case hex, no separators, no leading zeros (node:crypto's form). */
  serial: string;
  notBefore: number;
  notAfter: number;
  /** The issuer's distinguished name, one attribute a line as node:crypto gives it. */
  issuer: string;
}

/** A DER certificate larger than this is not read: real leaves are a few kilobytes. */
export const MAX_LEAF_BYTES = 16 * 1024;

/** Serials compare without leading zeros and case (registrars and CT write them differently). */
export const normalSerial = (serial: string): string =>
  serial
    .replace(/[^0-9a-f]/gi, '')
    .toUpperCase()
    .replace(/^0+(?=.)/, '');

/** The identity of a DER certificate, or undefined when it is not one (or too large to be a leaf). */
export function leafFromDer(der: Uint8Array): LeafIdentity | undefined {
  if (der.length === 0 || der.length > MAX_LEAF_BYTES) return undefined;
  try {
    const cert = new X509Certificate(der);
    const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    if (Number.isNaN(notBefore) || Number.isNaN(notAfter)) return undefined;
    return {
      spkiSha256: createHash('sha256').update(spki).digest('hex'),
      serial: normalSerial(cert.serialNumber),
      notBefore,
      notAfter,
      issuer: cert.issuer.slice(0, 500),
    };
  } catch {
    return undefined;
  }
}

/**
 * The identity of the first certificate in a PEM text (a registrar's download puts the leaf first,
 * the chain after it), or undefined when there is none that parses.
 */
export function leafFromPem(pem: string): LeafIdentity | undefined {
  const match = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/.exec(pem);
  if (match?.[1] === undefined) return undefined;
  return leafFromDer(Buffer.from(match[1].replace(/\s+/g, ''), 'base64'));
}

/** Whether two identities are one certificate: the same key and the same serial. */
export const sameCertificate = (a: LeafIdentity, b: LeafIdentity): boolean =>
  a.spkiSha256 === b.spkiSha256 && a.serial === b.serial;
