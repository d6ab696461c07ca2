import { createHash } from 'node:crypto';
import { field, type Route, SandboxError } from './http.js';
import type { SandboxCertificate, SandboxState } from './state.js';
import { zip } from './zip.js';

/** The seven wire skus the sandbox accepts (docs/registrar-api.md §4.1 names the products; wire values are the provider's). */
export const SANDBOX_SKUS = [
  'RapidSSL',
  'RapidSSLWildcard',
  'QuickSSLPremium',
  'SSL123',
  'TrueBusinessID',
  'SecureSite',
  'SSLWebServer',
];
/** OV-style products: ordering without an organization answers action_required. */
const ORGANIZATION_SKUS = new Set(['TrueBusinessID', 'SecureSite', 'SSLWebServer']);
/**
 * `GET /tls/products` (spec addendum §1 #8): the fields are recorded, their values are not, so the
 * sandbox says what the seven products are: DigiCert's brands, `ca` as the CA's name.
 */
const PRODUCTS = SANDBOX_SKUS.map((sku) => ({
  sku,
  name: sku.replace(/([a-z])([A-Z])/g, '$1 $2'),
  type: sku.includes('Wildcard') ? 'wildcard' : 'single',
  ca: 'DigiCert',
  recommended: sku === 'RapidSSL',
  validation_level: ORGANIZATION_SKUS.has(sku) ? 'OV' : 'DV',
  organization_required: ORGANIZATION_SKUS.has(sku),
}));
const REASONS = new Set([
  'unspecified',
  'keyCompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
]);
const REVOKE_WINDOW_MS = 7 * 86_400_000;

export interface TlsOptions {
  state: SandboxState;
  certificateIssueMs: number;
}

/** Lazily move a pending certificate to issued once its time has come (no timers). */
export function settle(cert: SandboxCertificate, now: number): SandboxCertificate {
  if (cert.status === 'pending' && cert.issueAt !== null && now >= cert.issueAt && !cert.action_required) {
    cert.status = 'issued';
    cert.order_state = 'COMPLETED';
  }
  return cert;
}

function view(cert: SandboxCertificate, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const pending = cert.status === 'pending';
  return {
    id: cert.id,
    status: cert.status,
    common_name: cert.common_name,
    product: cert.product,
    provider: 'DigiCert',
    dns_names: cert.dns_names,
    action_required: cert.action_required,
    pending_reason: pending ? 'validation_pending' : '',
    pending_message: pending ? 'Waiting for domain control validation.' : '',
    completion_url: cert.action_required ? `https://dash.regfish.example/my/tls/${cert.id}/complete` : '',
    organization_id: cert.organization_id,
    certificate_pem_available: cert.status === 'issued',
    // Not only on order creation: the purchased term lets watches work out an expiry (docs/registrar-api.md §2.2).
    validity_days: cert.validity_days,
    // Not in the spec's field list (unknown fields are allowed): lets clients show the 7-day window.
    ordered_at: Math.floor(cert.orderedAt / 1000),
    ...extra,
  };
}

/** A staged order (`action_required`) has no validation records until it is completed (spec addendum §4). */
function validation(cert: SandboxCertificate): Record<string, unknown> {
  const token = createHash('sha256').update(cert.id).digest('hex').slice(0, 32);
  return {
    method: cert.dcv_method,
    dns_records:
      cert.dcv_method === 'dns-cname-token' && !cert.action_required
        ? [cert.common_name, ...cert.dns_names.filter((n) => n !== cert.common_name)].map((name) => ({
            name: `_${token.slice(0, 16)}.${name.replace(/^\*\./, '')}.`,
            type: 'CNAME',
            value: `${token}.dcv.digicert.example.`,
          }))
        : [],
  };
}

function csrOf(body: Record<string, unknown>): string {
  const csr = field.string(body, 'csr') ?? '';
  if (!/-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(csr)) throw new SandboxError(400, 'Invalid CSR');
  return csr;
}

function reason(body: Record<string, unknown>): void {
  const value = body.revocation_reason;
  if (value !== undefined && (typeof value !== 'string' || !REASONS.has(value))) {
    throw new SandboxError(400, 'Invalid request or revocation reason');
  }
}

