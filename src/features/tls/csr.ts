import { constants, createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import type { CertificationRequest } from '@peculiar/asn1-csr';
import type { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { text } from '../../text/index.js';
import { children, readTlv } from './der.js';

/**
 * The ASN.1 parsers (about 10 MB resident) are loaded on the first CSR, not at start-up: most
 * processes never see one (issue #17, idle memory). They are CommonJS, so `require` keeps this sync.
 */
let asn1:
  | (typeof import('@peculiar/asn1-csr') &
      typeof import('@peculiar/asn1-rsa') &
      typeof import('@peculiar/asn1-schema') &
      typeof import('@peculiar/asn1-x509'))
  | undefined;
function parsers(): NonNullable<typeof asn1> {
  if (asn1 === undefined) {
    const require = createRequire(import.meta.url);
    asn1 = {
      ...(require('@peculiar/asn1-x509') as typeof import('@peculiar/asn1-x509')),
      ...(require('@peculiar/asn1-schema') as typeof import('@peculiar/asn1-schema')),
      ...(require('@peculiar/asn1-rsa') as typeof import('@peculiar/asn1-rsa')),
      ...(require('@peculiar/asn1-csr') as typeof import('@peculiar/asn1-csr')),
    };
  }
  return asn1;
}

const OID = {
  commonName: '2.5.4.3',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  rsaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  ed25519: '1.3.101.112',
} as const;

/** PKCS #1 v1.5 and ECDSA signature OIDs, with the hash each implies. SHA-1 and MD5 are left out on purpose. */
const PLAIN_SIGNATURES: Record<string, { hash: string; key: 'rsa' | 'ec' }> = {
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
};

const PSS_HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** Node reports OpenSSL curve names; the rest of the bot (and CA product sheets) speak NIST names. */
const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

export interface CsrInfo {
  commonName: string | undefined;
  dnsNames: string[];
  /** SHA-256 of the DER SubjectPublicKeyInfo, hex: the key's usual fingerprint. */
  keySha256: string;
  key:
    | { type: 'rsa'; bits: number }
    | { type: 'ec'; curve: string }
    | { type: 'ed25519' }
    | { type: 'other'; oid: string };
}

/** Why `signature` over `tbs` is not acceptable, or undefined when it verifies. */
function signatureProblem(
  algorithm: AlgorithmIdentifier,
  key: KeyObject,
  tbs: Uint8Array,
  signature: Uint8Array,
): string | undefined {
  const { AsnConvert, RsaSaPssParams, AlgorithmIdentifier } = parsers();
  const keyType = key.asymmetricKeyType;
  const mismatch = text.tls.csrSignatureKeyMismatch;
  let ok: boolean;
  const plain = PLAIN_SIGNATURES[algorithm.algorithm];
  if (plain !== undefined) {
    if (keyType !== plain.key) return mismatch;
    // Default dsaEncoding is 'der', which is how X.509 carries ECDSA signatures.
    ok = verify(plain.hash, tbs, key, signature);
  } else if (algorithm.algorithm === OID.ed25519) {
    if (keyType !== 'ed25519') return mismatch;
    ok = verify(null, tbs, key, signature);
  } else if (algorithm.algorithm === OID.rsaPss) {
    if (keyType !== 'rsa' && keyType !== 'rsa-pss') return mismatch;
    if (algorithm.parameters == null) return text.tls.csrPssNoParameters;
    const params = AsnConvert.parse(algorithm.parameters, RsaSaPssParams);
    const hash = PSS_HASHES[params.hashAlgorithm.algorithm];
    const mgf = params.maskGenAlgorithm;
    const mgfHash =
      mgf.algorithm === OID.mgf1 && mgf.parameters != null
        ? AsnConvert.parse(mgf.parameters, AlgorithmIdentifier).algorithm
        : undefined;
    // OpenSSL (so Node) runs MGF1 with the signature hash; other combinations cannot be checked here.
    if (hash === undefined || mgfHash !== params.hashAlgorithm.algorithm || params.trailerField !== 1) {
      return text.tls.csrPssUnsupported;
    }
    ok = verify(
      hash,
      tbs,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: params.saltLength },
      signature,
    );
  } else {
    return text.tls.csrSignatureUnsupported({ oid: algorithm.algorithm });
  }
  return ok ? undefined : text.tls.csrSignatureInvalid;
}

/** What the key is, read by OpenSSL so sizes are exact (a 2047-bit modulus is 2047, not 2048). */
function describeKey(key: KeyObject, spkiOid: string): CsrInfo['key'] {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { type: 'rsa', bits: details.modulusLength ?? 0 };
    case 'ec': {
      const curve = details.namedCurve ?? 'unnamed';
      return { type: 'ec', curve: CURVES[curve] ?? curve };
    }
    case 'ed25519':
      return { type: 'ed25519' };
    default:
      // Includes id-RSASSA-PSS keys: public CAs take RSA keys only in the plain rsaEncryption form.
      return { type: 'other', oid: spkiOid };
  }
}

/**
 * Parses a PEM certificate signing request (PKCS #10) and checks its self-signature; throws with a short
 * user-facing reason (no trailing period: callers embed it) when it is not one or does not verify.
 */
