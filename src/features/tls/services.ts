import type { RegistrarClient } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ValidationLedger } from '../publish/validation-ledger.js';
import { CertificateOrders } from './order-service.js';
import { RenewalLedger } from './renewals.js';

export interface TlsServiceFactoryDeps {
  redis: Redis;
  keys: KeySpace;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  validations: ValidationLedger;
}

export interface TlsServices {
  /** The orders Regdesk placed, which watches read as renewals. */
  renewals: RenewalLedger;
  /** Placing orders, each name claimed once (the order modal and the approved `tls.order` alike). */
  certificateOrders: CertificateOrders;
}

export function buildTlsServices(deps: TlsServiceFactoryDeps): TlsServices {
  const renewals = new RenewalLedger(deps.redis, deps.keys);
  return { renewals, certificateOrders: new CertificateOrders({ ...deps, renewals }) };
}
