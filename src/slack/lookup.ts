import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { RegistrarClient } from '../registrar/index.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import { text } from '../text/index.js';
import { replyForError } from './error-reply.js';
import type { SubcommandContext } from './router.js';
import type { ShareableCards } from './share.js';
import { workspaceOf } from './workspace.js';

/** Whether the person may read with the workspace's key (guests may; outsiders and deactivated people may not). */
export type LookupAccess = (
  client: WebClient,
  workspace: WorkspaceRef,
  user: string,
  about: { operation: string; target: string },
) => Promise<{ allowed: true } | { allowed: false; reason: string; say: () => string }>;

export interface LookupDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  shareable: ShareableCards;
  mayLookUp: LookupAccess;
}

/**
 * The shape of every look-up: ack at once (docs/requirements.md R1: the registrar may hang), read through the
 * workspace's own key, answer ephemerally with a "Share in channel" button, or explain the failure.
 * One response_url use per look-up (docs/requirements.md R3 allows five within 30 minutes).
 */
export async function lookup(
  ctx: SubcommandContext,
  deps: LookupDeps,
  work: (
    registrar: RegistrarClient,
    workspace: WorkspaceRef,
  ) => Promise<{ text: string; blocks: KnownBlock[] }>,
): Promise<void> {
  await ctx.ack();
  // The read and the answer can wait a moment: a burst's other requests get their acks first.
  await ctx.acksFirst();
  const workspace = workspaceOf(ctx.bolt.body);
  try {
    // After the ack: the person's standing comes from Slack (cached), docs/requirements.md R33.
    const about = {
      operation: `${ctx.bolt.command.command} ${ctx.args.join(' ')}`.trim(),
      target: ctx.args[0] ?? '',
    };
    const access = await deps.mayLookUp(ctx.bolt.client, workspace, ctx.bolt.body.user_id, about);
    if (!access.allowed) {
      await ctx.respond({ response_type: 'ephemeral', text: text.slack.refused({ reason: access.reason }) });
      return;
    }
    const card = await work(deps.registrarFor(workspace), workspace);
    const blocks = await deps.shareable.withShareButton(workspace, card.text, card.blocks);
    await ctx.respond({ response_type: 'ephemeral', text: card.text, blocks });
  } catch (error) {
    const reply = replyForError(error, ctx.logger, { nothingChanged: true });
    await ctx.respond({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
  }
}

/** Usage reply for a subcommand called without its argument. */
export async function usage(ctx: SubcommandContext, syntax: string): Promise<void> {
  await ctx.ack({ response_type: 'ephemeral', text: text.slack.usage({ usage: syntax }) });
}
