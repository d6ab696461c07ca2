import type { FeatureModule } from '../feature.js';
import { auditCommand } from './commands.js';
import type { AuditCommandDeps } from './export.js';

/** `/domain audit [DOMAIN]` and `/domain audit export`: the trail every feature writes to. */
export const auditFeature = {
  name: 'audit',
  register: (_app, deps) => {
    deps.router.add('/domain', auditCommand(deps));
  },
} satisfies FeatureModule<AuditCommandDeps>;
