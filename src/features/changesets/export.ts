import type { RegistrarClient } from '../../registrar/index.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import type { LookupAccess } from '../../slack/lookup.js';
import type { SubcommandContext } from '../../slack/router.js';
import { text } from '../../text/index.js';
import { serializeZone } from './master-file.js';

export interface ExportDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  mayLookUp: LookupAccess;
}

/**
 * `/dns zone export DOMAIN`: the whole zone as an RFC 1035 master file, uploaded as `DOMAIN.zone` to
 * the conversation it was asked in (the bot's DM with the person when it may not post there). A read:
 * whoever may look the zone up may export it.
 */
export async function exportZone(
  ctx: SubcommandContext,
  deps: ExportDeps,
  workspace: WorkspaceRef,
  domain: string,
): Promise<void> {
  await ctx.ack();
  const { client, body } = ctx.bolt;
  try {
    const about = { operation: 'dns.zone.export', target: domain };
    const access = await deps.mayLookUp(client, workspace, body.user_id, about);
    if (!access.allowed) {
      await ctx.respond({ response_type: 'ephemeral', text: text.slack.refused({ reason: access.reason }) });
      return;
    }
    const registrar = deps.registrarFor(workspace);
    const [zone, records] = await Promise.all([registrar.dns.zone(domain), registrar.dns.records(domain)]);
    const file = serializeZone(
      {
        origin: domain,
        soa: zone.soa,
        nameservers: zone.delegation_nameservers.map((server) => server.host),
        records,
      },
      {
        auto: text.changesets.commentAuto,
        alias: text.changesets.commentAlias,
        inactive: text.changesets.commentInactive,
        unwritable: text.changesets.commentUnwritable,
      },
    );
    const upload = (channel: string) =>
      client.filesUploadV2({
        channel_id: channel,
        file: Buffer.from(file, 'utf8'),
        filename: `${domain}.zone`,
        title: text.changesets.exportTitle({ domain }),
        initial_comment: text.changesets.exportComment({ domain, count: records.length }),
      });
    try {
      await upload(body.channel_id);
    } catch {
      // Not a member of the channel (or it is a DM with someone else): the person's DM with Regdesk.
      const dm = (await client.conversations.open({ users: body.user_id })).channel?.id;
      if (dm === undefined) throw new Error('conversations.open returned no channel');
      await upload(dm);
    }
  } catch (error) {
    const reply = replyForError(error, ctx.logger, { nothingChanged: true });
    await ctx.respond({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
  }
}
