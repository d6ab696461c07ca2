/**
 * The simulator's in-memory world and its seed: an account with domains (one IDN), zones, vanity
 * nameserver sets, certificates in each state, an organization. Times come from the injected clock;
 * domain timestamps are integer seconds (the unit is "not shown" in the spec; seconds chosen).
 */
export interface SandboxCertificate {
  id: string;
  status: string;
  common_name: string;
  product: string;
  dns_names: string[];
  order_state: string;
  organization_id: string | null;
  validity_days: number;
  orderedAt: number;
  /** When a pending order becomes issued (by the clock). */
  issueAt: number | null;
  dcv_method: string;
  action_required: boolean;
  /**
   * The issued certificate's PEM, when whoever runs the sandbox gives it one (a test serving it over
   * TLS); else the download is a placeholder that is no certificate.
   */
  pem?: string;
}

export interface SandboxRecord {
  id: number;
  name: string;
  type: string;
  data: string;
  ttl: number;
  auto: boolean;
  active: boolean;
  /** MX and SRV records written through `POST /dns/rr` (spec addendum §2). */
  priority?: number;
  /** Free text kept with the record (spec addendum §2). */
  annotation?: string;
  /** Epoch ms; only records written through the API have them (the seed's are "a day ago"). */
  createdAt?: number;
  updatedAt?: number;
}

export interface SandboxDnssec {
  mode: 'none' | 'regfish' | 'external';
  desired: 'enabled' | 'disabled';
  live: 'enabled' | 'disabled';
  /** Set while a transition settles (by the clock). */
  settleAt: number | null;
  records: Record<string, unknown>[];
  jobId: string | null;
}

export interface SandboxDomain {
  domain: string;
  owner: string;
  registeredAt: number;
  expiresAt: number;
  autoRenew: boolean;
  cancelled: boolean;
  pendingTransfer: boolean;
  guardBlocks: Set<'ns_change' | 'authinfo'>;
  vanitySetId: number | null;
  usingServiceNameservers: boolean;
  externalNameservers: string[];
  records: SandboxRecord[];
  dnssec: SandboxDnssec;
}

export interface SandboxOrganization {
  id: string;
  organization: string;
  status: string;
  usable_for_ordering: boolean;
  first_name: string;
  last_name: string;
  address: string;
  postal_code: string;
  city: string;
  country_code: string;
  phone: string;
  email: string;
}

export const STANDARD_NAMESERVERS = ['ns1.regfish.de', 'ns2.regfish.net'];
export const VANITY_SETS = [
  { id: 11, host: 'ns.example.com', nameservers: ['ns1.example.com', 'ns2.example.com'] },
  { id: 12, host: 'dns.acme-hosting.net', nameservers: ['a.dns.acme-hosting.net', 'b.dns.acme-hosting.net'] },
];
/** Names registered by others (availability answers "taken"). */
export const REGISTERED_ELSEWHERE = new Set([
  'google.com',
  'example.org',
  'taken.de',
  'regfish.de',
  'github.io',
]);

const DAY = 86_400_000;

export class SandboxState {
  readonly domains = new Map<string, SandboxDomain>();
  readonly certificates = new Map<string, SandboxCertificate>();
  readonly organizations = new Map<string, SandboxOrganization>();
  /** The domain guard log: every issued auth code (docs/registrar-api.md §4.5: outcome `issued`). */
  readonly guardLog: Array<{ domain: string; outcome: 'issued'; at: number }> = [];
  #nextRecordId = 1000;
  #nextId = 1;

  constructor(now: number) {
    this.#seed(now);
  }

  /** Record ids are integers, one sequence for every zone (as the recordings show). */
  newRecordId(): number {
    return this.#nextRecordId++;
  }

  newId(prefix: string): string {
    return `${prefix}${(this.#nextId++).toString(36).padStart(6, '0')}`;
  }

  addDomain(domain: string, now: number, overrides: Partial<SandboxDomain> = {}): SandboxDomain {
    const entry: SandboxDomain = {
      domain,
      owner: 'Acme Example GmbH',
      registeredAt: now - 400 * DAY,
      expiresAt: now + 330 * DAY,
      autoRenew: true,
      cancelled: false,
      pendingTransfer: false,
      guardBlocks: new Set(),
      vanitySetId: null,
      usingServiceNameservers: true,
      externalNameservers: [],
      records: [],
      dnssec: {
        mode: 'none',
        desired: 'disabled',
        live: 'disabled',
        settleAt: null,
        records: [],
        jobId: null,
      },
      ...overrides,
    };
    if (entry.records.length === 0) entry.records = this.#defaultRecords(domain);
    this.domains.set(domain, entry);
    return entry;
  }

