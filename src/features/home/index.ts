import type { App, BlockAction } from '@slack/bolt';
import type { Logger } from '../../shared/logger.js';
import { onAction } from '../../slack/handlers.js';
import { notifyByDm } from '../../slack/reply.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { FeatureModule } from '../feature.js';
import { keyModal } from '../keys/blocks.js';
import type { WorkspaceKeys } from '../keys/service.js';
import type { Roles } from '../policy/permissions.js';
import { registerAgentActions } from './agents.js';
import { HOME_IDS } from './ids.js';
import type { HomeService } from './service.js';
import { onAppHomeTab } from './tabs.js';

export interface HomeDeps {
  home: HomeService;
  workspaceKeys: WorkspaceKeys;
  roles: Roles;
}

/**
 * The App Home tab: onboarding on a first visit, then key status, pending approvals, jobs, activity;
 * for guests and outside people only what Regdesk is (home/service.ts).
 */
export const homeFeature = {
  name: 'home',
  register: (app, deps) => registerHome(app, deps, deps.logger),
} satisfies FeatureModule<HomeDeps>;

function registerHome(app: App, deps: HomeDeps, logger: Logger): void {
  onAppHomeTab(app, 'home', async ({ event, body, client }) => {
    const workspace = workspaceOf(body);
    const firstVisit = await deps.home.visited(workspace, event.user);
    const view = await deps.home.view(client, workspace, event.user, firstVisit);
    await client.views.publish({ user_id: event.user, view });
  });

  // Home has no response_url: whatever the presser must hear goes to their DM with the bot.
  onAction<BlockAction>(app, HOME_IDS.setKey, logger, async ({ body, client }) => {
    const workspace = workspaceOf(body);
    const trigger = body.trigger_id;
    const access = await deps.roles.check(client, workspace, body.user.id, 'key');
    if (!access.allowed) {
      await notifyByDm(client, body.user.id, { text: text.slack.refused({ reason: access.reason }) }, logger);
      return;
    }
    await openModal(client, trigger, keyModal(await deps.workspaceKeys.status(workspace)));
  });
  onAction<BlockAction>(app, HOME_IDS.refresh, logger, async ({ body, client }) => {
    await deps.home.publish(client, workspaceOf(body), [body.user.id], logger);
  });
  const agents = deps.home.agents;
  if (agents !== undefined) {
    registerAgentActions(
      app,
      agents,
      (client, workspace, user) => deps.home.publish(client, workspace, [user], logger),
      logger,
    );
  }
}
