import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { BaseDeps } from '../../shared/deps.js';
import type { LookupDeps } from '../../slack/lookup.js';
import type { FeatureModule } from '../feature.js';
import type { ProductsCa } from './caa.js';
import { checkCommand } from './commands.js';
import { CheckGate } from './gate.js';
import type { PlacedOrders } from './service.js';

export interface DiagnosticsFeatureDeps extends BaseDeps, LookupDeps {
  dnsClient: DnsClient;
  productsCa: ProductsCa;
  /** DNSSEC_TRUST_ANCHOR (dns/validator.ts). */
  trustAnchors: readonly TrustAnchor[];
  /** Certificate orders the tls feature placed, with their validation records (features/tls/renewals.ts). */
  renewals: PlacedOrders;
}

/** `/dns check`: what resolvers and the zone's own nameservers say, beside the registrar (issue #30). */
export const diagnosticsFeature = {
  name: 'diagnostics',
  register: (_app, deps) => {
    deps.router.add(
      '/dns',
      checkCommand({
        ...deps,
        dns: deps.dnsClient,
        ledger: deps.renewals,
        checkGate: new CheckGate(deps.redis, deps.keys),
      }),
    );
  },
} satisfies FeatureModule<DiagnosticsFeatureDeps>;
