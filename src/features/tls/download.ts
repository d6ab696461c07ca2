import { replyForError } from '../../slack/error-reply.js';
import { usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { Roles } from '../approvals/permissions.js';
import { mayLookUp } from './commands.js';
import { REGISTRAR_ID, type TlsService } from './service.js';

/**
 * `/tls download ID [pem|zip]`: the issued certificate, uploaded into the conversation (files upload
 * v2). Only the certificate and chain: Regdesk never sees or asks for private keys.
 */
export function downloadCommand(service: TlsService, roles: Roles): Subcommand {
  return {
    name: 'download',
    usage: 'download ID [pem|zip]',
    summary: 'upload the issued certificate (PEM, or the ZIP bundle) into this conversation',
    run: async (ctx) => {
      const [id, formatText = 'pem'] = ctx.args;
      const format = formatText.toLowerCase();
      if (id === undefined || !REGISTRAR_ID.test(id) || (format !== 'pem' && format !== 'zip')) {
        return usage(ctx, '`/tls download CERTIFICATE_ID [pem|zip]`.');
      }
      if (!(await mayLookUp(ctx, roles, 'tls.download', id))) return;
      const { body, client } = ctx.bolt;
      try {
        const file = await service.download(workspaceOf(body), id, format);
        if (file.kind === 'not-issued') {
          await ctx.respond({
            response_type: 'ephemeral',
            text: `:hourglass_flowing_sand: Certificate \`${id}\` is not issued yet, so there is nothing to download. \`/tls show ${id}\` tells its state.`,
          });
          return;
        }
        const label = format.toUpperCase();
        await client.filesUploadV2({
          channel_id: body.channel_id,
          file: file.content,
          filename: `${id}.${format}`,
          title: `Certificate ${id} (${label})`,
          initial_comment: `<@${body.user_id}> downloaded certificate \`${id}\` (${label}).`,
        });
      } catch (error) {
        // A download reads only; a failed upload changes nothing either.
        const reply = replyForError(error, ctx.logger, { nothingChanged: true });
        await ctx.respond({ response_type: 'ephemeral', text: reply.text });
      }
    },
  };
}
