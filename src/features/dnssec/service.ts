import { z } from 'zod';
import type { DnssecState, RegistrarClient } from '../../registrar/index.js';
import { text } from '../../text/index.js';

/**
 * DNSSEC use cases, free of Slack: what `/dns dnssec` reads and changes, and the external records
 * check. Handlers render the results; approval-gated changes are in operations.ts.
 */

/** Regdesk's own bound per request (docs/registrar-api.md §8), below any registry's. */
export const MAX_EXTERNAL_RECORDS = 10;

/** DS digest type 1, SHA-1 (RFC 4034 §5.1.3), which registries refuse: the modal refuses it first. */
export const SHA1_DIGEST_TYPE = 1;
/**
 * Signing algorithms 5 (RSASHA1) and 7 (RSASHA1-NSEC3-SHA1), deprecated by RFC 9905: still accepted
 * (registries take them, and the zone's signer decides), but the approval request warns of them.
 */
export const SHA1_ALGORITHMS: readonly number[] = [5, 7];

/** The deprecated algorithms among the records, ascending and once each. */
export function sha1Algorithms(records: readonly ExternalRecord[]): number[] {
  return [...new Set(records.map((record) => record.algorithm))]
    .filter((algorithm) => SHA1_ALGORITHMS.includes(algorithm))
    .sort((a, b) => a - b);
}

/** A record sent for external nameservers (docs/registrar-api.md §4.3 `records`). */
export const ExternalRecord = z.lazy(() =>
  z.object({
    kind: z.enum(['ds', 'dnskey']),
    algorithm: z.number().int(),
    key_tag: z.number().int().optional(),
    digest_type: z.number().int().optional(),
    digest: z.string().optional(),
    flags: z.number().int().optional(),
    protocol: z.number().int().optional(),
    public_key: z.string().optional(),
  }),
);
export type ExternalRecord = z.infer<typeof ExternalRecord>;

/**
 * What the registry accepts for a domain's external records (docs/registrar-api.md §2.4
 * capabilities). Bounded so that it fits a button value (2000 characters) as modal metadata.
 */
export const RecordRules = z.lazy(() =>
  z.object({
    kinds: z.array(z.string().max(20)).max(10),
    algorithms: z.array(z.number().int()).max(64),
    minRecords: z.number().int(),
  }),
);
export type RecordRules = z.infer<typeof RecordRules>;

/** The capabilities as rules; kinds default to DS and the minimum to 1 (docs/registrar-api.md §4.3). */
export function recordRules(state: DnssecState): RecordRules {
  const caps = state.capabilities;
  return {
    kinds: caps?.accepted_record_kinds.length ? caps.accepted_record_kinds : ['ds'],
    algorithms: caps?.accepted_algorithms ?? [],
    minRecords: caps?.min_records ?? 1,
  };
}

/** A transition's answer, and whether Regdesk follows it until it settles (docs/requirements.md R16). */
export interface Transition {
  state: DnssecState;
  follow: boolean;
}

export type EnableResult =
  | { outcome: 'already-active' }
  /** External nameservers: the user supplies the records, which then need approval (R8). */
  | { outcome: 'needs-records'; rules: RecordRules }
  | ({ outcome: 'enabled' } & Transition);

/** Enable and verify follow a `pending` answer (docs/registrar-api.md §4.3, "Following"). */
const followedIfPending = (state: DnssecState): Transition => ({
  state,
  follow: state.dnssec_state === 'pending',
});

/** The status read; the client retries it like every read (docs/registrar-api.md §7). */
export function dnssecStatus(registrar: RegistrarClient, domain: string): Promise<DnssecState> {
  return registrar.dnssec.get(domain);
}

/**
 * Service-managed DNSSEC when the domain is on the service's nameservers and the registry offers
 * that mode; otherwise the records must come from the user (docs/registrar-api.md §4.3, "Enable").
 */
