import { displayName, domainArgument } from '../../shared/domain-names.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { button, section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { type Requests, requestFromCommand } from '../approvals/request.js';
import type { Origin } from '../follow/jobs.js';
import { dnssecCard } from './blocks.js';
import { EXTERNAL_IDS, type ExternalContext } from './external.js';
import { describeDnssec, disableDnssec, type setExternalDnssec } from './operations.js';

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
            dnssecCard(domain, await registrar.dnssec.get(domain)),
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

async function transition(
  ctx: SubcommandContext,
  deps: DnssecCommandDeps,
  domain: string,
  verb: 'enable' | 'verify' | 'cancel',
) {
  const workspace = workspaceOf(ctx.bolt.body);
  const registrar = deps.registrarFor(workspace);
  const channel = ctx.bolt.body.channel_id;
  const user = ctx.bolt.body.user_id;

  if (verb === 'enable') {
    const state = await registrar.dnssec.get(domain);
    if (state.dnssec_state === 'active' && state.desired_state !== 'disabled') {
      await ctx.respond({
        response_type: 'ephemeral',
        text: `DNSSEC is already active for ${codeSpan(displayName(domain))}.`,
      });
      return;
    }
    const caps = state.capabilities;
    const serviceManaged = state.using_regfish_nameservers === true && caps?.mode_regfish_available !== false;
    if (!serviceManaged) {
      // External nameservers: the records come from a modal opened by a button (a fresh trigger_id).
      const external: ExternalContext = {
        domain,
        channel,
        kinds: caps?.accepted_record_kinds.length ? caps.accepted_record_kinds : ['ds'],
        algorithms: caps?.accepted_algorithms ?? [],
        minRecords: caps?.min_records ?? 1,
      };
      await ctx.respond({
        response_type: 'ephemeral',
        text: 'This domain uses external nameservers: DNSSEC needs the DS records from your DNS provider.',
        blocks: [
          section(
            `${codeSpan(displayName(domain))} uses external nameservers: DNSSEC needs the DS records from your DNS provider.`,
          ),
          {
            type: 'actions',
            elements: [
              button('Enter DNSSEC records', EXTERNAL_IDS.open, JSON.stringify(external), 'primary'),
            ],
          },
        ],
      });
      return;
    }
    const after = await registrar.dnssec.put(domain, {
      mode: 'regfish',
      state: 'enabled',
      verify_after_apply: true,
    });
    await announce(
      ctx,
      deps,
      workspace,
      domain,
      `<@${user}> enabled DNSSEC for ${codeSpan(displayName(domain))}: ${describeDnssec(after)}`,
      after.dnssec_state === 'pending',
    );
    return;
  }
  const after =
    verb === 'verify' ? await registrar.dnssec.verify(domain) : await registrar.dnssec.cancel(domain);
  const pending = after.dnssec_state === 'pending';
  if (verb === 'verify' && pending) {
    await announce(
      ctx,
      deps,
      workspace,
      domain,
      `DNSSEC for ${codeSpan(displayName(domain))} is still converging: ${describeDnssec(after)}`,
      true,
    );
    return;
  }
  const card = dnssecCard(domain, after);
  await ctx.respond({ response_type: 'ephemeral', text: card.text, blocks: card.blocks });
}

/** A public status message; when the transition is pending, it is followed and settled in its thread. */
async function announce(
  ctx: SubcommandContext,
  deps: DnssecCommandDeps,
  workspace: WorkspaceRef,
  domain: string,
  text: string,
  pending: boolean,
) {
  const channel = ctx.bolt.body.channel_id;
  const suffix = pending ? '\nRegdesk follows it and reports here when it settles.' : '';
  const ts = await deps.poster.post(ctx.bolt.client, {
    channel,
    text: `${text}${suffix}`,
    blocks: [section(`${text}${suffix}`)],
  });
  if (pending) await deps.followDnssec(workspace, domain, { channel, threadTs: ts });
}
