import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { keyCommand } from './commands.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';
import { registerKeyModal } from './views.js';

export function registerKeys(
  app: App,
  deps: SlackDeps & { workspaceKeys: WorkspaceKeys; isAdmin: KeyAdminCheck },
): void {
  deps.router.add('/domain', keyCommand(deps.workspaceKeys, deps.isAdmin));
  registerKeyModal(app, deps.workspaceKeys, deps.isAdmin, deps.logger);
}
