import { displayName, domainArgument } from '../../shared/domain-names.js';
import { context, header, section } from '../../slack/blocks.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
import { text } from '../../text/index.js';
import type { Requests } from '../approvals/request.js';
import { requestFromCommand } from '../approvals/request.js';
import { domainCard } from './blocks.js';
import { changeNameservers, requestAuthCode } from './operations.js';
import type { VanitySets } from './vanity.js';

export interface DomainCommandDeps extends LookupDeps {
  approvals: Requests<typeof requestAuthCode | typeof changeNameservers>;
  vanitySets: VanitySets;
  now: () => number;
}

export function infoCommand(deps: DomainCommandDeps): Subcommand {
  return {
    name: 'info',
    usage: () => text.domains.infoUsage,
    summary: () => text.domains.infoSummary,
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, text.domains.infoUsageReply);
      await lookup(ctx, deps, async (registrar) =>
        domainCard(await registrar.domains.get(domain), deps.now()),
      );
    },
  };
}

export function nsCommand(deps: DomainCommandDeps): Subcommand {
  return {
    name: 'ns',
    usage: () => text.domains.nsUsage,
    summary: () => text.domains.nsSummary,
    run: async (ctx) => {
      const [name, verb, target] = ctx.args;
      const domain = domainArgument(name);
      if (domain === undefined) return usage(ctx, text.domains.nsUsageReply);
      if (verb === undefined) {
        await lookup(ctx, deps, async (registrar, workspace) => {
          const [details, sets] = await Promise.all([
            registrar.domains.get(domain),
            deps.vanitySets.known(workspace),
          ]);
          const title = text.domains.delegationTitle({ name: displayName(domain) });
          const setLines =
            sets === undefined
              ? text.domains.vanitySetsNotKnown
              : sets
                  .map((set) =>
                    text.domains.vanitySetLine({
                      id: set.id,
                      host: codeSpan(set.host ?? ''),
                      nameservers: set.nameservers.map((ns) => codeSpan(String(ns))).join(', '),
                    }),
                  )
                  .join('\n') || text.domains.none;
          return {
            text: title,
            blocks: [
              header(title),
              section(
                text.domains.nameserversSection({
                  nameservers: details.nameservers.map(codeSpan).join('\n') || text.domains.noneReported,
                }),
              ),
              section(text.domains.vanitySetsSection({ sets: setLines })),
              context(text.domains.delegationChangeHint),
            ],
          };
        });
        return;
      }
      const vanitySetId = target === 'standard' ? null : Number(target);
      if (
        verb.toLowerCase() !== 'set' ||
        (vanitySetId !== null && (!Number.isInteger(vanitySetId) || vanitySetId <= 0))
      ) {
        return usage(ctx, text.domains.nsSetUsageReply);
      }
      await requestFromCommand(ctx, deps.approvals, changeNameservers, { domain, vanitySetId });
    },
  };
}

export function authcodeCommand(deps: DomainCommandDeps): Subcommand {
  return {
    name: 'authcode',
    usage: () => text.domains.authcodeUsage,
    summary: () => text.domains.authcodeSummary,
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, text.domains.authcodeUsageReply);
      await requestFromCommand(ctx, deps.approvals, requestAuthCode, { domain });
    },
  };
}
