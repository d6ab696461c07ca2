import type { AuditSettings } from '../../config.js';
import type { Metrics } from '../../shared/metrics.js';
import type { FeatureModule } from '../feature.js';
import { auditCommand } from './commands.js';
import { AuditDelivery } from './delivery.js';
import type { AuditCommandDeps } from './export.js';
import { buildSinks } from './services.js';

export interface AuditDeps extends AuditCommandDeps {
  config: { audit: AuditSettings };
  metrics: Pick<Metrics, 'auditDeliveryFailures'>;
}

/**
 * `/domain audit [DOMAIN]` and `/domain audit export`: the trail every feature writes to. Where workers
 * run, and a webhook or syslog is configured, the deliverer feeds them (docs/requirements.md R52).
 */
export const auditFeature = {
  name: 'audit',
  register: (_app, deps) => {
    deps.router.add('/domain', auditCommand(deps));
  },
  workers: (deps) => {
    if (deps.config.audit.webhook === undefined && deps.config.audit.syslog === undefined) return [];
    return [
      ({ connection, keys, logger }) => {
        const delivery = new AuditDelivery({
          redis: connection,
          keys,
          logger,
          metrics: deps.metrics,
          sinks: buildSinks(deps.config.audit),
        }).start();
        return { name: 'audit-delivery', close: () => delivery.close() };
      },
    ];
  },
} satisfies FeatureModule<AuditDeps>;
