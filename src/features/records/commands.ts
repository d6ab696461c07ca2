import { domainArgument } from '../../shared/domain-names.js';
import { usage } from '../../slack/lookup.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { type ModalDeps, type ModalPurpose, modalFor, recordToChange } from './modals.js';
import { changeRecord } from './operations.js';
import { type SubmitDeps, submitChange } from './submit.js';

export type RecordCommandDeps = SubmitDeps & ModalDeps;

const RECORD_ID = /^\d{1,12}$/;

/**
 * `/dns record add DOMAIN` (modal), `edit DOMAIN RECORD_ID` (modal) and `delete DOMAIN RECORD_ID`.
 * Whoever may request sensitive actions may open them (checked before anything is read); the change
 * then needs an approval unless the policy exempts it.
 */
export function recordCommand(deps: RecordCommandDeps): Subcommand {
  return {
    name: 'record',
    usage: () => text.records.recordUsage,
    summary: () => text.records.recordSummary,
    run: async (ctx) => {
      const [verb, name, idText] = ctx.args;
      const domain = domainArgument(name);
      const purpose: ModalPurpose | undefined =
        verb === 'add' && idText === undefined
          ? { kind: 'add' }
          : (verb === 'edit' || verb === 'delete') && idText !== undefined && RECORD_ID.test(idText)
            ? { kind: verb, id: Number(idText) }
            : undefined;
      if (domain === undefined || purpose === undefined || ctx.args.length > 3)
        return usage(ctx, text.records.recordUsageReply);
      const body = ctx.bolt.body;
      const workspace = workspaceOf(body);
      const who = {
        client: ctx.bolt.client,
        user: body.user_id,
        channel: body.channel_id,
        respond: ctx.respond,
      };
      await ctx.ack();
      const registrar = deps.registrarFor(workspace);
      const about = { operation: changeRecord.name, target: domain };
      if (purpose.kind === 'delete') {
        // Typed out in full: no confirmation modal, the request (or the change) follows at once.
        await afterAck(who, ctx.logger, async () => {
          await deps.roles.require(who.client, workspace, who.user, changeRecord.permission, about);
          const before = recordToChange(await registrar.dns.records(domain), domain, purpose.id);
          await submitChange(deps, workspace, who, {
            domain,
            change: { kind: 'delete', id: purpose.id, before },
            by: who.user,
          });
        })();
        return;
      }
      await openThenFill(
        ctx.bolt.client,
        body.trigger_id,
        purpose.kind === 'add' ? text.records.addTitle : text.records.editTitle,
        async () => {
          await deps.roles.require(who.client, workspace, who.user, changeRecord.permission, about);
          return modalFor(deps, registrar, workspace, { domain, channel: body.channel_id }, purpose);
        },
        ctx.logger,
      );
    },
  };
}
