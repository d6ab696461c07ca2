import type * as wire from 'dns-packet';
import { canonicalName, type DnsClient } from '../../dns/client.js';
import {
  isUnknownCritical,
  methodsOf,
  parseIssueValue,
  relaxedValue,
  restrictionOf,
  type ValidationKind,
} from './caa-property.js';
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

/** The CAA record to set (or, `action: 'remove'`, to remove) so that the CA may issue. */
export interface CaaRecord {
  name: string;
  type: 'CAA';
  value: string;
  action?: 'remove';
}

/**
 * Why CAA stops an order: `issuer` (no record names the CA; `issuers` are the ones named), `account`
 * (a record names it but with `accounturi`: the order may be refused), `methods` (its
 * `validationmethods` allows none of the order's ways of validation, `validation` the one the fix
 * opens: the CA must refuse), `critical` (a critical property with a tag CAs do not know: no CA may
 * issue at all).
 */
export type CaaRefusal =
  | { allowed: false; reason: 'issuer'; at: string; issuers: string[]; record: CaaRecord }
  | { allowed: false; reason: 'account'; at: string; issuers: string[]; record: CaaRecord }
  | {
      allowed: false;
      reason: 'methods';
      at: string;
      issuers: string[];
      methods: string;
      validation: ValidationKind;
      record: CaaRecord;
    }
  | { allowed: false; reason: 'critical'; at: string; issuers: string[]; tag: string; record: CaaRecord };

export type CaaVerdict = { allowed: true } | CaaRefusal;

/** A CAA record as presentation text (`0 issue "digicert.com"`), for the fix. */
const presented = (record: CaaData) => `${record.flags ?? 0} ${record.tag} "${record.value}"`;

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

/**
 * Whether `ca` may issue for `name` (a leading `*.` asks for a wildcard) in an order validated by one
 * of `kinds` (through DNS unless said otherwise), per RFC 8659 §4 with RFC 8657's `accounturi` and
 * `validationmethods` (caa-property.ts).
 */
export async function caaVerdict(
  dns: DnsClient,
  name: string,
  ca: CertificateAuthority,
  kinds: readonly ValidationKind[] = ['dns'],
): Promise<CaaVerdict> {
  const wildcard = name.startsWith('*.');
  const base = wildcard ? name.slice(2) : name;
  const set = await relevantCaa(dns, base);
  if (set === undefined) return { allowed: true };
  const { at } = set;
  // RFC 8659 §4.1: an unknown tag marked critical forbids all issuance, whatever else the set says.
  const critical = set.records.find(isUnknownCritical);
  if (critical !== undefined)
    return {
      allowed: false,
      reason: 'critical',
      at,
      issuers: [],
      tag: critical.tag,
      record: { name: at, type: 'CAA', value: presented(critical), action: 'remove' },
    };
  const tagged = (tag: string) => set.records.filter((record) => record.tag.toLowerCase() === tag);
  const wild = tagged('issuewild');
  const tag = wildcard && wild.length > 0 ? 'issuewild' : 'issue';
  const governing = tag === 'issuewild' ? wild : tagged('issue');
  if (governing.length === 0) return { allowed: true };
  const values = governing.map((record) => ({ record, value: parseIssueValue(record.value) }));
  // A malformed value authorizes no one (it names no CA Regdesk could match).
  const naming = values.flatMap(({ record, value }) =>
    value !== undefined && value.issuer !== '' && ca.identifiers.includes(value.issuer)
      ? [{ record, value }]
      : [],
  );
  if (naming.some(({ value }) => restrictionOf(value, kinds) === undefined)) return { allowed: true };
  const issuers = values.map(({ record, value }) =>
    value === undefined ? record.value.trim() : value.issuer === '' ? 'no CA' : value.issuer,
  );
  const first = naming[0];
  if (first !== undefined) {
    const restriction = restrictionOf(first.value, kinds) ?? 'account';
    // The fix opens the first of the order's ways (DNS, Regdesk's own, when either would do).
    const validation = kinds[0] ?? 'dns';
    const record: CaaRecord = {
      name: at,
      type: 'CAA',
      value: `${first.record.flags ?? 0} ${tag} "${relaxedValue(first.value, validation)}"`,
    };
    const methods = methodsOf(first.value);
    return restriction === 'methods'
      ? { allowed: false, reason: 'methods', at, issuers, methods, validation, record }
      : { allowed: false, reason: 'account', at, issuers, record };
  }
  return {
    allowed: false,
    reason: 'issuer',
    at,
    issuers,
    record: { name: at, type: 'CAA', value: `0 ${tag} "${ca.identifiers[0] ?? ''}"` },
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
  let forName: CaaRefusal | undefined;
  for (const name of [domain, `*.${domain}`]) {
    let verdict: CaaVerdict;
    try {
      verdict = await caaVerdict(dns, name, ca);
    } catch (error) {
      result.notChecked.push({ what: { code: 'caa', name }, why: reasonOf(error) });
      return result;
    }
    if (verdict.allowed) continue;
    // A wildcard refused for the same reason as the name itself says nothing new.
    if (
      forName !== undefined &&
      forName.reason === verdict.reason &&
      forName.record.value === verdict.record.value
    )
      continue;
    const wildcard = name !== domain;
    const fix = [{ ...verdict.record, where: 'zone' as const }];
    const { at } = verdict;
    switch (verdict.reason) {
      case 'issuer': {
        const params = { name, ca: ca.name, issuers: verdict.issuers.join(', '), at };
        if (wildcard)
          result.findings.push(finding('risky', 'caa', 'caaForbidsWildcard', params, domain, fix));
        else result.findings.push(finding('broken', 'caa', 'caaForbids', params, domain, fix));
        break;
      }
      case 'methods': {
        const params = { name, ca: ca.name, methods: verdict.methods, at };
        result.findings.push(finding(wildcard ? 'risky' : 'broken', 'caa', 'caaMethods', params, name, fix));
        break;
      }
      case 'account':
        result.findings.push(finding('risky', 'caa', 'caaAccount', { name, ca: ca.name, at }, name, fix));
        break;
      case 'critical':
        // It forbids every certificate under the set, the wildcard's too.
        result.findings.push(
          finding('broken', 'caa', 'caaCritical', { name, tag: verdict.tag, at }, at, fix),
        );
        return result;
    }
    // The name itself cannot be ordered: the wildcard's verdict adds nothing but another reason.
    if (!wildcard && verdict.reason !== 'account') return result;
    forName = verdict;
  }
  return result;
}
