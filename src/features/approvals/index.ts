import type { WebClient } from '@slack/web-api';
import { createWorker } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { FeatureModule } from '../feature.js';
import { registerApprovalActions } from './actions.js';
import { registerRequestDetours } from './detours.js';
import { APPROVALS_QUEUE, approvalProcessor } from './jobs.js';
import type { ApprovalDecisions } from './service.js';

export interface ApprovalsDeps {
  approvals: ApprovalDecisions;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  languages: Languages;
}

/**
 * The Approve/Deny/Withdraw/Reveal buttons, the reason modal and Break glass, and the approval jobs
 * (expiry, reminders and escalation, execution).
 */
export const approvalsFeature = {
  name: 'approvals',
  register: (app, deps) => {
    registerApprovalActions(app, deps.approvals, deps.logger);
    registerRequestDetours(app, deps.approvals, deps.logger);
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
