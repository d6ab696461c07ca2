import type * as wire from 'dns-packet';
import { canonicalName, type DnsClient } from '../../dns/client.js';
import { withTimeout } from '../../shared/timeout.js';
import { type CheckResult, finding, reasonOf } from './findings.js';

type CaaData = wire.CaaData;

/** A certificate authority and the issuer domains it honours in CAA `issue` and `issuewild` tags. */
export interface CertificateAuthority {
  name: string;
  identifiers: readonly string[];
}

/**
 * The CA behind the registrar's certificate products. The seven products of v1.6.2 (registrar
 * schemas, TLS_PRODUCTS) are DigiCert's (RapidSSL, GeoTrust, Thawte brands), and DigiCert honours
 * these identifiers for all of them (DigiCert's CAA documentation); `digicert.com` is the one to set.
 */
export const REGISTRAR_CA: CertificateAuthority = {
  name: 'DigiCert',
  identifiers: [
    'digicert.com',
    'www.digicert.com',
    'digicert.ne.jp',
    'symantec.com',
    'geotrust.com',
    'rapidssl.com',
    'thawte.com',
    'digitalcertvalidation.com',
  ],
};

/** CAA identifiers of the CAs a registrar's products may name (each CA's own CAA documentation). */
const KNOWN_CAS: ReadonlyArray<{ match: RegExp; ca: CertificateAuthority }> = [
  { match: /digicert|geotrust|rapidssl|thawte|symantec/i, ca: REGISTRAR_CA },
  {
    match: /sectigo|comodo/i,
    ca: {
      name: 'Sectigo',
      identifiers: ['sectigo.com', 'comodoca.com', 'comodo.com', 'usertrust.com', 'trust-provider.com'],
    },
  },
  { match: /let'?s\s*encrypt/i, ca: { name: "Let's Encrypt", identifiers: ['letsencrypt.org'] } },
  { match: /globalsign/i, ca: { name: 'GlobalSign', identifiers: ['globalsign.com'] } },
];

/**
 * The CA behind the registrar's products as `GET /tls/products` names them (`ca`: a name, or an issuer
 * domain, which is used as it is). Names Regdesk does not know are left out; with none left (or no
 * endpoint: a v1.6.2 registrar), the v1.6.2 products' CA. Several CAs: CAA must allow any one of them.
 */
export function caOfProducts(
  products: ReadonlyArray<{ ca?: string | undefined }> | undefined,
): CertificateAuthority {
  const found = new Map<string, CertificateAuthority>();
  for (const { ca } of products ?? []) {
    const value = ca?.trim() ?? '';
    if (value === '') continue;
    if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value)) {
      found.set(value.toLowerCase(), { name: value.toLowerCase(), identifiers: [value.toLowerCase()] });
      continue;
    }
    const known = KNOWN_CAS.find((entry) => entry.match.test(value));
    if (known !== undefined) found.set(known.ca.name, known.ca);
  }
  if (found.size === 0) return REGISTRAR_CA;
  const cas = [...found.values()];
  return {
    name: cas.map((ca) => ca.name).join(' / '),
    identifiers: [...new Set(cas.flatMap((ca) => ca.identifiers))],
  };
}

/** How long a workspace's products are trusted before they are read again (they change rarely). */
const PRODUCTS_TTL_MS = 3_600_000;

/** The CA of each workspace's registrar products, read once an hour per process (caOfProducts). */
export class ProductsCa {
  readonly #cache = new Map<string, { at: number; ca: CertificateAuthority }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** `read` calls the registrar's `tls.products()`; a failed read answers the v1.6.2 CA, uncached. */
  async for(
    workspaceKey: string,
    read: () => Promise<ReadonlyArray<{ ca?: string | undefined }> | undefined>,
  ): Promise<CertificateAuthority> {
    const cached = this.#cache.get(workspaceKey);
    if (cached !== undefined && this.now() - cached.at < PRODUCTS_TTL_MS) return cached.ca;
    let products: Awaited<ReturnType<typeof read>>;
    try {
      products = await read();
    } catch {
      return REGISTRAR_CA;
    }
    const ca = caOfProducts(products);
    this.#cache.set(workspaceKey, { at: this.now(), ca });
    return ca;
  }
}

export type CaaVerdict =
  | { allowed: true }
  | { allowed: false; at: string; issuers: string[]; record: { name: string; type: 'CAA'; value: string } };

/** The issuer domain of an `issue` value: `digicert.com; account=…` → `digicert.com`; `;` → none. */
const issuerOf = (value: string) => canonicalName(value.split(';')[0]?.trim() ?? '');

