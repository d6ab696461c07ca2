import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** Kinds of address that are not public (dns/addresses.ts), as the notPublic finding names them. */
const ADDRESS_KINDS: Record<string, string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private network',
  shared: 'carrier-grade NAT',
  'link-local': 'link-local',
  multicast: 'multicast',
  broadcast: 'broadcast',
  documentation: 'documentation range',
  benchmarking: 'benchmarking range',
  reserved: 'reserved',
  translation: 'IPv4 translation',
  'unique-local': 'unique local',
  invalid: 'not an IP address',
};

/** Why a chain is bogus (dns/validator.ts), as the bogus finding says it. */
const BOGUS_REASONS: Record<string, string> = {
  noMatchingKey: 'no key matches the DS',
  badSignature: 'a signature does not verify',
  expired: 'signatures expired',
  notYetValid: 'signatures not valid yet',
  missingSignature: 'signatures missing',
  noDenial: 'no DS and no proof that there is none',
  resolvers: 'the resolvers fail to validate it',
};

/** What Regdesk says about live DNS diagnostics, `/dns check` (see ../index.ts). */
export const diagnostics = {
  checkUsage: 'check DOMAIN',
  checkSummary: 'live diagnostics: delegation, DNSSEC chain, CAA, mail records, pending validation records',
  checkUsageReply: '`/dns check DOMAIN`, e.g. `/dns check example.com`.',

  // The report card
  title: (p: { name: string }) => `DNS check of ${p.name}`,
  summaryClean: (p: { name: string }) =>
    `${p.name}: no findings. Delegation, DNSSEC, CAA and mail look right.`,
  summaryFindings: (p: { name: string; broken: number; risky: number; advice: number }) =>
    `${p.name}: ${n(p.broken)} broken, ${n(p.risky)} risky, ${n(p.advice)} advice.`,
  checkedAt: (p: { date: Markup }) =>
    `Checked live ${p.date} through the configured resolvers and the zone's own nameservers.`,
  severityBroken: ':red_circle: *Broken*',
  severityRisky: ':large_orange_circle: *Risky*',
  severityAdvice: ':large_blue_circle: *Advice*',
  fixLine: (p: { record: string; where: string }) => `Set ${p.record} ${p.where}.`,
  removeLine: (p: { record: string; where: string }) => `Remove ${p.record} ${p.where}.`,
  whereRegistrar: 'at the registrar',
  whereZone: (p: { nameservers: string }) => `in the zone (served by ${p.nameservers})`,
  whereParent: 'at the registrar, which sends it to the registry',
  notCheckedTitle: '*Could not check*',
  notCheckedLine: (p: { what: string; why: string }) => `• ${p.what}: ${p.why}`,
  factsDelegation: (p: { parent: string; zone: string; registrar: string }) =>
    `*Delegation* parent: ${p.parent} · zone: ${p.zone} · registrar: ${p.registrar}`,
  factsDnssec: (p: { registrar: string; verdict: string; ds: string }) =>
    `*DNSSEC* registrar: ${p.registrar} · chain: ${p.verdict} · DS at the parent: ${p.ds}`,
  factsNone: '—',
  registrarDnssec: (p: { desired: string; live: string }) => `desired ${p.desired}, live ${p.live}`,
  verdictSecure: 'secure',
  verdictInsecure: 'insecure (not signed)',
  verdictBogus: 'bogus (validation fails)',
  verdictFailing: 'failing (SERVFAIL)',
  verdictUnknown: 'not known',
  verdictUnvalidated: 'not verified: signed, but the resolvers do not validate DNSSEC',
  byChain: (p: { verdict: string }) => `${p.verdict}, validated by Regdesk from the root`,
  byResolvers: (p: { verdict: string }) => `${p.verdict}, as the resolvers say`,
  resolversDoNotValidate: 'the configured resolvers do not validate DNSSEC',
  truncated: (p: { more: number }) => `…and ${n(p.more)} more.`,

  // Why something could not be checked
  whatParent: (p: { parent: string }) => `The parent zone ${p.parent}`,
  whatServer: (p: { host: string; address: string }) => `Nameserver ${p.host} (${p.address})`,
  whatServerAddress: (p: { host: string }) => `The address of nameserver ${p.host}`,
  whatRegistrar: 'The registrar’s view',
  whatResolver: 'The resolvers’ view',
  whatCaa: (p: { name: string }) => `CAA of ${p.name}`,
  whatMail: 'Mail records',
  whatValidation: (p: { id: string }) => `Validation records of certificate ${p.id}`,
  whyTimeout: 'no answer in time',
  whyNetwork: (p: { detail: string }) => `could not be asked (${p.detail})`,
  whyAnswered: (p: { rcode: string }) => `answered ${p.rcode}`,
  whyNotInAccount: 'the domain is not in this account',
  whyRegistrar: (p: { message: string }) => p.message,
  whyNoAnswer: 'no server answered',
  whyLimit: 'not asked: the check’s limits were reached (4 addresses per nameserver, 16 in all, 20 seconds)',
  whyNotPublic: (p: { address: string }) => `not asked: ${p.address} is not a public address`,
  whatUnasked: (p: { count: number }) =>
    p.count === 1 ? 'One more nameserver address' : `${n(p.count)} more nameserver addresses`,

  // Refusals before the ack (one person's checks, contract §3)
  checkRunning: 'Your previous DNS check is still running: its answer comes first, then you can check again.',
  checkTooMany: (p: { seconds: number }) =>
    `You ran 10 DNS checks within a minute: try again in ${n(p.seconds)} seconds.`,

  validationVisible: (p: { id: string; count: number }) =>
    `Certificate ${p.id}: ${count(p.count, 'validation record')} served by the zone's nameservers.`,

  // The certificate preflight (issue #45): before an order, renewal, reissue or completion is sent.
  // Plain text, no mrkdwn: they are modal field errors too.
  caaPreflightError: (p: { name: string; ca: string; issuers: string; record: string }) =>
    `CAA allows only ${p.issuers} for ${p.name}, not ${p.ca}: add "${p.record}" or the order fails.`,
  caaPreflightMethods: (p: { name: string; ca: string; methods: string; record: string }) =>
    `CAA lets ${p.ca} validate ${p.name} only by ${p.methods}, not through DNS: set "${p.record}" or an order validated through DNS fails.`,
  caaPreflightMethodsEmail: (p: { name: string; ca: string; methods: string; record: string }) =>
    `CAA lets ${p.ca} validate ${p.name} only by ${p.methods}, not by e-mail: set "${p.record}" or choose validation through DNS, or an order validated by e-mail fails.`,
  caaPreflightAccount: (p: { name: string; ca: string; record: string }) =>
    `CAA limits issuance for ${p.name} to one ${p.ca} account (accounturi); Regdesk cannot tell whether the registrar's account is that one, so the order may be refused: set "${p.record}" to be sure.`,
  caaPreflightCritical: (p: { name: string; tag: string; record: string }) =>
    `CAA for ${p.name} has the unknown tag ${p.tag} marked critical, so no CA may issue: remove "${p.record}" or the order fails.`,
  dnssecPreflightNoKey: (p: { name: string; zone: string; parent: string; records: readonly string[] }) =>
    `DNSSEC of ${p.name} is broken: the DS for ${p.zone} in ${p.parent} matches no DNSKEY of ${p.zone}, and CAs refuse to issue over a broken chain. ${p.records.length === 0 ? `Publish the DS of the current key of ${p.zone} at the registrar` : `Set ${p.records.map((record) => `"${record}"`).join(', ')} at the registrar in place of the DS there`}, or remove the DS to turn DNSSEC off.`,
  dnssecPreflightBadSignature: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: the signatures in ${p.zone} do not verify with the key its DS in ${p.parent} names, and CAs refuse to issue over a broken chain. Have ${p.zone} signed again with that key, or remove its DS at the registrar.`,
  dnssecPreflightExpired: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: the signatures in ${p.zone} have expired, and CAs refuse to issue over a broken chain. Have the signer of ${p.zone} renew them, or remove its DS in ${p.parent} at the registrar.`,
  dnssecPreflightNotYetValid: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: the signatures in ${p.zone} are not valid yet, and CAs refuse to issue over a broken chain. Check the clock of the signer of ${p.zone} and have it sign again, or remove its DS in ${p.parent} at the registrar.`,
  dnssecPreflightUnsigned: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: ${p.parent} has a DS for ${p.zone}, but ${p.zone} serves no valid signatures, and CAs refuse to issue over a broken chain. Sign ${p.zone}, or remove its DS at the registrar.`,
  dnssecPreflightNoDenial: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: ${p.parent} has no DS for ${p.zone} and does not prove that it has none, and CAs refuse to issue over a broken chain. The operator of ${p.parent} must fix its signing.`,
  dnssecPreflightResolvers: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC of ${p.name} is broken: validating resolvers refuse ${p.zone} (SERVFAIL), and CAs refuse to issue over a broken chain. Regdesk could not read the chain itself: /dns check ${p.zone} shows where it breaks.`,
  preflightOrderAnyway: 'Submit again to order anyway.',
  preflightReissueAnyway: 'Submit again to reissue anyway.',
  preflightNotSent: (p: { id: string }) =>
    `Nothing was sent to the registrar for certificate ${p.id}: the CA would refuse it.`,
  preflightTryAgain: 'Once it is fixed, press the button again.',
} satisfies TextArea;

