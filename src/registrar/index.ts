import { type RegistrarClientOptions, RegistrarTransport } from './client.js';
import { assistantResource } from './resources/assistant.js';
import { dnsResource } from './resources/dns.js';
import { dnssecResource } from './resources/dnssec.js';
import { domainsResource } from './resources/domains.js';
import { organizationsResource } from './resources/organizations.js';
import { tlsResource } from './resources/tls.js';

export type { RegistrarClientOptions, RequestInfo } from './client.js';
export { DEFAULT_BASE_URL } from './client.js';
export * from './errors.js';
export type { AssistantAnswer } from './schemas/assistant.js';
export {
  DNS_RECORD_TYPES,
  DnsRecord,
  DnsRecordRequest,
  type DnsZone,
  type DnsZoneSummary,
} from './schemas/dns.js';
export type { DnssecRecord, DnssecState, DnssecUpdateParams } from './schemas/dnssec.js';
export type { AuthCode, Availability, Delegation, Domain } from './schemas/domains.js';
export {
  DCV_METHODS,
  ORGANIZATION_FIELDS,
  type OrganizationField,
  REGISTRAR_ID,
  REVOCATION_REASONS,
  type RevocationReason,
  TLS_PRODUCTS,
  type TlsCertificate,
  TlsCertificateOrderParams,
  TlsCertificateReissueParams,
  type TlsOrganization,
  type TlsOrganizationCreateParams,
  type TlsOrganizationUpdateParams,
  type TlsProduct,
  validationOf,
} from './schemas/tls.js';

/**
 * THE registrar client: all 20 operations of spec v1.6.2, grouped by API area, and the endpoints
 * beyond it (docs/registrar-api.md §10) behind a capability probe: `tls.products`, `tls.list`,
 * `dns.zones` answer undefined when not offered; `tls.complete` and the DNS record writes throw
 * `NotOfferedError`.
 */
export function createRegistrarClient(options: RegistrarClientOptions) {
  const transport = new RegistrarTransport(options);
  return {
    tls: tlsResource(transport),
    organizations: organizationsResource(transport),
    dnssec: dnssecResource(transport),
    dns: dnsResource(transport),
    domains: domainsResource(transport),
    assistant: assistantResource(transport),
  };
}

export type RegistrarClient = ReturnType<typeof createRegistrarClient>;
