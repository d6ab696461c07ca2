import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import { keyCommand } from './commands.js';
import type { WorkspaceKeys } from './service.js';
import { registerKeyModal } from './views.js';

export function registerKeys(app: App, deps: SlackDeps & { workspaceKeys: WorkspaceKeys }): void {
  deps.router.add('/domain', keyCommand(deps.workspaceKeys));
  registerKeyModal(app, deps.workspaceKeys, deps.logger);
}
