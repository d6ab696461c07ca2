import { displayName, domainArgument } from '../../shared/domain-names.js';
import { context, header, section } from '../../slack/blocks.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
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
    usage: 'info DOMAIN',
    summary: 'registration details, expiry and delegated nameservers',
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, '`/domain info DOMAIN`, e.g. `/domain info example.com`.');
      await lookup(ctx, deps, async (registrar) =>
        domainCard(await registrar.domains.get(domain), deps.now()),
      );
    },
  };
}

export function nsCommand(deps: DomainCommandDeps): Subcommand {
  return {
    name: 'ns',
    usage: 'ns DOMAIN [set VANITY_SET_ID|standard]',
    summary: 'current delegation; `set` changes it (needs approval)',
    run: async (ctx) => {
      const [name, verb, target] = ctx.args;
      const domain = domainArgument(name);
      if (domain === undefined)
        return usage(ctx, '`/domain ns DOMAIN` or `/domain ns DOMAIN set VANITY_SET_ID|standard`.');
      if (verb === undefined) {
        await lookup(ctx, deps, async (registrar, workspace) => {
          const [details, sets] = await Promise.all([
            registrar.domains.get(domain),
            deps.vanitySets.known(workspace),
          ]);
          const text = `Delegation of ${displayName(domain)}`;
          const setLines =
            sets === undefined
              ? '_Not known yet: the registrar lists them only with a delegation change._'
              : sets
                  .map(
                    (set) =>
                      `\`${set.id}\` ${codeSpan(set.host ?? '')}: ${set.nameservers.map((ns) => codeSpan(String(ns))).join(', ')}`,
                  )
                  .join('\n') || '_none_';
          return {
            text,
            blocks: [
              header(text),
              section(`*Nameservers*\n${details.nameservers.map(codeSpan).join('\n') || '_none reported_'}`),
              section(`*Vanity nameserver sets of the account*\n${setLines}`),
              context(
                'Change it with `/domain ns DOMAIN set VANITY_SET_ID` (one of the account’s vanity sets) or `set standard`; a second person must approve.',
              ),
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
        return usage(
          ctx,
          '`/domain ns DOMAIN set VANITY_SET_ID|standard`, e.g. `/domain ns example.com set 11`.',
        );
      }
      await requestFromCommand(ctx, deps.approvals, changeNameservers, { domain, vanitySetId });
    },
  };
}

export function authcodeCommand(deps: DomainCommandDeps): Subcommand {
  return {
    name: 'authcode',
    usage: 'authcode DOMAIN',
    summary: 'transfer auth code, shown only to you (needs approval)',
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, '`/domain authcode DOMAIN`.');
      await requestFromCommand(ctx, deps.approvals, requestAuthCode, { domain });
    },
  };
}
