import { z } from 'zod';

/** DNS record to publish for domain control validation (docs/registrar-api.md §2.2 `validation.dns_records`). */
export const ValidationRecord = z.lazy(() =>
  z.looseObject({ name: z.string(), type: z.string(), value: z.string() }),
);

/**
 * Certificate (docs/registrar-api.md §2.2). Status, order_state and pending_reason values beyond the ones named are
 * "not shown", so any string is accepted. `order_state`, `validity_days` and `validation` appear only
 * on order creation; the other fields are absent-tolerant too because get/reissue/cancel/revoke
 * examples show fewer fields.
 */
const Validation = z.lazy(() =>
  z.looseObject({
    method: z.string().optional(),
    dns_records: z.array(ValidationRecord).default([]),
  }),
);

export const TlsCertificate = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    status: z.string(),
    common_name: z.string(),
    product: z.string().optional(),
    provider: z.string().optional(),
    dns_names: z.array(z.string()).default([]),
    order_state: z.string().optional(),
    action_required: z.boolean().optional(),
    pending_reason: z.string().optional(),
    pending_message: z.string().optional(),
    completion_url: z.string().optional(),
    organization_id: z.string().nullable().optional(),
    validity_days: z.number().int().optional(),
    certificate_pem_available: z.boolean().optional(),
    validation: Validation.optional(),
    /** A reissue's answer carries its validation here (spec addendum §4), not at the top level. */
    reissue: z.looseObject({ validation: Validation.optional() }).optional(),
  }),
);
export type TlsCertificate = z.infer<typeof TlsCertificate>;

/**
 * The certificate's current validation: a reissue's (`reissue.validation`, spec addendum §4) when the
 * answer carries one with records, else the top level's (an order, a completion, a read).
 */
export function validationOf(certificate: TlsCertificate): TlsCertificate['validation'] {
  const reissued = certificate.reissue?.validation;
  return reissued !== undefined && reissued.dns_records.length > 0 ? reissued : certificate.validation;
}

/**
 * The contact fields of a TLS organization, all required on create (docs/registrar-api.md §4.2). The one
 * list: the schemas below and Regdesk's organization form are made from it.
 */
export const ORGANIZATION_FIELDS = [
  'organization',
  'first_name',
  'last_name',
  'address',
  'postal_code',
  'city',
  'country_code',
  'phone',
  'email',
] as const;
export type OrganizationField = (typeof ORGANIZATION_FIELDS)[number];

const contactFields = <T extends z.ZodType>(schema: () => T) =>
  Object.fromEntries(ORGANIZATION_FIELDS.map((field) => [field, schema()])) as Record<OrganizationField, T>;

/** Organization (docs/registrar-api.md §2.3); formats of the contact fields are not shown, so plain strings. */
export const TlsOrganization = z.lazy(() =>
  z.looseObject({
    ...contactFields(() => z.string().optional()),
    id: z.string(),
    organization: z.string(),
    status: z.string(),
    usable_for_ordering: z.boolean().optional(),
  }),
);
export type TlsOrganization = z.infer<typeof TlsOrganization>;

export const DCV_METHODS = ['dns-cname-token', 'email'] as const;
export const REVOCATION_REASONS = [
  'unspecified',
  'keyCompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

/**
 * The seven products of docs/registrar-api.md §4.1. Their wire values are "the provider's product name" and not given;
 * these are the issuing provider's (DigiCert/GeoTrust family) product names. Any non-empty sku is
 * still sent as given, so a registrar that spells them differently is not refused by us.
 */
export const TLS_PRODUCTS = [
  { sku: 'RapidSSL', name: 'RapidSSL (DV)', organization: false, wildcard: false },
  { sku: 'RapidSSLWildcard', name: 'RapidSSL Wildcard (DV)', organization: false, wildcard: true },
  { sku: 'QuickSSLPremium', name: 'QuickSSL Premium (DV)', organization: false, wildcard: false },
  { sku: 'SSL123', name: 'Thawte SSL 123 (DV)', organization: false, wildcard: false },
  { sku: 'TrueBusinessID', name: 'True BusinessID (OV)', organization: true, wildcard: false },
  { sku: 'SecureSite', name: 'Secure Site (OV)', organization: true, wildcard: false },
  { sku: 'SSLWebServer', name: 'SSL Web Server (OV)', organization: true, wildcard: false },
] as const;

/**
 * A product of `GET /tls/products` (spec addendum §1 #8, beyond v1.6.2). The field list is recorded,
 * the values are not: every field but `sku` is optional, and `ca` may be the CA's name or its domain
 * (features/diagnostics/caa.ts reads either).
 */
export const TlsProduct = z.lazy(() =>
  z.looseObject({
    sku: z.string(),
    name: z.string().optional(),
    type: z.string().optional(),
    ca: z.string().optional(),
    recommended: z.boolean().optional(),
    validation_level: z.string().optional(),
    organization_required: z.boolean().optional(),
  }),
);
export type TlsProduct = z.infer<typeof TlsProduct>;

const csr = z.lazy(() =>
  z.string().regex(/-----BEGIN (NEW )?CERTIFICATE REQUEST-----/, 'must be a PEM certificate signing request'),
);

export const TlsCertificateOrderParams = z.lazy(() =>
  z.object({
    sku: z.string().min(1),
    common_name: z.string().min(1),
    dns_names: z.array(z.string()).optional(),
    csr,
    dcv_method: z.enum(DCV_METHODS),
    dcv_emails: z.array(z.email()).optional(),
    org_id: z.string().optional(),
    renewal_of_certificate_id: z.string().optional(),
    validity_days: z.number().int().positive().optional(),
  }),
);
export type TlsCertificateOrderParams = z.infer<typeof TlsCertificateOrderParams>;

export const TlsCertificateReissueParams = z.lazy(() =>
  z.object({
    csr,
    dcv_method: z.enum(DCV_METHODS),
    common_name: z.string().optional(),
    dns_names: z.array(z.string()).optional(),
    comments: z.string().optional(),
    validity_days: z.number().int().positive().optional(),
  }),
);
export type TlsCertificateReissueParams = z.infer<typeof TlsCertificateReissueParams>;

export const TlsCertificateRevokeParams = z.lazy(() =>
  z.object({
    comment: z.string().optional(),
    revocation_reason: z.enum(REVOCATION_REASONS).optional(),
  }),
);
export type TlsCertificateRevokeParams = z.infer<typeof TlsCertificateRevokeParams>;

/** `POST /tls/certificate/{id}/complete` (spec addendum §1 #9): the organization to complete with. */
export const TlsCertificateCompleteParams = z.lazy(() => z.object({ org_id: z.string().min(1) }));
export type TlsCertificateCompleteParams = z.infer<typeof TlsCertificateCompleteParams>;

const contact = contactFields(() => z.string().min(1));
export const TlsOrganizationCreateParams = z.lazy(() => z.object(contact));
export type TlsOrganizationCreateParams = z.infer<typeof TlsOrganizationCreateParams>;

export const TlsOrganizationUpdateParams = z.lazy(() =>
  z
    .object(contact)
    .partial()
    .extend({ edit_mode: z.enum(['create_replacement', 'update_provider']).optional() }),
);
export type TlsOrganizationUpdateParams = z.infer<typeof TlsOrganizationUpdateParams>;

/** Certificate and organization ids as Regdesk accepts them from commands and button values. */
export const REGISTRAR_ID = /^[A-Za-z0-9_.-]{1,100}$/;
