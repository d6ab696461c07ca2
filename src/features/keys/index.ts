import type { FeatureModule } from '../feature.js';
import { keyCommand } from './commands.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';
import { registerKeyModal } from './views.js';

export interface KeysDeps {
  workspaceKeys: WorkspaceKeys;
  /** Workspace admins and owners, and the policy's Regdesk admins, may change the key. */
  isKeyAdmin: KeyAdminCheck;
}

/** `/domain key`: the workspace's registrar API key. */
export const keysFeature = {
  name: 'keys',
  register: (app, deps) => {
    deps.router.add('/domain', keyCommand(deps.workspaceKeys, deps.isKeyAdmin));
    registerKeyModal(app, deps.workspaceKeys, deps.isKeyAdmin, deps.logger);
  },
} satisfies FeatureModule<KeysDeps>;
