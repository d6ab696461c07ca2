import type { App } from '@slack/bolt';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { ApprovalStore } from '../approvals/store.js';
import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { homeView } from './blocks.js';

export interface HomeDeps {
  workspaceKeys: WorkspaceKeys;
  approvalStore: ApprovalStore;
  audit: AuditLog;
  /** One line per queued or running job of the workspace (executions, followers). */
  runningJobs: (workspace: WorkspaceRef) => Promise<string[]>;
}

/** The App Home tab, rendered fresh each time it is opened. */
export const homeFeature = {
  name: 'home',
  register: (app, deps) => registerHome(app, deps),
} satisfies FeatureModule<HomeDeps>;

function registerHome(app: App, deps: HomeDeps): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const workspace = workspaceOf(body);
    const [key, pending, running, recent] = await Promise.all([
      deps.workspaceKeys.status(workspace),
      deps.approvalStore.pending(workspace, 20),
      deps.runningJobs(workspace),
      deps.audit.latest(workspace, { limit: 15 }),
    ]);
    await client.views.publish({ user_id: event.user, view: homeView({ key, pending, running, recent }) });
  });
}
