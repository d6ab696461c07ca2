import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../slack/app.js';
import type { Vault } from '../../vault/store.js';
import type { FeatureModule } from '../feature.js';
import { purgeWorkspace } from './service.js';

/**
 * `app_uninstalled`, and `tokens_revoked` for the bot token, end the installation: Regdesk then
 * forgets the workspace's installation, registrar key and everything else it stored for it.
 */
export const installFeature = {
  name: 'install',
  register: (app, deps) => registerInstallLifecycle(app, deps),
} satisfies FeatureModule<{ vault: Vault }>;

function registerInstallLifecycle(app: App, deps: SlackDeps & { vault: Vault }): void {
  const purge = async (body: { team_id?: string; enterprise_id?: string }) => {
    if (body.team_id === undefined) return;
    const ref =
      body.enterprise_id === undefined
        ? { teamId: body.team_id }
        : { teamId: body.team_id, enterpriseId: body.enterprise_id };
    await purgeWorkspace(deps.redis, deps.keys, deps.vault, ref, deps.logger);
  };
  app.event('app_uninstalled', async ({ body }) => {
    await purge(body);
  });
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot's token matters: Regdesk stores no user tokens.
    if ((event.tokens.bot ?? []).length > 0) await purge(body);
  });
}
