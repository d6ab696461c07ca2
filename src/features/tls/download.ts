import { REGISTRAR_ID } from '../../registrar/index.js';
import { replyForError } from '../../slack/error-reply.js';
import { usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { Roles } from '../policy/permissions.js';
import { mayLookUp } from './commands.js';
import type { TlsService } from './service.js';

/**
 * `/tls download ID [pem|zip]`: the issued certificate, uploaded into the conversation (files upload
 * v2). Only the certificate and chain: Regdesk never sees or asks for private keys.
 */
export function downloadCommand(service: TlsService, roles: Roles): Subcommand {
  return {
    name: 'download',
    usage: () => text.tls.downloadSyntax,
    summary: () => text.tls.downloadSummary,
    run: async (ctx) => {
      const [id, formatText = 'pem'] = ctx.args;
      const format = formatText.toLowerCase();
      if (id === undefined || !REGISTRAR_ID.test(id) || (format !== 'pem' && format !== 'zip')) {
        return usage(ctx, text.tls.downloadUsage);
      }
      if (!(await mayLookUp(ctx, roles, 'tls.download', id))) return;
      const { body, client } = ctx.bolt;
      try {
        const file = await service.download(workspaceOf(body), id, format);
        if (file.kind === 'not-issued') {
          await ctx.respond({
            response_type: 'ephemeral',
            text: text.tls.notIssuedYet({ id }),
          });
          return;
        }
        const label = format.toUpperCase();
        await client.filesUploadV2({
          channel_id: body.channel_id,
          file: file.content,
          filename: `${id}.${format}`,
          title: text.tls.downloadTitle({ id, format: label }),
          initial_comment: text.tls.downloaded({ user: body.user_id, id, format: label }),
        });
      } catch (error) {
        // A download reads only; a failed upload changes nothing either.
        const reply = replyForError(error, ctx.logger, { nothingChanged: true });
        await ctx.respond({ response_type: 'ephemeral', text: reply.text });
      }
    },
  };
}
