import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { AuditLog } from '../audit/service.js';
import type { ProductsCa } from '../diagnostics/caa.js';
import type { ValidationLedger } from '../publish/validation-ledger.js';
import { CertificateOrders } from './order-service.js';
import { CertificatePreflight } from './preflight.js';
import { RenewalLedger } from './renewals.js';

export interface TlsServiceFactoryDeps {
  redis: Redis;
  keys: KeySpace;
  now: () => number;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  validations: ValidationLedger;
  audit: AuditLog;
  /** Live DNS, the CA behind the products and the root's trust anchors (features/diagnostics). */
  dnsClient: DnsClient;
  productsCa: ProductsCa;
  trustAnchors: readonly TrustAnchor[];
}

export interface TlsServices {
  /** The orders Regdesk placed, which watches read as renewals. */
  renewals: RenewalLedger;
  /** Placing orders, each name claimed once (the order modal and the approved `tls.order` alike). */
  certificateOrders: CertificateOrders;
  /**
   * DNSSEC and CAA of every name before an order, renewal, reissue or completion is sent (preflight.ts):
   * in the modals and buttons, and again when an approved request runs.
   */
  certificatePreflight: CertificatePreflight;
}

export function buildTlsServices(deps: TlsServiceFactoryDeps): TlsServices {
  const renewals = new RenewalLedger(deps.redis, deps.keys);
  return {
    renewals,
    certificateOrders: new CertificateOrders({ ...deps, renewals }),
    certificatePreflight: new CertificatePreflight(deps),
  };
}
