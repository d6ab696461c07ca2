import { z } from 'zod';
import type { DnssecState } from '../../registrar/index.js';
import { dnskeyKeyTag } from '../../shared/dnskey.js';
import { reviewName } from '../../shared/domain-names.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { defineOperation, type Execution, type RegistrarContext } from '../approvals/operations.js';
import { ExternalRecord, MAX_EXTERNAL_RECORDS, sha1Algorithms } from './service.js';

export function describeDnssec(state: DnssecState): string {
  const describe =
    state.pending_job === undefined || state.pending_job === null
      ? text.dns.dnssecDescription
      : text.dns.dnssecDescriptionPending;
  return describe({
    state: escapeMrkdwn(state.dnssec_state),
    mode: codeSpan(state.mode ?? 'none'),
    desired: escapeMrkdwn(state.desired_state ?? '?'),
    live: escapeMrkdwn(state.live_state ?? '?'),
  });
}

/** After a PUT: a `pending_job` means the registry is converging, so it is followed (docs/registrar-api.md §4.3). */
function applied(domain: string, state: DnssecState): Execution {
  return {
    outcome: (state.pending_job ? text.dns.dnssecNowConverging : text.dns.dnssecNow)({
      state: state.dnssec_state,
    }),
    ...(state.pending_job ? { follow: { kind: 'dnssec', resource: domain } } : {}),
  };
}

const DisableParams = z.lazy(() => z.object({ domain: z.string().min(1).max(253) }));

export const disableDnssec = defineOperation<
  RegistrarContext,
  'dnssec.disable',
  z.infer<typeof DisableParams>
>({
  name: 'dnssec.disable',
  actionClass: 'dnssec',
  schema: DisableParams,
  summary: (p) => text.dns.disableSummary({ domain: reviewName(p.domain) }),
  target: (p) => p.domain,
  preview: async ({ registrar }, p) => {
    const state = await registrar.dnssec.get(p.domain);
    const details = [describeDnssec(state), text.dns.disableConsequence];
    if (state.dnssec_state === 'inactive' && (state.pending_job ?? undefined) === undefined) {
      return { details, blocker: text.dns.disableAlreadyInactive({ domain: reviewName(p.domain) }) };
    }
    return { details };
  },
  precheck: async ({ registrar }, p) => {
    const state = await registrar.dnssec.get(p.domain);
    return state.dnssec_state === 'inactive' && state.desired_state === 'disabled'
      ? text.dns.disableRefusedInactive
      : undefined;
  },
  execute: async ({ registrar }, p) => {
    const state = await registrar.dnssec.put(p.domain, {
      mode: 'none',
      state: 'disabled',
      verify_after_apply: true,
    });
    return applied(p.domain, state);
  },
});

const ExternalParams = z.lazy(() =>
  z.object({
    domain: z.string().min(1).max(253),
    records: z.array(ExternalRecord).min(1).max(MAX_EXTERNAL_RECORDS),
  }),
);

/**
 * A record exactly as it will be set, for the approver (docs/requirements.md R10): the whole key or
 * digest, never cut; a DNSKEY with its key tag, so it can be matched against the zone and its DS.
 * Long keys wrap in the message (a code block), and the approval message splits long details over
 * several blocks.
 */
function recordText(record: ExternalRecord): string {
  if (record.kind === 'ds') {
    return codeSpan(
      `DS ${record.key_tag ?? '?'} ${record.algorithm} ${record.digest_type ?? '?'} ${record.digest ?? ''}`,
    );
  }
  const flags = record.flags ?? 257;
  const protocol = record.protocol ?? 3;
  const key = record.public_key ?? '';
  const tag = key === '' ? '?' : String(dnskeyKeyTag(flags, protocol, record.algorithm, key));
  return text.dns.dnskeyRecord({ keyTag: tag, record: `${flags} ${protocol} ${record.algorithm} ${key}` });
}

export const setExternalDnssec = defineOperation<
  RegistrarContext,
  'dnssec.external',
  z.infer<typeof ExternalParams>
>({
  name: 'dnssec.external',
  actionClass: 'dnssec',
  schema: ExternalParams,
  summary: (p) => text.dns.externalSummary({ count: p.records.length, domain: reviewName(p.domain) }),
  target: (p) => p.domain,
  preview: async ({ registrar }, p) => {
    const state = await registrar.dnssec.get(p.domain);
    const deprecated = sha1Algorithms(p.records);
    const warning =
      deprecated.length > 0 ? [text.dns.externalSha1Algorithm({ algorithms: deprecated.join(', ') })] : [];
    return { details: [describeDnssec(state), ...warning, ...p.records.map(recordText)] };
  },
  precheck: async () => undefined,
  execute: async ({ registrar }, p) => {
    const state = await registrar.dnssec.put(p.domain, {
      mode: 'external',
      state: 'enabled',
      records: p.records,
      verify_after_apply: true,
    });
    return applied(p.domain, state);
  },
});
