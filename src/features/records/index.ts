import type { FeatureModule } from '../feature.js';
import { type RecordCommandDeps, recordCommand } from './commands.js';
import { recordFollower } from './follow.js';
import { changeRecord } from './operations.js';
import { registerRecordViews } from './views.js';

export type RecordsDeps = RecordCommandDeps;

/**
 * `/dns record add|edit|delete`, Edit and Delete on records pages, Revert: DNS record changes through
 * the registrar's API beyond v1.6.2, by approval unless the policy exempts them (R47), followed until
 * the zone's nameservers serve them.
 */
export const recordsFeature = {
  name: 'records',
  operations: [changeRecord],
  followers: [recordFollower],
  register: (app, deps) => {
    deps.router.add('/dns', recordCommand(deps));
    registerRecordViews(app, deps, deps.logger);
  },
} satisfies FeatureModule<RecordsDeps>;
