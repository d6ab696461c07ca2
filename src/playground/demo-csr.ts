import { generateKeyPairSync, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import { ORDER_IDS } from '../features/tls/ids.js';
import type { PlaygroundSnapshot } from './web/protocol.js';

/** Where the page offers the demo CSR: Regdesk's `/tls order` modal, its name fields and its CSR field. */
export const DEMO_CSR_FORM: PlaygroundSnapshot['demoCsr'] = {
  callbackId: ORDER_IDS.modal,
  commonName: ORDER_IDS.cn,
  sans: ORDER_IDS.sans,
  csr: ORDER_IDS.csr,
};

/**
 * A throwaway CSR for the names a newcomer typed into the `/tls order` modal, so the playground's
 * certificate flow needs no `openssl` (issue #47). An ECDSA P-256 key, made here and dropped at once:
 * the sandbox issues nothing anyone could use. The ASN.1 classes are the ones Regdesk parses CSRs
 * with (features/tls/csr.ts), loaded on first use for the same reason: most processes never need them.
 */
export function demoCsr(names: readonly string[]): string {
  const asn1 = classes();
  const [commonName = 'example.com'] = names;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const subjectAltName = new asn1.SubjectAlternativeName(
    names.map((name) => new asn1.GeneralName({ dNSName: name })),
  );
  const extensions = new asn1.Extensions([
    new asn1.Extension({
      extnID: OID.subjectAltName,
      critical: false,
      extnValue: new asn1.OctetString(asn1.AsnConvert.serialize(subjectAltName)),
    }),
  ]);
  const info = new asn1.CertificationRequestInfo({
    subject: new asn1.Name([
      new asn1.RelativeDistinguishedName([
        new asn1.AttributeTypeAndValue({
          type: OID.commonName,
          value: new asn1.AttributeValue({ utf8String: commonName }),
        }),
      ]),
    ]),
    subjectPKInfo: asn1.AsnConvert.parse(
      publicKey.export({ type: 'spki', format: 'der' }),
      asn1.SubjectPublicKeyInfo,
    ),
    attributes: new asn1.Attributes([
      new asn1.Attribute({ type: OID.extensionRequest, values: [asn1.AsnConvert.serialize(extensions)] }),
    ]),
  });
  // ECDSA in node:crypto signs in DER (a SEQUENCE of r and s), the form X.509 carries.
  const signature = sign('sha256', Buffer.from(asn1.AsnConvert.serialize(info)), privateKey);
  const request = new asn1.CertificationRequest({
    certificationRequestInfo: info,
    signatureAlgorithm: new asn1.AlgorithmIdentifier({ algorithm: OID.ecdsaWithSha256 }),
    signature: new Uint8Array(signature).buffer,
  });
  const der = Buffer.from(asn1.AsnConvert.serialize(request)).toString('base64');
  const lines = der.match(/.{1,64}/g) ?? [];
  return ['-----BEGIN CERTIFICATE REQUEST-----', ...lines, '-----END CERTIFICATE REQUEST-----', ''].join(
    '\n',
  );
}

const OID = {
  commonName: '2.5.4.3',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

type Classes = typeof import('@peculiar/asn1-csr') &
  typeof import('@peculiar/asn1-schema') &
  typeof import('@peculiar/asn1-x509');
let loaded: Classes | undefined;

function classes(): Classes {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    loaded = {
      ...(require('@peculiar/asn1-x509') as typeof import('@peculiar/asn1-x509')),
      ...(require('@peculiar/asn1-schema') as typeof import('@peculiar/asn1-schema')),
      ...(require('@peculiar/asn1-csr') as typeof import('@peculiar/asn1-csr')),
    };
  }
  return loaded;
}
