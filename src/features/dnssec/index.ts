import type { WorkspaceRef } from '../../shared/workspace.js';
import type { FeatureModule } from '../../slack/app.js';
import type { LookupDeps } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Requests } from '../approvals/request.js';
import type { Origin } from '../follow/jobs.js';
import { dnssecCommand } from './commands.js';
import { registerExternalRecords } from './external.js';
import type { disableDnssec, setExternalDnssec } from './operations.js';

export interface DnssecDeps extends LookupDeps {
  approvals: Requests<typeof disableDnssec | typeof setExternalDnssec>;
  poster: ChannelPoster;
  follow(workspace: WorkspaceRef, kind: 'dnssec', domain: string, origin: Origin): Promise<void>;
}

/** `/dns dnssec`: state, transitions (followed until they settle), and the external-records modal. */
export const dnssecFeature: FeatureModule<DnssecDeps> = {
  name: 'dnssec',
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
};
