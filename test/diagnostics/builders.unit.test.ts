import { reportCard } from '../../src/features/diagnostics/blocks.js';
import {
  type FindingCode,
  finding,
  type NotChecked,
  type Why,
} from '../../src/features/diagnostics/findings.js';
import type { DnsReport } from '../../src/features/diagnostics/service.js';
import { slackDate } from '../../src/slack/blocks.js';
import { texts } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  CERT_ID,
  DAY,
  DOMAIN,
  FIXES,
  IDN,
  NAMESERVERS,
  NOW,
  REGISTRAR_SAID,
  shown,
} from '../helpers/builder-fixtures.js';

/**
 * The DNS check's report, also as `/dns check` sends it. Each is rendered in every language at the largest
 * its inputs realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside
 * markup, German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

/** Every parameter any finding's sentence takes, at its longest: lists of 13 servers, a token for `date`. */
const FINDING_PARAMS = {
  name: DOMAIN,
  parent: 'de',
  host: NAMESERVERS[0],
  address: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
  answer: 'REFUSED',
  zone: NAMESERVERS.join(', '),
  registrar: NAMESERVERS.join(', '),
  serials: '2031031401, 2031031399, 2031031302, 2031031201',
  date: slackDate(NOW + 3 * DAY),
  state: 'active',
  ca: 'DigiCert Inc.',
  issuers: 'letsencrypt.org, sectigo.com, globalsign.com, pki.goog, ssl.com, buypass.com',
  at: DOMAIN,
  count: 4,
  id: CERT_ID,
  found: 'f'.repeat(200),
  kind: 'unique-local',
  reason: 'noDenial',
  // The SHA-1 findings name at most 5 key tags, then "…" (features/diagnostics/deprecated.ts).
  tags: '65535, 65534, 65533, 65532, 65531, …',
  algorithms: '5 (RSASHA1), 7 (RSASHA1-NSEC3-SHA1)',
  // A CAA `validationmethods` list, and a critical tag (up to 15 characters, RFC 8659 §4.1).
  methods: 'http-01, tls-alpn-01, email-reply-00, ca-website-change',
  tag: 'abcdefghijklmno',
};

const WHYS: Why[] = [
  { code: 'timeout' },
  { code: 'network', detail: 'connect ECONNREFUSED 2001:db8::53:53' },
  { code: 'answered', rcode: 'SERVFAIL' },
  { code: 'notInAccount' },
  { code: 'registrar', message: REGISTRAR_SAID },
  { code: 'noAnswer' },
  { code: 'limit' },
  { code: 'notPublic', address: 'fe80::ffff:ffff:ffff:ffff%interface-with-a-long-name' },
];
const WHATS: NotChecked['what'][] = [
  { code: 'parent', parent: 'de' },
  { code: 'server', host: NAMESERVERS[1] ?? '', address: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff' },
  { code: 'serverAddress', host: NAMESERVERS[2] ?? '' },
  { code: 'registrar' },
  { code: 'resolver' },
  { code: 'caa', name: DOMAIN },
  { code: 'mail' },
  { code: 'validation', id: CERT_ID },
  { code: 'unasked', count: 1_000 },
];

/** Every finding three times over (far past the 30 shown), every kind of "could not check", 10 pending orders seen. */
function report(clean: boolean): DnsReport {
  const codes = Object.keys(texts('en').diagnosticFindings) as FindingCode[];
  const severities = ['broken', 'risky', 'advice'] as const;
  return {
    domain: IDN,
    checkedAt: NOW,
    findings: clean
      ? []
      : [0, 1, 2].flatMap((round) =>
          codes.map((code, i) =>
            finding(
              severities[(i + round) % 3] ?? 'broken',
              'dnssec',
              code,
              FINDING_PARAMS as never,
              code,
              FIXES,
            ),
          ),
        ),
    notChecked: clean ? [] : WHATS.flatMap((what) => WHYS.map((why) => ({ what, why }))),
    delegation: {
      parent: 'de',
      parentNs: NAMESERVERS,
      zoneNs: NAMESERVERS.map((ns) => `z${ns}`),
      registrarNs: NAMESERVERS,
    },
    dnssec: {
      registrar: { desired: 'enabled', live: 'disabled' },
      verdict: clean ? 'secure' : 'bogus',
      basis: clean ? 'chain' : 'resolvers',
      resolversValidate: clean ? 'yes' : 'no',
      ds: Array.from({ length: 6 }, (_, i) => `${10_000 + i} 13 2 ${'AB'.repeat(32)}`),
    },
    validationVisible: clean
      ? []
      : Array.from({ length: 10 }, (_, i) => ({ id: `${CERT_ID.slice(0, 96)}-${i}`, count: 250 })),
  };
}

const BUILDERS: Entry[] = [
  ['diagnostics: report with every finding', 'message', () => reportCard(report(false)), DATES],
  ['diagnostics: clean report', 'message', () => reportCard(report(true)), DATES],

  // look-up: the report as `/dns check` sends it
  ['look-up: /dns check', 'message', () => shown(reportCard(report(false))), DATES],
];

checkBuilders('diagnostics', BUILDERS);
