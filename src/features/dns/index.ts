import type { FeatureModule } from '../feature.js';
import { type RecordsPageDeps, recordsCommand, registerRecordPaging, zoneCommand } from './commands.js';

export type DnsDeps = RecordsPageDeps;

/** `/dns zone|records`. */
export const dnsFeature = {
  name: 'dns',
  register: (app, deps) => {
    deps.router.add('/dns', zoneCommand(deps)).add('/dns', recordsCommand(deps));
    registerRecordPaging(app, deps, deps.logger);
  },
} satisfies FeatureModule<DnsDeps>;
