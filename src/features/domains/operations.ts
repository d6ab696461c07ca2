import { z } from 'zod';
import type { RegfishLimits } from '../../config.js';
import { reviewName } from '../../shared/domain-names.js';
import type { QuotaWindow } from '../../shared/limiter.js';
import type { KeySpace } from '../../shared/redis.js';
import { workspaceId } from '../../shared/workspace.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import type { VanitySets } from './vanity.js';

const AuthParams = z.object({ domain: z.string().min(1).max(253) });

/**
 * Auth codes (docs/registrar-api.md §8: 3 per domain and 10 per account a day). The registrar account behind a key is
 * not visible through the API; one workspace uses one key, so the workspace stands for the account.
 */
export const requestAuthCode = defineOperation<
  RegistrarContext & { limits: RegfishLimits; keys: KeySpace },
  'domain.authcode',
  z.infer<typeof AuthParams>
>({
  name: 'domain.authcode',
  schema: AuthParams,
  summary: (p) => `issue a transfer auth code for ${reviewName(p.domain)} (enables an outbound transfer)`,
  target: (p) => p.domain,
  quota: ({ workspace, limits, keys }, p): QuotaWindow[] => {
    const tag = `ws:${workspaceId(workspace)}`;
    return [
      { key: keys.key(tag, 'quota', 'authcode', p.domain), ...limits.authcodeDomain },
      { key: keys.key(tag, 'quota', 'authcode-account'), ...limits.authcodeAccount },
    ];
  },
  preview: async ({ registrar }, p) => {
    const domain = await registrar.domains.get(p.domain);
    const details = [
      `Domain ${codeSpan(reviewName(domain.domain))}, owner ${codeSpan(domain.owner ?? 'unknown')}.`,
      'The code is shown only to the requester. Every issued code is recorded in the domain guard log.',
    ];
    if (domain.cancelled === true) details.push(':warning: The domain is cancelled.');
    return { details };
  },
  precheck: async ({ registrar }, p) => {
    await registrar.domains.get(p.domain);
    return undefined;
  },
  execute: async ({ registrar }, p) => {
    const result = await registrar.domains.requestAuthCode(p.domain);
    return {
      outcome: 'auth code issued; only the requester can reveal it',
      authCode: { domain: result.domain, code: result.authinfo },
    };
  },
});

const NsParams = z.object({
  domain: z.string().min(1).max(253),
  vanitySetId: z.number().int().positive().nullable(),
});

export const changeNameservers = defineOperation<
  RegistrarContext & { vanitySets: VanitySets },
  'domain.ns',
  z.infer<typeof NsParams>
>({
  name: 'domain.ns',
  schema: NsParams,
  summary: (p) =>
    `delegate ${reviewName(p.domain)} to ${p.vanitySetId === null ? 'the standard nameservers' : `vanity nameserver set ${p.vanitySetId}`}`,
  target: (p) => p.domain,
  preview: async ({ registrar, workspace, vanitySets }, p) => {
    const domain = await registrar.domains.get(p.domain);
    // What executes, not only its id: the set's nameservers as the registrar last reported them.
    const set =
      p.vanitySetId === null
        ? undefined
        : (await vanitySets.known(workspace))?.find((s) => s.id === p.vanitySetId);
    const to =
      p.vanitySetId === null
        ? "To the registrar's standard nameservers."
        : set === undefined
          ? `To vanity nameserver set ${p.vanitySetId}; its nameservers are not known to Regdesk yet (\`/domain ns ${reviewName(p.domain)}\` lists the sets the registrar reported).`
          : `To vanity nameserver set ${p.vanitySetId}: ${set.nameservers.map((ns) => codeSpan(String(ns))).join(', ')}.`;
    return {
      details: [
        `Now delegated to ${domain.nameservers.map(codeSpan).join(', ') || '_none reported_'}.`,
        to,
        'Changing delegation moves DNS resolution for the whole domain; the registrar allows a few changes a day.',
      ],
    };
  },
  precheck: async () => undefined,
  execute: async ({ registrar, workspace, vanitySets }, p) => {
    const result = await registrar.domains.setNameservers(p.domain, p.vanitySetId);
    await vanitySets.remember(workspace, result.vanity_sets);
    return { outcome: `now delegated to ${result.current.join(', ') || 'the standard nameservers'}` };
  },
});
