import type { View } from '@slack/types';
import { z } from 'zod';
import { domainArgument } from '../../shared/domain-names.js';
import { formModal, section } from '../../slack/blocks.js';
import { type LookupAccess, usage } from '../../slack/lookup.js';
import { inputBlock, writeMetadata } from '../../slack/modal.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { type ExportDeps, exportZone } from './export.js';
import { CHANGESET_IDS } from './ids.js';

/** What the import modal carries to its submission: the zone and where it was asked. */
export const ImportMetadata = z.lazy(() => z.object({ domain: z.string(), channel: z.string() }));

/** Slack's plain-text input holds 3,000 characters: the fragment a modal takes. */
export const MAX_IMPORT_TEXT = 3_000;

export function importModal(domain: string, channel: string): View {
  return formModal(
    CHANGESET_IDS.importModal,
    writeMetadata(ImportMetadata, { domain, channel }),
    text.changesets.importTitle,
    text.changesets.importSubmit,
    [
      section(text.changesets.importIntro({ domain })),
      inputBlock(
        CHANGESET_IDS.importText,
        text.changesets.importTextLabel,
        { type: 'plain_text_input', multiline: true, max_length: MAX_IMPORT_TEXT },
        { hint: text.changesets.importTextHint },
      ),
      inputBlock(CHANGESET_IDS.importMode, text.changesets.importModeLabel, {
        type: 'radio_buttons',
        options: [
          { text: { type: 'plain_text', text: text.changesets.modeMerge }, value: 'merge' },
          { text: { type: 'plain_text', text: text.changesets.modeReplace }, value: 'replace' },
        ],
        initial_option: { text: { type: 'plain_text', text: text.changesets.modeMerge }, value: 'merge' },
      }),
      inputBlock(
        CHANGESET_IDS.importAt,
        text.changesets.importAtLabel,
        { type: 'datetimepicker' },
        { optional: true, hint: text.changesets.importAtHint },
      ),
      inputBlock(
        CHANGESET_IDS.importLower,
        text.changesets.importLowerLabel,
        {
          type: 'checkboxes',
          options: [
            { text: { type: 'plain_text', text: text.changesets.importLowerOption }, value: 'lower' },
          ],
        },
        { optional: true },
      ),
    ],
  );
}

/** The import modal opens within the trigger's 3 s (docs/requirements.md R2): its only I/O. */
async function openImport(ctx: SubcommandContext, domain: string): Promise<void> {
  await ctx.ack();
  await openModal(ctx.bolt.client, ctx.bolt.body.trigger_id, importModal(domain, ctx.bolt.body.channel_id));
}

export interface ZoneFileDeps extends ExportDeps {
  mayLookUp: LookupAccess;
}

/**
 * `/dns zone DOMAIN` as the dns feature answers it, and `/dns zone export DOMAIN` and
 * `/dns zone import DOMAIN` (contract §3): the zone's subcommand, wrapped, so `zone` stays one word.
 */
export function zoneCommand(deps: ZoneFileDeps, summary: Subcommand | undefined): Subcommand {
  return {
    name: 'zone',
    usage: () => text.changesets.zoneUsage,
    summary: () => text.changesets.zoneSummary,
    run: async (ctx) => {
      const [verb, name] = ctx.args;
      if (verb === 'export' || verb === 'import') {
        const domain = domainArgument(name);
        if (domain === undefined || ctx.args.length > 2)
          return usage(
            ctx,
            verb === 'export' ? text.changesets.exportUsageReply : text.changesets.importUsageReply,
          );
        if (verb === 'import') return openImport(ctx, domain);
        return exportZone(ctx, deps, workspaceOf(ctx.bolt.body), domain);
      }
      if (summary !== undefined) await summary.run(ctx);
    },
  };
}