/**
 * The findings of `/dns check` and of watches, one per kind (features/diagnostics/findings.ts): each
 * says what is wrong and what it does; the card's fix line says what to set and where.
 */
export const diagnosticFindings = {
  notDelegated: (p: { name: string; parent: string }) =>
    `${p.name} is not delegated: ${p.parent} has no nameservers for it, so nobody can resolve it.`,
  noAddress: (p: { host: string }) => `Nameserver ${p.host} has no address: resolvers cannot reach it.`,
  missingGlue: (p: { host: string; parent: string }) =>
    `${p.host} is inside the zone it serves, but ${p.parent} has no address (glue) for it: resolvers cannot find the zone's nameservers.`,
  allLame: (p: { name: string }) =>
    `No nameserver answers authoritatively for ${p.name}: the domain does not resolve.`,
  lame: (p: { host: string; address: string; name: string; answer: string }) =>
    `${p.host} (${p.address}) is listed for ${p.name} but does not serve it (answered ${p.answer === 'NOERROR' ? 'without authority' : p.answer}): lookups that reach it fail or wait.`,
  nsMismatch: (p: { parent: string; zone: string }) =>
    `The parent lists ${p.parent}, the zone itself lists ${p.zone}: resolvers see different nameservers depending on where they ask.`,
  registrarMismatch: (p: { registrar: string; parent: string }) =>
    `The registrar reports ${p.registrar}, the parent serves ${p.parent}: a change is under way or did not reach the registry.`,
  serialMismatch: (p: { serials: string }) =>
    `The nameservers serve different versions of the zone (SOA serials ${p.serials}): one of them is not updated.`,
  notPublic: (p: { host: string; address: string; kind: string }) =>
    `Nameserver ${p.host} has the address ${p.address}, which is not public (${ADDRESS_KINDS[p.kind] ?? p.kind}): resolvers on the internet cannot reach it there, and Regdesk does not ask it.`,
  dsMatchesNoKey: (p: { name: string }) =>
    `The DS at the parent matches no key of ${p.name}: validating resolvers refuse every answer (SERVFAIL).`,
  dsWithoutKeys: (p: { name: string }) =>
    `The parent has a DS for ${p.name}, but the zone is not signed: validating resolvers refuse every answer.`,
  signedWithoutDs: (p: { name: string }) =>
    `${p.name} is signed, but the parent has no DS: resolvers treat it as unsigned, DNSSEC protects nothing yet.`,
  signaturesExpired: (p: { name: string; date: Markup }) =>
    `The signatures of ${p.name} expired ${p.date}: validating resolvers refuse every answer.`,
  signaturesExpiring: (p: { name: string; date: Markup }) =>
    `The signatures of ${p.name} expire ${p.date}, within 7 days: the signer is not refreshing them.`,
  bogus: (p: { name: string; at: string; reason: string }) =>
    `${p.name} does not validate (bogus, ${BOGUS_REASONS[p.reason] ?? p.reason}${p.at === p.name ? '' : ` at ${p.at}`}): validating resolvers answer SERVFAIL for it.`,
  sha1Algorithm: (p: { name: string; tags: string; algorithms: string }) =>
    `${p.name} is signed with RSA/SHA-1 (key tag ${p.tags}, algorithm ${p.algorithms}), deprecated by RFC 9905: validators are dropping it and then treat the zone as unsigned. Roll over to algorithm 13 (ECDSAP256SHA256) or 15 (ED25519).`,
  sha1Ds: (p: { name: string; tags: string }) =>
    `The DS of ${p.name} for key tag ${p.tags} has digest type 1 (SHA-1), which registries now refuse: publish the DS with digest type 2 (SHA-256), then remove the SHA-1 one.`,
  registryActiveNoDs: (p: { state: string }) =>
    `The registrar reports DNSSEC live as ${p.state}, but there is no DS at the parent: the registry has not published it.`,
  registrarOffDsPresent: (p: { state: string }) =>
    `The registrar reports DNSSEC ${p.state}, but the parent still has a DS: keep the zone signed until it is removed.`,
  dnssecOff: (p: { name: string }) =>
    `DNSSEC is off for ${p.name}: answers for it can be forged. \`/dns dnssec ${p.name} enable\` turns it on.`,
  caaForbids: (p: { name: string; ca: string; issuers: string; at: string }) =>
    `CAA at ${p.at} allows only ${p.issuers}: ${p.ca} may not issue certificates for ${p.name}, so orders through the registrar fail.`,
  caaForbidsWildcard: (p: { name: string; ca: string; issuers: string; at: string }) =>
    `CAA at ${p.at} allows wildcards only from ${p.issuers}: ${p.ca} may not issue a wildcard for ${p.name}.`,
  caaMethods: (p: { name: string; ca: string; methods: string; at: string }) =>
    `CAA at ${p.at} lets ${p.ca} validate ${p.name} only by ${p.methods} (validationmethods), not through DNS: orders through the registrar validated through DNS fail.`,
  caaAccount: (p: { name: string; ca: string; at: string }) =>
    `CAA at ${p.at} limits issuance by ${p.ca} for ${p.name} to one account (accounturi): Regdesk cannot tell whether the registrar's account is that one, so orders through the registrar may be refused.`,
  caaCritical: (p: { name: string; tag: string; at: string }) =>
    `CAA at ${p.at} has the tag ${p.tag} marked critical (flag 128), which CAs do not know: no CA may issue certificates for ${p.name} (RFC 8659).`,
  noMx: (p: { name: string }) =>
    `${p.name} has no MX: mail to it is delivered to its address record, if anywhere. Publish a null MX if it takes no mail.`,
  mxNoAddress: (p: { host: string }) =>
    `Mail server ${p.host} has no address: mail to the domain bounces or waits.`,
  noSpf: (p: { name: string }) => `${p.name} has no SPF record: anyone can send mail in its name.`,
  manySpf: (p: { name: string; count: number }) =>
    `${p.name} has ${n(p.count)} SPF records: receivers treat that as an error (RFC 7208), so SPF fails for all its mail.`,
  noDmarc: (p: { name: string }) =>
    `${p.name} has no DMARC record: receivers get no policy for mail that fails SPF and DKIM.`,
  manyDmarc: (p: { name: string; count: number }) =>
    `${p.name} has ${n(p.count)} DMARC records: receivers ignore them all (RFC 7489).`,
  rejectWithBrokenSpf: (p: { name: string }) =>
    `DMARC says \`p=reject\` while SPF is broken: mail from ${p.name} that is not DKIM-signed is rejected.`,
  validationMissing: (p: { id: string; name: string }) =>
    `Certificate ${p.id} waits for its validation record \`${p.name}\`, which the zone's nameservers do not serve yet: it cannot issue.`,
  validationWrong: (p: { id: string; name: string; found: string }) =>
    `Certificate ${p.id} waits for \`${p.name}\`, but the zone serves another value there (${p.found}): it cannot issue.`,
} satisfies TextArea;
