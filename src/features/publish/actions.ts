import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { REGISTRAR_ID } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { onAction, presser } from '../../slack/handlers.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { outcomeMessage } from './blocks.js';
import { type PublishGateDeps, publishOrAsk } from './gate.js';
import { PUBLISH_IDS } from './ids.js';
import type { PublishDeps } from './service.js';

/**
 * **Publish validation records** on a pending certificate's card, by the policy (gate.ts): whoever may
 * order certificates may press it; the plan only creates records under the order's own names, replaces
 * only Regdesk's own, and writes nothing where another record is in the way (docs/requirements.md R46).
 */
export function registerPublishActions(app: App, deps: PublishGateDeps, logger: Logger): void {
  onAction<BlockAction<ButtonAction>>(app, PUBLISH_IDS.publish, logger, async (args) => {
    const certificateId = args.action.value ?? '';
    if (!REGISTRAR_ID.test(certificateId)) throw new Error('malformed publish button value');
    const workspace = workspaceOf(args.body);
    const user = args.body.user.id;
    const channel = args.body.channel?.id ?? user;
    const threadTs = args.body.message?.thread_ts ?? args.body.message?.ts;
    const person = presser(args);
    const outcome = await publishOrAsk(deps, workspace, certificateId, {
      ...person,
      channel,
      ...(threadTs === undefined ? {} : { threadTs }),
    });
    if (outcome.kind === 'requested') return;
    const servers = outcome.kind === 'plan' ? await zoneServers(deps, outcome.steps) : new Map();
    await replyPrivately(person, outcomeMessage(certificateId, outcome, servers), logger);
  });
}

/** The nameservers that serve each zone not hosted at the registrar, as the resolvers see them. */
async function zoneServers(
  deps: Pick<PublishDeps, 'dnsClient'>,
  steps: ReadonlyArray<{ action: string; zone: string }>,
): Promise<Map<string, string[]>> {
  const servers = new Map<string, string[]>();
  for (const zone of new Set(steps.filter((step) => step.action === 'elsewhere').map((step) => step.zone))) {
    const records = await deps.dnsClient.records(zone, 'NS').catch(() => []);
    servers.set(
      zone,
      records.flatMap((record) => (record.type === 'NS' ? [record.data.replace(/\.$/, '')] : [])),
    );
  }
  return servers;
}