export function pemFor(cert: SandboxCertificate): string {
  if (cert.pem !== undefined) return cert.pem;
  const body = Buffer.from(`sandbox certificate ${cert.id} for ${cert.common_name}`).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

export function tlsRoutes({ state, certificateIssueMs }: TlsOptions): Route[] {
  const find = (id: string | undefined, now: number) => {
    const cert = id === undefined ? undefined : state.certificates.get(id);
    if (cert === undefined) throw new SandboxError(404, 'Certificate not found');
    return settle(cert, now);
  };
  return [
    {
      method: 'GET',
      pattern: /^\/tls\/products$/,
      operation: 'tls.products',
      handler: () => ({ response: PRODUCTS }),
    },
    {
      method: 'GET',
      pattern: /^\/tls\/certificate$/,
      operation: 'tls.list',
      handler: ({ now }) => ({
        response: [...state.certificates.values()].map((cert) => view(settle(cert, now))),
      }),
    },
    {
      method: 'POST',
      pattern: /^\/tls\/certificate$/,
      operation: 'tls.order',
      handler: ({ body, now }) => {
        const sku = field.string(body, 'sku') ?? '';
        if (!SANDBOX_SKUS.includes(sku)) throw new SandboxError(400, 'Invalid product');
        const commonName = (field.string(body, 'common_name') ?? '').toLowerCase();
        csrOf(body);
        const dcv = field.string(body, 'dcv_method') ?? '';
        if (dcv !== 'dns-cname-token' && dcv !== 'email')
          throw new SandboxError(400, 'Invalid payload: dcv_method');
        const orgId = field.string(body, 'org_id', false);
        if (orgId !== undefined && state.organizations.get(orgId)?.usable_for_ordering !== true) {
          throw new SandboxError(409, 'Order cannot be submitted: no usable CA organization');
        }
        const renewal = field.string(body, 'renewal_of_certificate_id', false);
        if (renewal !== undefined && !state.certificates.has(renewal))
          throw new SandboxError(404, 'Renewal source not found');
        const validity = field.integer(body, 'validity_days') ?? 365;
        const names = field.strings(body, 'dns_names') ?? [];
        const cert: SandboxCertificate = {
          id: state.newId('cert-'),
          status: 'pending',
          common_name: commonName,
          product: sku,
          dns_names: [...new Set([commonName, ...names.map((n) => n.toLowerCase())])],
          order_state: 'PENDING',
          organization_id: orgId ?? null,
          validity_days: validity,
          orderedAt: now,
          issueAt: now + certificateIssueMs,
          dcv_method: dcv,
          action_required: ORGANIZATION_SKUS.has(sku) && orgId === undefined,
        };
        state.certificates.set(cert.id, cert);
        return {
          response: view(cert, {
            order_state: cert.order_state,
            validity_days: validity,
            validation: validation(cert),
          }),
        };
      },
    },
    {
      method: 'POST',
      pattern: /^\/tls\/certificate\/([^/]+)\/reissue$/,
      operation: 'tls.reissue',
      handler: ({ params, body, now }) => {
        const cert = find(params[0], now);
        csrOf(body);
        if (cert.status !== 'issued' && cert.status !== 'certificate-revoked') {
          throw new SandboxError(409, 'Certificate cannot be reissued in its current state');
        }
        const names = field.strings(body, 'dns_names');
        if (names !== undefined && [...names].sort().join(',') !== [...cert.dns_names].sort().join(',')) {
          throw new SandboxError(400, 'Invalid payload: dns_names must equal the current order exactly');
        }
        cert.status = 'pending';
        cert.order_state = 'PENDING';
        cert.dcv_method = field.string(body, 'dcv_method') ?? cert.dcv_method;
        cert.issueAt = now + certificateIssueMs;
        // As the real registrar answers a reissue (spec addendum §4): its validation under `reissue`.
        return { response: view(cert, { reissue: { validation: validation(cert) } }) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/tls\/certificate\/([^/]+)\/complete$/,
      operation: 'tls.complete',
      handler: ({ params, body, now }) => {
        const cert = find(params[0], now);
        const orgId = field.string(body, 'org_id') ?? '';
        if (cert.status !== 'pending' || !cert.action_required)
          throw new SandboxError(409, 'Order does not need completion');
        if (state.organizations.get(orgId)?.usable_for_ordering !== true)
          throw new SandboxError(409, 'Order cannot be submitted: no usable CA organization');
        // Now an ordinary pending order: validation starts, and issuance follows as for any order.
        cert.action_required = false;
        cert.organization_id = orgId;
        cert.issueAt = now + certificateIssueMs;
        return {
          response: view(cert, { order_state: cert.order_state, validation: validation(cert) }),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/tls\/certificate\/([^/]+)$/,
      operation: 'tls.get',
      handler: ({ params, now }) => ({ response: view(find(params[0], now)) }),
    },
    {
      method: 'POST',
      pattern: /^\/tls\/certificate\/([^/]+)\/order-cancel$/,
      operation: 'tls.orderCancel',
      handler: ({ params, body, now }) => {
        const cert = find(params[0], now);
        reason(body);
        if (cert.status === 'pending') {
          cert.status = 'cancelled';
          cert.order_state = 'CANCELLED';
        } else if (
          (cert.status === 'issued' || cert.status === 'certificate-revoked') &&
          now - cert.orderedAt <= REVOKE_WINDOW_MS
        ) {
          cert.status = 'revoked';
          cert.order_state = 'REVOKED';
        } else {
          throw new SandboxError(409, 'Order cannot be cancelled or revoked in its current state');
        }
        return { response: view(cert) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/tls\/certificate\/([^/]+)\/revoke$/,
      operation: 'tls.revoke',
      handler: ({ params, body, now }) => {
        const cert = find(params[0], now);
        reason(body);
        if (cert.status !== 'issued')
          throw new SandboxError(409, 'Certificate cannot be revoked in its current state');
        cert.status = 'certificate-revoked';
        return { response: view(cert) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/tls\/certificate\/([^/]+)\/download\/([^/]+)$/,
      operation: 'tls.download',
      handler: ({ params, now }) => {
        const cert = find(params[0], now);
        const format = params[1];
        if (format !== 'pem' && format !== 'zip')
          throw new SandboxError(400, 'Invalid request: format must be pem or zip');
        if (cert.status !== 'issued') throw new SandboxError(409, 'Certificate artifact not available yet');
        const pem = pemFor(cert);
        // The ZIP's content type is "not shown" in the spec; the sandbox answers application/zip.
        if (format === 'zip')
          return { raw: zip({ 'certificate.pem': pem, 'chain.pem': pem }), contentType: 'application/zip' };
        return { raw: Buffer.from(pem), contentType: 'text/plain' };
      },
    },
  ];
}
