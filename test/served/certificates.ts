import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Extension,
  Extensions,
  GeneralName,
  id_ce_subjectAltName,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

/** A self-signed leaf made in the test: its PEM, key and what identifies it. */
export interface TestCertificate {
  pem: string;
  keyPem: string;
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';

/**
 * A P-256 certificate for `names` with the dates and serial the test chooses (openssl 3.0's `req`
 * cannot set a start date), built with @peculiar/asn1-x509 and signed with node:crypto.
 */
export function makeCertificate(options: {
  names: string[];
  notBefore: Date;
  notAfter: Date;
  key?: KeyObject;
}): TestCertificate {
  const key = options.key ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const publicDer = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const serial = randomBytes(12);
  // A positive INTEGER in minimal DER: a first byte of 0 would be padding, which OpenSSL refuses
  // ("illegal padding", 1 certificate in 256 before this).
  serial[0] = (serial[0] ?? 0) & 0x7f || 0x01;
  const cn = options.names[0] ?? 'test';
  const name = new Name([
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({ type: COMMON_NAME, value: new AttributeValue({ utf8String: cn }) }),
    ]),
  ]);
  const algorithm = new AlgorithmIdentifier({ algorithm: ECDSA_WITH_SHA256 });
  const san = new SubjectAlternativeName(options.names.map((dNSName) => new GeneralName({ dNSName })));
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serial.buffer.slice(serial.byteOffset, serial.byteOffset + serial.length),
    signature: algorithm,
    issuer: name,
    validity: new Validity({ notBefore: options.notBefore, notAfter: options.notAfter }),
    subject: name,
    subjectPublicKeyInfo: AsnConvert.parse(publicDer, SubjectPublicKeyInfo),
    extensions: new Extensions([
      new Extension({
        extnID: id_ce_subjectAltName,
        critical: false,
        extnValue: new OctetString(AsnConvert.serialize(san)),
      }),
    ]),
  });
  const tbsDer = Buffer.from(AsnConvert.serialize(tbs));
  const signature = sign('sha256', tbsDer, { key, dsaEncoding: 'der' });
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: signature.buffer.slice(signature.byteOffset, signature.byteOffset + signature.length),
  });
  const der = Buffer.from(AsnConvert.serialize(cert));
  const body = (der.toString('base64').match(/.{1,64}/g) ?? []).join('\n');
  return {
    pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    serialHex: serial.toString('hex').toUpperCase().replace(/^0+/, ''),
    notBefore: options.notBefore,
    notAfter: options.notAfter,
  };
}