  /** Adds `count` TXT records (for tests of large zones). */
  addRecords(domain: string, count: number): void {
    const entry = this.domains.get(domain);
    if (entry === undefined) throw new Error(`no such sandbox domain ${domain}`);
    for (let i = 0; i < count; i++) {
      entry.records.push(this.#record(`r${i}.${domain}.`, 'TXT', `"sandbox record ${i}"`, 300, false));
    }
  }

  #record(
    name: string,
    type: string,
    data: string,
    ttl: number,
    auto: boolean,
    active = true,
  ): SandboxRecord {
    return { id: this.newRecordId(), name, type, data, ttl, auto, active };
  }

  #defaultRecords(domain: string): SandboxRecord[] {
    const apex = `${domain}.`;
    return [
      this.#record(apex, 'NS', 'ns1.regfish.de.', 86_400, true),
      this.#record(apex, 'NS', 'ns2.regfish.net.', 86_400, true),
      this.#record(apex, 'A', '192.0.2.10', 3600, false),
      this.#record(apex, 'AAAA', '2001:db8::10', 3600, false),
      this.#record(`www.${apex}`, 'CNAME', apex, 3600, false),
      this.#record(apex, 'MX', `10 mail.${apex}`, 3600, false),
      this.#record(apex, 'TXT', '"v=spf1 mx -all"', 3600, false),
      this.#record(apex, 'CAA', '0 issue "digicert.com"', 3600, false),
      this.#record(`old.${apex}`, 'A', '192.0.2.99', 300, false, false),
    ];
  }

  #seed(now: number): void {
    this.addDomain('example.com', now, { vanitySetId: 11 });
    this.addDomain('regdesk-demo.de', now, {
      dnssec: {
        mode: 'regfish',
        desired: 'enabled',
        live: 'enabled',
        settleAt: null,
        records: [],
        jobId: null,
      },
    });
    this.addDomain('xn--mller-kva.de', now, { owner: 'Müller Bäckerei' });
    this.addDomain('shop-example.org', now, {
      usingServiceNameservers: false,
      externalNameservers: ['ns1.external-dns.net', 'ns2.external-dns.net'],
    });
    this.addDomain('expiring-soon.net', now, { expiresAt: now + 12 * DAY, autoRenew: false });
    this.addDomain('guarded.com', now, { guardBlocks: new Set(['ns_change', 'authinfo']) });
    this.addDomain('leaving.net', now, { pendingTransfer: true, cancelled: true });

    const cert = (id: string, fields: Partial<SandboxCertificate>): void => {
      this.certificates.set(id, {
        id,
        status: 'issued',
        common_name: 'www.example.com',
        product: 'RapidSSL',
        dns_names: ['www.example.com', 'example.com'],
        order_state: 'COMPLETED',
        organization_id: null,
        validity_days: 365,
        orderedAt: now - 2 * DAY,
        issueAt: null,
        dcv_method: 'dns-cname-token',
        action_required: false,
        ...fields,
      });
    };
    cert('cert-issued-recent', {});
    cert('cert-issued-old', {
      common_name: 'api.example.com',
      dns_names: ['api.example.com'],
      orderedAt: now - 40 * DAY,
    });
    cert('cert-pending', {
      status: 'pending',
      order_state: 'PENDING',
      common_name: 'shop.example.com',
      dns_names: ['shop.example.com'],
      orderedAt: now,
      issueAt: null, // stays pending until a test or the clock moves it (see `issueAt`)
    });
    cert('cert-revoked', {
      status: 'revoked',
      common_name: 'old.example.com',
      dns_names: ['old.example.com'],
      orderedAt: now - 90 * DAY,
    });

    this.organizations.set('org-acme', {
      id: 'org-acme',
      organization: 'Acme Example GmbH',
      status: 'ready',
      usable_for_ordering: true,
      first_name: 'Erika',
      last_name: 'Mustermann',
      address: 'Hauptstraße 1',
      postal_code: '10115',
      city: 'Berlin',
      country_code: 'DE',
      phone: '+49 30 1234567',
      email: 'pki@example.com',
    });
  }
}