export async function enableDnssec(registrar: RegistrarClient, domain: string): Promise<EnableResult> {
  const state = await registrar.dnssec.get(domain);
  if (state.dnssec_state === 'active' && state.desired_state !== 'disabled') {
    return { outcome: 'already-active' };
  }
  const serviceManaged =
    state.using_regfish_nameservers === true && state.capabilities?.mode_regfish_available !== false;
  if (!serviceManaged) return { outcome: 'needs-records', rules: recordRules(state) };
  const after = await registrar.dnssec.put(domain, {
    mode: 'regfish',
    state: 'enabled',
    verify_after_apply: true,
  });
  return { outcome: 'enabled', ...followedIfPending(after) };
}

/** The answer may still be pending if the target has not propagated (docs/registrar-api.md §3). */
export async function verifyDnssec(registrar: RegistrarClient, domain: string): Promise<Transition> {
  return followedIfPending(await registrar.dnssec.verify(domain));
}

/** Without a cancellable transition the registrar answers 409 (docs/registrar-api.md §4.3). */
export function cancelDnssec(registrar: RegistrarClient, domain: string): Promise<DnssecState> {
  return registrar.dnssec.cancel(domain);
}

/**
 * One zone-file line: `DS <key tag> <algorithm> <digest type> <digest>` or
 * `DNSKEY <flags> <protocol> <algorithm> <public key>`; digest and key may be split by spaces.
 */
function parseLine(line: string): ExternalRecord | undefined {
  const [kind = '', ...parts] = line.replace(/\s+IN\s+/i, ' ').split(/\s+/);
  const [first = Number.NaN, second = Number.NaN, third = Number.NaN] = parts.slice(0, 3).map(Number);
  const rest = parts.slice(3).join('');
  if (parts.length < 4 || ![first, second, third].every(Number.isInteger)) return undefined;
  switch (kind.toLowerCase()) {
    case 'ds':
      return /^[0-9a-f]+$/i.test(rest)
        ? { kind: 'ds', key_tag: first, algorithm: second, digest_type: third, digest: rest.toUpperCase() }
        : undefined;
    case 'dnskey':
      return { kind: 'dnskey', flags: first, protocol: second, algorithm: third, public_key: rest };
    default:
      return undefined;
  }
}

/**
 * The user's records, one a line, checked against the rules before anything is sent: only accepted
 * kinds and algorithms, at least `min_records` (docs/registrar-api.md §8). The error names the line.
 */
export function parseRecords(
  input: string,
  rules: RecordRules,
): { records: ExternalRecord[] } | { error: string } {
  const lines = input
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const records: ExternalRecord[] = [];
  for (const [index, line] of lines.entries()) {
    const record = parseLine(line);
    if (record === undefined) return { error: text.dns.lineNotARecord({ line: index + 1 }) };
    if (!rules.kinds.includes(record.kind)) {
      return {
        error: text.dns.lineKindNotAccepted({ line: index + 1, kinds: rules.kinds.join(', ').toUpperCase() }),
      };
    }
    // An empty list means the registry states no restriction (docs/registrar-api.md §2.4).
    if (rules.algorithms.length > 0 && !rules.algorithms.includes(record.algorithm)) {
      return {
        error: text.dns.lineAlgorithmNotAccepted({
          line: index + 1,
          algorithm: record.algorithm,
          accepted: rules.algorithms.join(', '),
        }),
      };
    }
    // Registries have started refusing SHA-1 DS records (issue #45): refused here, on the field,
    // rather than by the registry after a second person approved it.
    if (record.kind === 'ds' && record.digest_type === SHA1_DIGEST_TYPE)
      return { error: text.dns.lineSha1Digest({ line: index + 1 }) };
    records.push(record);
  }
  if (records.length < rules.minRecords) return { error: text.dns.tooFewRecords({ min: rules.minRecords }) };
  if (records.length > MAX_EXTERNAL_RECORDS)
    return { error: text.dns.tooManyRecords({ max: MAX_EXTERNAL_RECORDS }) };
  return { records };
}
