import { displayName, domainArgument } from '../../shared/domain-names.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Requests, requestFromCommand } from '../approvals/request.js';
import type { Origin } from '../follow/jobs.js';
import { dnssecCard } from './blocks.js';
import { externalPrompt } from './external.js';
import { describeDnssec, disableDnssec, type setExternalDnssec } from './operations.js';
import { cancelDnssec, dnssecStatus, enableDnssec, verifyDnssec } from './service.js';

export interface DnssecCommandDeps extends LookupDeps {
  approvals: Requests<typeof disableDnssec | typeof setExternalDnssec>;
  poster: ChannelPoster;
  /** Follow a pending transition until it settles; the outcome goes to the origin's thread. */
  followDnssec(workspace: WorkspaceRef, domain: string, origin: Origin): Promise<void>;
}

const USAGE = '`/dns dnssec DOMAIN [enable|disable|verify|cancel]`.';

/** `/dns dnssec DOMAIN [enable|disable|verify|cancel]`: status, transitions; `disable` needs approval. */
export function dnssecCommand(deps: DnssecCommandDeps): Subcommand {
  return {
    name: 'dnssec',
    usage: 'dnssec DOMAIN [enable|disable|verify|cancel]',
    summary: 'DNSSEC state and records; enable, verify, cancel a transition; `disable` needs approval',
    run: async (ctx) => {
      const [name, verbText] = ctx.args;
      const domain = domainArgument(name);
      const verb = verbText?.toLowerCase();
      if (domain === undefined) return usage(ctx, USAGE);
      switch (verb) {
        case undefined:
          return lookup(ctx, deps, async (registrar) =>
            dnssecCard(domain, await dnssecStatus(registrar, domain)),
          );
        case 'disable':
          return requestFromCommand(ctx, deps.approvals, disableDnssec, { domain });
        case 'enable':
        case 'verify':
        case 'cancel':
          await ctx.ack();
          try {
            await transition(ctx, deps, domain, verb);
          } catch (error) {
            await ctx.respond({ response_type: 'ephemeral', text: replyForError(error, ctx.logger).text });
          }
          return;
        default:
          return usage(ctx, USAGE);
      }
    },
  };
}

/** Runs the use case, then answers: privately, or publicly when it changed something to follow. */
async function transition(
  ctx: SubcommandContext,
  deps: DnssecCommandDeps,
  domain: string,
  verb: 'enable' | 'verify' | 'cancel',
) {
  const workspace = workspaceOf(ctx.bolt.body);
  const registrar = deps.registrarFor(workspace);
  const name = codeSpan(displayName(domain));

  if (verb === 'enable') {
    const result = await enableDnssec(registrar, domain);
    switch (result.outcome) {
      case 'already-active':
        await ctx.respond({ response_type: 'ephemeral', text: `DNSSEC is already active for ${name}.` });
        return;
      case 'needs-records':
        await ctx.respond({
          response_type: 'ephemeral',
          ...externalPrompt({ domain, channel: ctx.bolt.body.channel_id, ...result.rules }),
        });
        return;
      case 'enabled':
        await announce(
          ctx,
          deps,
          workspace,
          domain,
          `<@${ctx.bolt.body.user_id}> enabled DNSSEC for ${name}: ${describeDnssec(result.state)}`,
          result.follow,
        );
        return;
    }
  }
  if (verb === 'verify') {
    const { state, follow } = await verifyDnssec(registrar, domain);
    if (follow) {
      await announce(
        ctx,
        deps,
        workspace,
        domain,
        `DNSSEC for ${name} is still converging: ${describeDnssec(state)}`,
        true,
      );
      return;
    }
    await ctx.respond({ response_type: 'ephemeral', ...dnssecCard(domain, state) });
    return;
  }
  await ctx.respond({
    response_type: 'ephemeral',
    ...dnssecCard(domain, await cancelDnssec(registrar, domain)),
  });
}

/** A public status message; when the transition is followed, its outcome is told in this message's thread. */
async function announce(
  ctx: SubcommandContext,
  deps: DnssecCommandDeps,
  workspace: WorkspaceRef,
  domain: string,
  text: string,
  follow: boolean,
) {
  const channel = ctx.bolt.body.channel_id;
  const suffix = follow ? '\nRegdesk follows it and reports here when it settles.' : '';
  const ts = await deps.poster.post(ctx.bolt.client, {
    channel,
    text: `${text}${suffix}`,
    blocks: [section(`${text}${suffix}`)],
  });
  if (follow) await deps.followDnssec(workspace, domain, { channel, threadTs: ts });
}
