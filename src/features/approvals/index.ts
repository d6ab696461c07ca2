import type { WebClient } from '@slack/web-api';
import { createWorker } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import { auditCommand } from '../audit/commands.js';
import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import { registerApprovalActions } from './actions.js';
import { APPROVALS_QUEUE, approvalProcessor } from './jobs.js';
import type { Roles } from './permissions.js';
import type { PolicyStore } from './policy.js';
import { policyCommand, registerPolicyModal } from './policy-view.js';
import type { ApprovalDecisions } from './service.js';

export interface ApprovalsDeps {
  approvals: ApprovalDecisions;
  policies: PolicyStore;
  roles: Roles;
  audit: AuditLog;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  languages: Languages;
}

/** `/domain policy`, `/domain audit [export]`, the Approve/Deny/Withdraw buttons and the approval jobs. */
export const approvalsFeature = {
  name: 'approvals',
  register: (app, deps) => {
    deps.router.add('/domain', policyCommand(deps.policies, deps.roles)).add('/domain', auditCommand(deps));
    registerPolicyModal(app, deps.policies, deps.roles, deps.audit, deps.logger);
    registerApprovalActions(app, deps.approvals, deps.logger);
  },
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      createWorker(
        APPROVALS_QUEUE,
        approvalProcessor(deps.approvals, deps.slackFor, deps.languages),
        connection,
        keys,
        logger,
      ),
  ],
} satisfies FeatureModule<ApprovalsDeps>;