/**
 * The relevant CAA set of a name (RFC 8659 §3): its own, else its parent's, climbing to the TLD.
 * Resolvers follow CNAMEs for CAA themselves.
 */
async function relevantCaa(
  dns: DnsClient,
  name: string,
): Promise<{ at: string; records: CaaData[] } | undefined> {
  const labels = canonicalName(name).split('.');
  for (let i = 0; i < labels.length; i++) {
    const at = labels.slice(i).join('.');
    const records = (await dns.records(at, 'CAA')).flatMap((record) =>
      record.type === 'CAA' ? [record.data] : [],
    );
    if (records.length > 0) return { at, records };
  }
  return undefined;
}

/** Whether `ca` may issue for `name` (a leading `*.` asks for a wildcard), per RFC 8659 §4. */
export async function caaVerdict(
  dns: DnsClient,
  name: string,
  ca: CertificateAuthority,
): Promise<CaaVerdict> {
  const wildcard = name.startsWith('*.');
  const base = wildcard ? name.slice(2) : name;
  const set = await relevantCaa(dns, base);
  if (set === undefined) return { allowed: true };
  const tagged = (tag: string) => set.records.filter((record) => record.tag.toLowerCase() === tag);
  const wild = tagged('issuewild');
  const governing = wildcard && wild.length > 0 ? wild : tagged('issue');
  if (governing.length === 0) return { allowed: true };
  const issuers = governing.map((record) => issuerOf(record.value));
  if (issuers.some((issuer) => ca.identifiers.includes(issuer))) return { allowed: true };
  const tag = wildcard && wild.length > 0 ? 'issuewild' : 'issue';
  return {
    allowed: false,
    at: set.at,
    issuers: issuers.map((issuer) => (issuer === '' ? 'no CA' : issuer)),
    record: { name: set.at, type: 'CAA', value: `0 ${tag} "${ca.identifiers[0] ?? ''}"` },
  };
}

/** `/dns check`: may the registrar's CA issue for the domain, and for a wildcard of it? */
export async function checkCaa(
  dns: DnsClient,
  domain: string,
  ca: CertificateAuthority,
): Promise<CheckResult> {
  const result: CheckResult = { findings: [], notChecked: [] };
  try {
    // No CAA anywhere is "any CA may issue", so first make sure the resolvers see the domain at all.
    await dns.records(domain, 'SOA', { mustExist: true });
  } catch (error) {
    result.notChecked.push({ what: { code: 'caa', name: domain }, why: reasonOf(error) });
    return result;
  }
  for (const name of [domain, `*.${domain}`]) {
    let verdict: CaaVerdict;
    try {
      verdict = await caaVerdict(dns, name, ca);
    } catch (error) {
      result.notChecked.push({ what: { code: 'caa', name }, why: reasonOf(error) });
      return result;
    }
    if (verdict.allowed) continue;
    const params = { name, ca: ca.name, issuers: verdict.issuers.join(', '), at: verdict.at };
    const fix = [{ ...verdict.record, where: 'zone' as const }];
    // A wildcard refused only because the name itself is refused says nothing new.
    if (name === domain) {
      result.findings.push(finding('broken', 'caa', 'caaForbids', params, domain, fix));
      return result;
    }
    result.findings.push(finding('risky', 'caa', 'caaForbidsWildcard', params, domain, fix));
  }
  return result;
}

/**
 * The order modal's submission waits at most this long for the DNS, and PRODUCTS_BUDGET_MS for the
 * products, before its ack (Slack wants the answer within 3 s; the rest is Redis and the way back).
 */
const PREFLIGHT_BUDGET_MS = 1_200;
export const PRODUCTS_BUDGET_MS = 500;

/**
 * The `/tls order` preflight: the first of `names` the CA may not issue for, or undefined when all
 * may be issued or the answer did not come within the budget (then the order goes ahead: a check
 * that could not be made is no reason to refuse).
 */
export async function caaPreflight(
  dns: DnsClient,
  names: readonly string[],
  ca: CertificateAuthority,
): Promise<{ name: string; verdict: Extract<CaaVerdict, { allowed: false }> } | undefined> {
  const check = Promise.all(
    [...new Set(names.map((name) => name.toLowerCase()))].map(async (name) => ({
      name,
      verdict: await caaVerdict(dns, name, ca).catch((): CaaVerdict => ({ allowed: true })),
    })),
  );
  const verdicts = await withTimeout(check, PREFLIGHT_BUDGET_MS);
  for (const { name, verdict } of verdicts ?? []) if (!verdict.allowed) return { name, verdict };
  return undefined;
}
