import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import type { Roles } from './permissions.js';
import type { PolicyStore } from './policy.js';
import { policyCommand, registerPolicyModal } from './view.js';

export interface PolicyDeps {
  policies: PolicyStore;
  roles: Roles;
  audit: AuditLog;
}

/** `/domain policy`: who may request, approve, order and manage, and what needs an approval. */
export const policyFeature = {
  name: 'policy',
  register: (app, deps) => {
    deps.router.add('/domain', policyCommand(deps.policies, deps.roles, deps.audit));
    registerPolicyModal(app, deps.policies, deps.roles, deps.audit, deps.logger);
  },
} satisfies FeatureModule<PolicyDeps>;
