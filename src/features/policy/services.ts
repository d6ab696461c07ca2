import type { BaseDeps } from '../../shared/deps.js';
import { Languages } from '../../slack/language.js';
import type { SlackDirectory } from '../../slack/users.js';
import type { AuditLog } from '../audit/service.js';
import { Roles } from './permissions.js';
import { PolicyStore } from './policy.js';

export interface PolicyServiceFactoryDeps extends BaseDeps {
  audit: AuditLog;
  directory: SlackDirectory;
}

export interface PolicyServices {
  policies: PolicyStore;
  /** Who may do what: the one permission model every feature asks. */
  roles: Roles;
  /** The language of each person and of the workspace's channels, the policy's choice first. */
  languages: Languages;
}

/** The workspace's policy, the permission model that reads it, and the languages it may fix. */
export function buildPolicyServices(deps: PolicyServiceFactoryDeps): PolicyServices {
  const { redis, keys, logger, now, audit } = deps;
  const policies = new PolicyStore(redis, keys, logger, now);
  const roles = new Roles(deps.directory, policies, audit, logger);
  const languages = new Languages(
    async (workspace) => (await policies.get(workspace)).language,
    deps.directory,
    redis,
    keys,
    logger,
  );
  policies.onSave((workspace) => languages.settingChanged(workspace));
  return { policies, roles, languages };
}
