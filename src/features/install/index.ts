import type { App } from '@slack/bolt';
import { workspaceFields } from '../../shared/workspace.js';
import type { SlackDeps } from '../../slack/app.js';
import { dispatchOf } from '../../slack/dispatch.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import type { WatchService } from '../watches/service.js';
import { purgeWorkspace } from './service.js';

export interface InstallDeps {
  vault: Vault;
  audit: AuditLog;
  /** The workspace's watches and its digest scheduler go with it. */
  watches: Pick<WatchService, 'forget'>;
}

/**
 * `app_uninstalled`, and `tokens_revoked` for the bot token, end the installation: Regdesk then
 * forgets the workspace's installation, registrar key and everything else it stored for it, except
 * the audit trail, kept for its retention period with the uninstall recorded in it.
 */
export const installFeature = {
  name: 'install',
  register: (app, deps) => registerInstallLifecycle(app, deps),
} satisfies FeatureModule<InstallDeps>;

function registerInstallLifecycle(app: App, deps: SlackDeps & InstallDeps): void {
  const purge = async (body: { team_id?: string; enterprise_id?: string }, reason: string) => {
    if (body.team_id === undefined) return;
    const ref = workspaceFields({ teamId: body.team_id, enterpriseId: body.enterprise_id });
    await purgeWorkspace(deps.redis, deps.keys, deps.vault, deps.audit, ref, `slack:${reason}`, deps.logger);
    // After the purge, so a failure here cannot keep the data; the scheduler finds no settings anyway.
    await deps.watches.forget(ref);
  };
  dispatchOf(app).event('app_uninstalled', async ({ body }) => {
    await purge(body, 'app_uninstalled');
  });
  dispatchOf(app).event('tokens_revoked', async ({ event, body }) => {
    // Only the bot's token matters: Regdesk stores no user tokens.
    if ((event.tokens.bot ?? []).length > 0) await purge(body, 'tokens_revoked');
  });
}
