import type { KnownBlock } from '@slack/types';
import type { RegistrarClient } from '../registrar/index.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import { replyForError } from './error-reply.js';
import type { SubcommandContext } from './router.js';
import type { ShareableCards } from './share.js';
import { workspaceOf } from './workspace.js';

export interface LookupDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  shareable: ShareableCards;
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
  const workspace = workspaceOf(ctx.bolt.body);
  try {
    const card = await work(deps.registrarFor(workspace), workspace);
    const blocks = await deps.shareable.withShareButton(workspace, card.text, card.blocks);
    await ctx.respond({ response_type: 'ephemeral', text: card.text, blocks });
  } catch (error) {
    const reply = replyForError(error, ctx.logger, { nothingChanged: true });
    await ctx.respond({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
  }
}

/** Usage reply for a subcommand called without its argument. */
export async function usage(ctx: SubcommandContext, text: string): Promise<void> {
  await ctx.ack({ response_type: 'ephemeral', text: `Usage: ${text}` });
}
