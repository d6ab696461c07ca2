import { ConflictError, type RegistrarClient } from '../../registrar/index.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import { usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';

const ID = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * `/tls download ID [pem|zip]`: the issued certificate, uploaded into the conversation (files upload
 * v2). Only the certificate and chain: Regdesk never sees or asks for private keys.
 */
export function downloadCommand(deps: {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
}): Subcommand {
  return {
    name: 'download',
    usage: 'download ID [pem|zip]',
    summary: 'upload the issued certificate (PEM, or the ZIP bundle) into this conversation',
    run: async (ctx) => {
      const [id, formatText = 'pem'] = ctx.args;
      const format = formatText.toLowerCase();
      if (id === undefined || !ID.test(id) || (format !== 'pem' && format !== 'zip')) {
        return usage(ctx, '`/tls download CERTIFICATE_ID [pem|zip]`.');
      }
      await ctx.ack();
      try {
        const file = await deps.registrarFor(workspaceOf(ctx.bolt.body)).tls.download(id, format);
        const content = file.format === 'pem' ? Buffer.from(file.text, 'utf8') : Buffer.from(file.bytes);
        await ctx.bolt.client.filesUploadV2({
          channel_id: ctx.bolt.body.channel_id,
          file: content,
          filename: `${id}.${format}`,
          title: `Certificate ${id} (${format.toUpperCase()})`,
          initial_comment: `<@${ctx.bolt.body.user_id}> downloaded certificate \`${id}\` (${format.toUpperCase()}).`,
        });
      } catch (error) {
        const text =
          error instanceof ConflictError
            ? `:hourglass_flowing_sand: Certificate \`${id}\` is not issued yet, so there is nothing to download. \`/tls show ${id}\` tells its state.`
            : replyForError(error, ctx.logger).text;
        await ctx.respond({ response_type: 'ephemeral', text });
      }
    },
  };
}
