import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { domainArgument } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { onAction } from '../../slack/handlers.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { readMetadata } from '../../slack/modal.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { RecordCapability } from '../records/capability.js';
import { PageRef, recordsPage, zoneCard } from './blocks.js';
import { DNS_IDS } from './ids.js';
import { recordPage } from './service.js';

export interface RecordsPageDeps extends LookupDeps {
  recordCapability: RecordCapability;
}

const RECORD_TYPE = /^[A-Za-z0-9]{1,10}$/;

export function zoneCommand(deps: LookupDeps): Subcommand {
  return {
    name: 'zone',
    usage: () => text.dns.zoneUsage,
    summary: () => text.dns.zoneSummary,
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, text.dns.zoneUsageReply);
      await lookup(ctx, deps, async (registrar) => zoneCard(await registrar.dns.zone(domain)));
    },
  };
}

export function recordsCommand(deps: RecordsPageDeps): Subcommand {
  return {
    name: 'records',
    usage: () => text.dns.recordsUsage,
    summary: () => text.dns.recordsSummary,
    run: async (ctx) => {
      const [name, type] = ctx.args;
      const domain = domainArgument(name);
      if (domain === undefined || (type !== undefined && !RECORD_TYPE.test(type))) {
        return usage(ctx, text.dns.recordsUsageReply);
      }
      await lookup(ctx, deps, async (registrar, workspace) =>
        recordsPage(
          await recordPage(registrar, domain, type, 0, (zone) =>
            deps.recordCapability.offered(workspace, registrar, zone),
          ),
        ),
      );
    },
  };
}

/** Previous/Next: the page is read afresh and replaces the old one in place. */
export function registerRecordPaging(app: App, deps: RecordsPageDeps, logger: Logger): void {
  for (const id of [DNS_IDS.recordsPrev, DNS_IDS.recordsNext]) {
    onAction<BlockAction<ButtonAction>>(app, id, logger, async ({ body, action, respond }) => {
      const { d, t, p } = readMetadata(PageRef, action.value);
      const workspace = workspaceOf(body);
      const registrar = deps.registrarFor(workspace);
      const page = await recordPage(registrar, d, t === '' ? undefined : t, p, (zone) =>
        deps.recordCapability.offered(workspace, registrar, zone),
      );
      await respond({ response_type: 'ephemeral', replace_original: true, ...recordsPage(page) });
    });
  }
}