export function parseCsr(pem: string): CsrInfo {
  const { AsnConvert, CertificationRequest, Extensions, SubjectAlternativeName } = parsers();
  const match =
    /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]+?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(
      pem,
    );
  if (match === null) throw new Error(text.tls.csrNotARequest);
  const der = new Uint8Array(Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64'));
  let request: CertificationRequest;
  let tbs: Uint8Array;
  let spki: Uint8Array;
  let signature: Uint8Array;
  try {
    const outer = readTlv(der, 0, der.length);
    const parts = children(der, outer);
    const info = parts[0];
    const bits = parts[2];
    if (outer.tag !== 0x30 || outer.end !== der.length || info?.tag !== 0x30 || bits?.tag !== 0x03) {
      throw new Error('not a CSR');
    }
    // The signature covers the bytes the signer produced. Re-encoding the parsed structure (AsnConvert.serialize)
    // can normalise odd or tampered encodings and so verify bytes nobody signed; slice the original ones instead.
    tbs = der.subarray(info.start, info.end);
    const key = children(der, info)[2]; // version, subject, subjectPKInfo, attributes
    if (key?.tag !== 0x30) throw new Error('no key');
    spki = der.subarray(key.start, key.end);
    // BIT STRING contents: one "unused bits" byte, which must be 0 for a signature.
    if (der[bits.contents] !== 0) throw new Error('bad signature bits');
    signature = der.subarray(bits.contents + 1, bits.end);
    request = AsnConvert.parse(der, CertificationRequest);
  } catch {
    throw new Error(text.tls.csrCannotDecode);
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  } catch {
    throw new Error(text.tls.csrKeyCannotRead);
  }
  let problem: string | undefined;
  try {
    problem = signatureProblem(request.signatureAlgorithm, key, tbs, signature);
  } catch {
    // Malformed PSS parameters, or a signature OpenSSL refuses to even try (e.g. wrong length).
    problem = text.tls.csrSignatureInvalid;
  }
  if (problem !== undefined) throw new Error(problem);

  const info = request.certificationRequestInfo;
  let commonName: string | undefined;
  const dnsNames: string[] = [];
  try {
    for (const rdn of info.subject) {
      for (const attribute of rdn) {
        if (attribute.type === OID.commonName) commonName = attribute.value.toString();
      }
    }
    for (const attribute of info.attributes) {
      if (attribute.type !== OID.extensionRequest) continue;
      for (const value of attribute.values) {
        for (const extension of AsnConvert.parse(value, Extensions)) {
          if (extension.extnID !== OID.subjectAltName) continue;
          for (const name of AsnConvert.parse(extension.extnValue.buffer, SubjectAlternativeName)) {
            if (name.dNSName !== undefined) dnsNames.push(name.dNSName.toLowerCase());
          }
        }
      }
    }
  } catch {
    throw new Error(text.tls.csrNamesCannotDecode);
  }
  return {
    commonName: commonName?.toLowerCase(),
    dnsNames,
    keySha256: createHash('sha256').update(spki).digest('hex'),
    key: describeKey(key, info.subjectPKInfo.algorithm.algorithm),
  };
}

/** What the CSR must say for an order of `commonName` with `sans` (docs/registrar-api.md §4.1, local checks). */
export function csrProblems(csr: CsrInfo, commonName: string, sans: readonly string[]): string[] {
  const problems: string[] = [];
  if (csr.commonName !== undefined && csr.commonName !== commonName) {
    problems.push(text.tls.csrCommonNameDiffers({ actual: csr.commonName, wanted: commonName }));
  }
  const wanted = new Set([commonName, ...sans]);
  const extra = csr.dnsNames.filter((name) => !wanted.has(name));
  if (extra.length > 0) problems.push(text.tls.csrExtraNames({ names: extra.join(', ') }));
  const missing = sans.filter((name) => csr.dnsNames.length > 0 && !csr.dnsNames.includes(name));
  if (missing.length > 0) problems.push(text.tls.csrMissingNames({ names: missing.join(', ') }));
  if (csr.key.type === 'rsa' && csr.key.bits < 2048)
    problems.push(text.tls.csrRsaTooSmall({ bits: csr.key.bits }));
  if (csr.key.type === 'rsa' && csr.key.bits > 8192)
    problems.push(text.tls.csrRsaTooLarge({ bits: csr.key.bits }));
  if (csr.key.type === 'ec' && !['P-256', 'P-384'].includes(csr.key.curve))
    problems.push(text.tls.csrCurveRejected({ curve: csr.key.curve }));
  // Public CAs issue only for RSA and NIST P-curve keys, so an Ed25519 CSR would fail at the CA later.
  if (csr.key.type === 'ed25519') problems.push(text.tls.csrEd25519Rejected);
  if (csr.key.type === 'other') problems.push(text.tls.csrKeyTypeRejected);
  return problems;
}

/**
 * Why a pasted CSR cannot serve `commonName` and `sans`, as one sentence for the form field (Slack shows it
 * under the input), or undefined when it fits. `subject` says what it is for: a new order, or the
 * certificate being reissued.
 */
export function csrMismatch(
  pem: string,
  commonName: string,
  sans: readonly string[],
  subject: 'order' | 'certificate',
): string | undefined {
  let problems: string[];
  try {
    problems = csrProblems(parseCsr(pem), commonName, sans);
  } catch (error) {
    const reason = error instanceof Error ? error.message : text.tls.csrUnreadable;
    return text.tls.csrNotPem({ reason }).slice(0, 500);
  }
  if (problems.length === 0) return undefined;
  const doesNotFit = subject === 'order' ? text.tls.csrDoesNotFitOrder : text.tls.csrDoesNotFitCertificate;
  return doesNotFit({ problems: problems.join('; ') }).slice(0, 500);
}
