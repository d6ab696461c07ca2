import type { WorkspaceRef } from '../../shared/workspace.js';
import type { FeatureModule } from '../feature.js';
import type { Origin } from '../follow/jobs.js';
import { type DnssecCommandDeps, dnssecCommand } from './commands.js';
import { registerExternalRecords } from './external.js';
import { dnssecFollower } from './follow.js';
import { disableDnssec, setExternalDnssec } from './operations.js';

export interface DnssecDeps extends Omit<DnssecCommandDeps, 'followDnssec'> {
  follow(workspace: WorkspaceRef, kind: 'dnssec', domain: string, origin: Origin): Promise<void>;
}

/** `/dns dnssec`: state, transitions (followed until they settle), and the external-records modal. */
export const dnssecFeature = {
  name: 'dnssec',
  operations: [disableDnssec, setExternalDnssec],
  followers: [dnssecFollower],
  register: (app, deps) => {
    deps.router.add(
      '/dns',
      dnssecCommand({
        ...deps,
        followDnssec: (workspace, domain, origin) => deps.follow(workspace, 'dnssec', domain, origin),
      }),
    );
    registerExternalRecords(app, deps.approvals, deps.logger);
  },
} satisfies FeatureModule<DnssecDeps>;
