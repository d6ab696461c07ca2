import type { CertificateAuthority } from '../../src/features/diagnostics/caa.js';
import type { PreflightRefusal } from '../../src/features/diagnostics/preflight.js';

/**
 * Every refusal the certificate preflight words (issue #45), at the longest its inputs get: a
 * 253-character name, CAA values of 255 characters, three DS records of a zone with a 253-character
 * name, and a CA named after three.
 */
const NAME = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.de`;
const ZONE = NAME.slice(64);
const VALUE = `128 issue "${'v'.repeat(255)}"`;
const DS = `65535 13 2 ${'AB'.repeat(32)}`;
const record = { name: ZONE, type: 'CAA' as const, value: VALUE };
const ISSUERS = ['letsencrypt.org', 'sectigo.com', 'globalsign.com', 'pki.goog', 'ssl.com', 'buypass.com'];
const METHODS = 'http-01,tls-alpn-01,email-reply-00,ca-website-change';

export const REFUSING_CA: CertificateAuthority = {
  name: 'Sectigo / DigiCert / GlobalSign',
  identifiers: ['sectigo.com', 'digicert.com', 'globalsign.com'],
};

const link = (
  reason: Extract<PreflightRefusal, { check: 'dnssec' }>['link']['reason'],
): PreflightRefusal => ({
  check: 'dnssec',
  name: NAME,
  link: { zone: ZONE, parent: 'de.', reason, ds: reason === 'noMatchingKey' ? [DS, DS, DS] : [] },
});
const base = { allowed: false as const, at: ZONE, issuers: ISSUERS, record };

export const LONGEST_REFUSALS: ReadonlyArray<readonly [string, PreflightRefusal]> = [
  ['DS matches no key', link('noMatchingKey')],
  ['bad signature', link('badSignature')],
  ['expired', link('expired')],
  ['not yet valid', link('notYetValid')],
  ['unsigned', link('missingSignature')],
  ['no denial', link('noDenial')],
  ['resolvers', link('resolvers')],
  ['CAA issuer', { check: 'caa', name: NAME, verdict: { ...base, reason: 'issuer' } }],
  ['CAA account', { check: 'caa', name: NAME, verdict: { ...base, reason: 'account' } }],
  [
    'CAA methods (DNS)',
    {
      check: 'caa',
      name: NAME,
      verdict: { ...base, reason: 'methods', methods: METHODS, validation: 'dns' },
    },
  ],
  [
    'CAA methods (e-mail)',
    {
      check: 'caa',
      name: NAME,
      verdict: { ...base, reason: 'methods', methods: METHODS, validation: 'email' },
    },
  ],
  [
    'CAA critical',
    {
      check: 'caa',
      name: NAME,
      verdict: {
        ...base,
        reason: 'critical',
        tag: 'abcdefghijklmno',
        record: { ...record, action: 'remove' },
      },
    },
  ],
];
