import { canonicalName, type DnsClient } from '../../dns/client.js';
import { dsFor } from '../../dns/dnssec.js';
import type { BogusReason, TrustAnchor } from '../../dns/validator.js';
import { withTimeout } from '../../shared/timeout.js';
import { type CaaRefusal, type CertificateAuthority, caaVerdict } from './caa.js';
import type { ValidationKind } from './caa-property.js';
import { dnssecVerdictOf } from './dnssec.js';

/** DNSKEY flags of a key signing key (Zone Key + Secure Entry Point): the one a DS should name. */
const SEP_FLAGS = 257;

/** Where a name's chain of trust breaks (issue #45: CAs refuse to issue over a bogus chain, SC-085). */
export interface BrokenLink {
  /** The zone whose link fails: its DS in `parent`, its keys or its signatures. */
  zone: string;
  /** The zone that holds `zone`'s DS (the signer of its DS, else the zone its SOA names). */
  parent: string;
  /** The validator's reason, or `resolvers`: the resolvers fail it and the chain could not be read. */
  reason: BogusReason | 'resolvers';
  /** For `noMatchingKey`: the DS of the zone's key-signing keys (`tag algorithm 2 digest`), to set. */
  ds: string[];
}

/** Why a certificate for `name` would be refused: its DNSSEC chain, or its CAA. */
export type PreflightRefusal =
  | { check: 'dnssec'; name: string; link: BrokenLink }
  | { check: 'caa'; name: string; verdict: CaaRefusal };

export interface PreflightInput {
  /** Every name of the certificate (a leading `*.` for a wildcard). */
  names: readonly string[];
  /** The CA behind the registrar's products (caa.ts). */
  ca: CertificateAuthority;
  /** How the order may prove control: the one chosen, or each the registrar offers while unknown. */
  kinds: readonly ValidationKind[];
  anchors: readonly TrustAnchor[];
  now: number;
  /** How long the checks may take; what has not answered by then is let through. */
  budgetMs: number;
}

/** The zone holding `zone`'s DS: the DS RRset's signer, else the parent's SOA in a denial. */
async function parentOf(dns: DnsClient, zone: string): Promise<string> {
  const answer = await dns
    .resolve(zone, 'DS', { dnssec: true, checkingDisabled: true })
    .catch(() => undefined);
  const signer = answer?.answers.find(
    (record) => record.type === 'RRSIG' && record.data.typeCovered === 'DS',
  );
  const soa = answer?.authorities.find((record) => record.type === 'SOA');
  const named =
    signer?.type === 'RRSIG' ? signer.data.signersName : (soa?.name ?? zone.split('.').slice(1).join('.'));
  const parent = canonicalName(named);
  return parent === '' ? '.' : `${parent}.`;
}

/** The DS records `zone`'s key-signing keys (else all its keys) should have at the parent. */
async function keyDs(dns: DnsClient, zone: string): Promise<string[]> {
  const answer = await dns
    .resolve(zone, 'DNSKEY', { dnssec: true, checkingDisabled: true })
    .catch(() => undefined);
  const keys = (answer?.answers ?? []).flatMap((record) =>
    record.type === 'DNSKEY' && canonicalName(record.name) === zone ? [record.data] : [],
  );
  const sep = keys.filter((key) => key.flags === SEP_FLAGS);
  return (sep.length > 0 ? sep : keys).map((key) => dsFor(zone, key));
}

/** Where `name`'s chain breaks, judged as `/dns check` judges it (dnssec.ts); undefined unless bogus. */
async function brokenLink(
  dns: DnsClient,
  name: string,
  input: PreflightInput,
): Promise<BrokenLink | undefined> {
  const { verdict, bogus } = await dnssecVerdictOf(dns, name, input);
  if (verdict !== 'bogus') return undefined;
  // A root that does not validate says Regdesk's own trust anchor (DNSSEC_TRUST_ANCHOR) is wrong, not
  // the customer's zone: CAs validate from the real root, so it is no reason to stop an order.
  if (bogus?.at === '.') return undefined;
  const zone = canonicalName(bogus?.at ?? name);
  const reason = bogus?.reason ?? 'resolvers';
  const [parent, ds] = await Promise.all([
    parentOf(dns, zone),
    reason === 'noMatchingKey' ? keyDs(dns, zone) : Promise.resolve([]),
  ]);
  return { zone, parent, reason, ds };
}

/**
 * Before an order, renewal, reissue or completion is sent: for every name, whether its DNSSEC chain
 * validates (a bogus chain makes the CA refuse, SC-085; an unsigned zone is fine) and whether CAA lets
 * the CA issue by the order's way of validation (caa.ts). The first refusal, a broken chain before
 * CAA (the CA cannot even read CAA over it), or undefined. Every question goes through one bounded
 * check (DnsClient.forCheck); a check that fails or has not answered within the budget lets the
 * order through: a check that could not be made is no reason to refuse, and the CA still decides.
 */
export async function certificatePreflight(
  client: DnsClient,
  input: PreflightInput,
): Promise<PreflightRefusal | undefined> {
  const dns = client.forCheck();
  const names = [...new Set(input.names.map(canonicalName))];
  const zones = [...new Set(names.map((name) => name.replace(/^\*\./, '')))];
  const chains: Array<PreflightRefusal | undefined> = [];
  const caa: Array<PreflightRefusal | undefined> = [];
  const checks = [
    ...zones.map((name, i) =>
      brokenLink(dns, name, input).then(
        (link) => {
          if (link !== undefined) chains[i] = { check: 'dnssec', name, link };
        },
        () => undefined,
      ),
    ),
    ...names.map((name, i) =>
      caaVerdict(dns, name, input.ca, input.kinds).then(
        (verdict) => {
          if (!verdict.allowed) caa[i] = { check: 'caa', name, verdict };
        },
        () => undefined,
      ),
    ),
  ];
  await withTimeout(Promise.all(checks), input.budgetMs);
  return chains.find((found) => found !== undefined) ?? caa.find((found) => found !== undefined);
}
