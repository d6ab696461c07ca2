import type { RegfishLimits } from '../../config.js';
import type { Limiter } from '../../shared/limiter.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { LookupDeps } from '../../slack/lookup.js';
import type { Requests } from '../approvals/request.js';
import type { FeatureModule } from '../feature.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { checkCommand } from './check.js';
import { authcodeCommand, infoCommand, nsCommand } from './commands.js';
import { changeNameservers, requestAuthCode } from './operations.js';
import { AvailabilityService } from './service.js';
import type { VanitySets } from './vanity.js';

export interface DomainsDeps extends LookupDeps {
  approvals: Requests<typeof requestAuthCode | typeof changeNameservers>;
  vanitySets: VanitySets;
  workspaceKeys: WorkspaceKeys;
  limiter: Limiter;
  keys: KeySpace;
  redis: Redis;
  limits: RegfishLimits;
  now: () => number;
}

/** `/domain check|info|ns|authcode`. */
export const domainsFeature = {
  name: 'domains',
  operations: [requestAuthCode, changeNameservers],
  register: (_app, deps) => {
    deps.router
      .add('/domain', checkCommand(new AvailabilityService({ ...deps, limit: deps.limits.availability })))
      .add('/domain', infoCommand(deps))
      .add('/domain', nsCommand(deps))
      .add('/domain', authcodeCommand(deps));
  },
} satisfies FeatureModule<DomainsDeps>;
