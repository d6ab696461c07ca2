import type { FeatureModule } from '../../slack/app.js';
import type { LookupDeps } from '../../slack/lookup.js';
import { recordsCommand, registerRecordPaging, zoneCommand } from './commands.js';

export type DnsDeps = LookupDeps;

/** `/dns zone|records`. */
export const dnsFeature: FeatureModule<DnsDeps> = {
  name: 'dns',
  register: (app, deps) => {
    deps.router.add('/dns', zoneCommand(deps)).add('/dns', recordsCommand(deps));
    registerRecordPaging(app, deps, deps.logger);
  },
};
