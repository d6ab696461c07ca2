import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { FeatureModule } from '../../slack/app.js';
import type { LookupDeps } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Origin } from '../follow/jobs.js';
import { showCommand, showOrganization } from './commands.js';
import { downloadCommand } from './download.js';
import { orderCommand, registerOrderModal } from './order.js';
import { orgCommand, registerOrgModal } from './organizations.js';
import { registerReissue, reissueCommand } from './reissue.js';
import { type RevocationRequests, registerReasonModal, revocationCommand } from './revoke.js';

export interface TlsDeps extends LookupDeps {
  approvals: RevocationRequests;
  poster: ChannelPoster;
  redis: Redis;
  keys: KeySpace;
  follow(workspace: WorkspaceRef, kind: 'certificate', id: string, origin: Origin): Promise<void>;
}

/** `/tls order|show|reissue|download|revoke|cancel|org`; issued certificates are followed. */
export const tlsFeature: FeatureModule<TlsDeps> = {
  name: 'tls',
  register: (app, deps) => {
    const withFollow = {
      ...deps,
      followCertificate: (workspace: WorkspaceRef, id: string, origin: Origin) =>
        deps.follow(workspace, 'certificate', id, origin),
    };
    deps.router
      .add('/tls', orderCommand())
      .add('/tls', showCommand(deps))
      .add('/tls', reissueCommand(withFollow))
      .add('/tls', downloadCommand(deps))
      .add('/tls', revocationCommand('revoke', deps.approvals))
      .add('/tls', revocationCommand('cancel', deps.approvals))
      .add('/tls', orgCommand(deps, showOrganization(deps)));
    registerReasonModal(app, deps.approvals, deps.logger);
    registerOrgModal(app, deps, deps.logger);
    registerReissue(app, withFollow);
    registerOrderModal(app, withFollow);
  },
};
