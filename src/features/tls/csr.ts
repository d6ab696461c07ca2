import { CertificationRequest } from '@peculiar/asn1-csr';
import { ECParameters } from '@peculiar/asn1-ecc';
import { RSAPublicKey } from '@peculiar/asn1-rsa';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Extensions, SubjectAlternativeName } from '@peculiar/asn1-x509';

const OID = {
  commonName: '2.5.4.3',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  rsa: '1.2.840.113549.1.1.1',
  ec: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  p521: '1.3.132.0.35',
} as const;

const CURVES: Record<string, string> = { [OID.p256]: 'P-256', [OID.p384]: 'P-384', [OID.p521]: 'P-521' };

export interface CsrInfo {
  commonName: string | undefined;
  dnsNames: string[];
  key: { type: 'rsa'; bits: number } | { type: 'ec'; curve: string } | { type: 'other'; oid: string };
}

/** Parses a PEM certificate signing request (PKCS #10); throws with a short reason when it is not one. */
export function parseCsr(pem: string): CsrInfo {
  const match =
    /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]+?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(
      pem,
    );
  if (match === null) throw new Error('not a PEM certificate signing request');
  let request: CertificationRequest;
  try {
    request = AsnConvert.parse(
      Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64'),
      CertificationRequest,
    );
  } catch {
    throw new Error('the CSR cannot be decoded');
  }
  const info = request.certificationRequestInfo;
  let commonName: string | undefined;
  for (const rdn of info.subject) {
    for (const attribute of rdn) {
      if (attribute.type === OID.commonName) commonName = attribute.value.toString();
    }
  }
  const dnsNames: string[] = [];
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
  const spki = info.subjectPKInfo;
  let key: CsrInfo['key'];
  if (spki.algorithm.algorithm === OID.rsa) {
    const rsa = AsnConvert.parse(spki.subjectPublicKey, RSAPublicKey);
    const modulus = new Uint8Array(rsa.modulus);
    const significant = modulus[0] === 0 ? modulus.length - 1 : modulus.length;
    key = { type: 'rsa', bits: significant * 8 };
  } else if (spki.algorithm.algorithm === OID.ec) {
    const params = spki.algorithm.parameters;
    const curveOid = params ? (AsnConvert.parse(params, ECParameters).namedCurve ?? '') : '';
    key = { type: 'ec', curve: CURVES[curveOid] ?? curveOid };
  } else {
    key = { type: 'other', oid: spki.algorithm.algorithm };
  }
  return { commonName: commonName?.toLowerCase(), dnsNames, key };
}

/** What the CSR must say for an order of `commonName` with `sans` (spec 4.1: names of the order). */
export function csrProblems(csr: CsrInfo, commonName: string, sans: readonly string[]): string[] {
  const problems: string[] = [];
  if (csr.commonName !== undefined && csr.commonName !== commonName) {
    problems.push(`its common name is ${csr.commonName}, not ${commonName}`);
  }
  const wanted = new Set([commonName, ...sans]);
  const extra = csr.dnsNames.filter((name) => !wanted.has(name));
  if (extra.length > 0) problems.push(`it names ${extra.join(', ')}, which the order does not`);
  const missing = sans.filter((name) => csr.dnsNames.length > 0 && !csr.dnsNames.includes(name));
  if (missing.length > 0) problems.push(`it lacks ${missing.join(', ')}`);
  if (csr.key.type === 'rsa' && csr.key.bits < 2048)
    problems.push(`its RSA key has ${csr.key.bits} bits; at least 2048 are needed`);
  if (csr.key.type === 'rsa' && csr.key.bits > 8192)
    problems.push(`its RSA key has ${csr.key.bits} bits; at most 8192 are accepted`);
  if (csr.key.type === 'ec' && !['P-256', 'P-384'].includes(csr.key.curve))
    problems.push(`its EC curve ${csr.key.curve} is not accepted (P-256, P-384)`);
  if (csr.key.type === 'other') problems.push('its key type is not RSA or EC');
  return problems;
}
