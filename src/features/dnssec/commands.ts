import type { DnssecState } from '../../registrar/index.js';
import { displayName, domainArgument } from '../../shared/domain-names.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { type Message, type Person, replyPrivately } from '../../slack/reply.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { type Requests, requestFromCommand } from '../approvals/request.js';
import { announceChange } from '../follow/announce.js';
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

/** `/dns dnssec DOMAIN [enable|disable|verify|cancel]`: status, transitions; `disable` needs approval. */
export function dnssecCommand(deps: DnssecCommandDeps): Subcommand {
  return {
    name: 'dnssec',
    usage: () => text.dns.dnssecUsage,
    summary: () => text.dns.dnssecSummary,
    run: async (ctx) => {
      const [name, verbText] = ctx.args;
      const domain = domainArgument(name);
      const verb = verbText?.toLowerCase();
      if (domain === undefined) return usage(ctx, text.dns.dnssecUsageReply);
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
            // The registrar refused or failed; whether it changed anything is not known, so not said (R31).
            await replyPrivately(personOf(ctx), replyForError(error, ctx.logger), ctx.logger);
          }
          return;
        default:
          return usage(ctx, text.dns.dnssecUsageReply);
      }
    },
  };
}

/** The person who typed the command: answered by response_url, else ephemeral, else DM (slack/reply.ts). */
function personOf(ctx: SubcommandContext): Person & { channel: string } {
  const { body, client } = ctx.bolt;
  return { user: body.user_id, client, respond: ctx.respond, channel: body.channel_id };
}

/**
 * Runs the use case, then answers: privately, or with a public card when it changed something to
 * follow; that card reaches the person even where Regdesk cannot post (follow/announce.ts, R30).
 */
async function transition(
  ctx: SubcommandContext,
  deps: DnssecCommandDeps,
  domain: string,
  verb: 'enable' | 'verify' | 'cancel',
) {
  const workspace = workspaceOf(ctx.bolt.body);
  const registrar = deps.registrarFor(workspace);
  const name = codeSpan(displayName(domain));
  const person = personOf(ctx);
  const tell = (message: Message) => replyPrivately(person, message, ctx.logger);
  const announce = (intro: string, state: DnssecState, follow: boolean) =>
    announceChange(
      { poster: deps.poster, logger: ctx.logger },
      person,
      { text: intro, blocks: [section(intro), ...dnssecCard(domain, state).blocks] },
      follow
        ? {
            start: (origin) => deps.followDnssec(workspace, domain, origin),
            showCommand: `/dns dnssec ${domain}`,
          }
        : undefined,
    );

  switch (verb) {
    case 'enable': {
      const result = await enableDnssec(registrar, domain);
      if (result.outcome === 'already-active') {
        await tell({ text: text.dns.dnssecAlreadyActive({ name }) });
      } else if (result.outcome === 'needs-records') {
        await tell(externalPrompt({ domain, channel: person.channel, ...result.rules }));
      } else {
        const intro = text.dns.dnssecEnabledBy({
          user: person.user,
          name,
          description: describeDnssec(result.state),
        });
        await announce(intro, result.state, result.follow);
      }
      return;
    }
    case 'verify': {
      const { state, follow } = await verifyDnssec(registrar, domain);
      if (follow)
        await announce(
          text.dns.dnssecStillConverging({ name, description: describeDnssec(state) }),
          state,
          true,
        );
      else await tell(dnssecCard(domain, state));
      return;
    }
    case 'cancel':
      await tell(dnssecCard(domain, await cancelDnssec(registrar, domain)));
  }
}
