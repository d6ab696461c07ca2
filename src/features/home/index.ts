import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { WorkspaceRef } from '../../vault/store.js';
import type { ApprovalStore } from '../approvals/store.js';
import type { AuditLog } from '../audit/service.js';
import type { WorkspaceKeys } from '../keys/service.js';
import { homeView } from './blocks.js';

export interface HomeDeps {
  workspaceKeys: WorkspaceKeys;
  approvals: ApprovalStore;
  audit: AuditLog;
  running: (workspace: WorkspaceRef) => Promise<string[]>;
}

/** The App Home tab, rendered fresh each time it is opened. */
export function registerHome(app: App, deps: SlackDeps & HomeDeps): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const workspace = workspaceOf(body);
    const [key, pending, running, recent] = await Promise.all([
      deps.workspaceKeys.status(workspace),
      deps.approvals.pending(workspace, 20),
      deps.running(workspace),
      deps.audit.latest(workspace, { limit: 15 }),
    ]);
    await client.views.publish({ user_id: event.user, view: homeView({ key, pending, running, recent }) });
  });
}
