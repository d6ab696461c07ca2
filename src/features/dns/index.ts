import type { LookupDeps } from '../../slack/lookup.js';
import type { FeatureModule } from '../feature.js';
import { recordsCommand, registerRecordPaging, zoneCommand } from './commands.js';

export type DnsDeps = LookupDeps;

/** `/dns zone|records`. */
export const dnsFeature = {
  name: 'dns',
  register: (app, deps) => {
    deps.router.add('/dns', zoneCommand(deps)).add('/dns', recordsCommand(deps));
    registerRecordPaging(app, deps, deps.logger);
  },
} satisfies FeatureModule<DnsDeps>;
