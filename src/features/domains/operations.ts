import { z } from 'zod';
import type { RegfishLimits } from '../../config.js';
import { reviewName } from '../../shared/domain-names.js';
import type { QuotaWindow } from '../../shared/limiter.js';
import type { KeySpace } from '../../shared/redis.js';
import { workspaceId } from '../../shared/workspace.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import type { VanitySets } from './vanity.js';

const AuthParams = z.lazy(() => z.object({ domain: z.string().min(1).max(253) }));

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
  actionClass: 'authcode',
  // An issued code cannot be taken back: only a transfer lock stops its use.
  undo: 'never',
  schema: AuthParams,
  summary: (p) => text.domains.authCodeRequestSummary({ domain: reviewName(p.domain) }),
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
      text.domains.authCodePreviewDomain({
        domain: codeSpan(reviewName(domain.domain)),
        owner: codeSpan(domain.owner ?? text.domains.unknown),
      }),
      text.domains.authCodePreviewPrivacy,
    ];
    if (domain.cancelled === true) details.push(text.domains.authCodePreviewCancelled);
    return { details };
  },
  precheck: async ({ registrar }, p) => {
    await registrar.domains.get(p.domain);
    return undefined;
  },
  execute: async ({ registrar }, p) => {
    const result = await registrar.domains.requestAuthCode(p.domain);
    return {
      outcome: text.domains.authCodeIssued,
      authCode: { domain: result.domain, code: result.authinfo },
    };
  },
});

const NsParams = z.lazy(() =>
  z.object({
    domain: z.string().min(1).max(253),
    vanitySetId: z.number().int().positive().nullable(),
  }),
);

export const changeNameservers = defineOperation<
  RegistrarContext & { vanitySets: VanitySets },
  'domain.ns',
  z.infer<typeof NsParams>
>({
  name: 'domain.ns',
  actionClass: 'delegation',
  schema: NsParams,
  summary: (p) =>
    p.vanitySetId === null
      ? text.domains.delegateToStandardSummary({ domain: reviewName(p.domain) })
      : text.domains.delegateToVanitySummary({ domain: reviewName(p.domain), vanitySetId: p.vanitySetId }),
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
        ? text.domains.delegationToStandard
        : set === undefined
          ? text.domains.delegationToUnknownVanitySet({
              vanitySetId: p.vanitySetId,
              domain: reviewName(p.domain),
            })
          : text.domains.delegationToVanitySet({
              vanitySetId: p.vanitySetId,
              nameservers: set.nameservers.map((ns) => codeSpan(String(ns))).join(', '),
            });
    return {
      details: [
        text.domains.delegationNow({
          nameservers: domain.nameservers.map(codeSpan).join(', ') || text.domains.noneReported,
        }),
        to,
        text.domains.delegationChangeWarning,
      ],
    };
  },
  precheck: async () => undefined,
  execute: async ({ registrar, workspace, vanitySets }, p) => {
    const result = await registrar.domains.setNameservers(p.domain, p.vanitySetId);
    await vanitySets.remember(workspace, result.vanity_sets);
    const nameservers = result.current.join(', ');
    return {
      outcome:
        nameservers === '' ? text.domains.delegatedToStandard : text.domains.delegatedTo({ nameservers }),
    };
  },
});
