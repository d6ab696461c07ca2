import type { RdapClient, RdapFacts, RdapFailure, RdapLookup } from '../../rdap/index.js';
import { displayName } from '../../shared/domain-names.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
import { rdapFailureText, rdapSource } from './rdap-look.js';

/**
 * Domains asked through RDAP per `/domain watch add` (docs/requirements.md R49: bounded per request): each is a
 * question to a registry, and a list of made-up names must not become a scan of registries.
 */
export const MAX_RDAP_PER_COMMAND = 20;
/** Questions in flight at once; the RDAP client's pace per server bounds the rate. */
const CONCURRENCY = 4;

export interface HeldElsewhere {
  /** Domains the registry's RDAP service answered for: watched through RDAP. */
  found: Map<string, RdapFacts>;
  /** What the adder is told about the others, one line per reason. */
  lines: string[];
}

const names = (ids: readonly string[]) => ids.map((id) => codeSpan(displayName(id).slice(0, 100))).join(', ');

/**
 * Asks RDAP about domains the registrar does not hold. A name RDAP does not know is not registered;
 * a TLD without RDAP is named, and a failed question is "could not check": none of those is watched.
 */
export async function askRdap(
  rdap: Pick<RdapClient, 'domain'>,
  ids: readonly string[],
): Promise<HeldElsewhere> {
  const asked = ids.slice(0, MAX_RDAP_PER_COMMAND);
  const answers = new Map<string, RdapLookup>();
  let next = 0;
  const worker = async () => {
    while (next < asked.length) {
      const id = asked[next++] as string;
      answers.set(id, await rdap.domain(id));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, asked.length) }, worker));

  const found = new Map<string, RdapFacts>();
  const notRegistered: string[] = [];
  const noService = new Map<string, string[]>();
  const failed = new Map<RdapFailure, string[]>();
  for (const id of asked) {
    const answer = answers.get(id);
    if (answer?.kind === 'found') found.set(id, answer.facts);
    else if (answer?.kind === 'not-found') notRegistered.push(id);
    else if (answer?.kind === 'no-service')
      noService.set(answer.tld, [...(noService.get(answer.tld) ?? []), id]);
    else if (answer?.kind === 'failed')
      failed.set(answer.failure, [...(failed.get(answer.failure) ?? []), id]);
  }
  const lines = [
    ...(notRegistered.length === 0 ? [] : [text.rdap.notRegistered({ names: names(notRegistered) })]),
    ...[...noService].map(([tld, list]) => text.rdap.noService({ names: names(list), tld })),
    ...[...failed].map(([failure, list]) =>
      text.rdap.couldNotCheck({ names: names(list), reason: rdapFailureText(failure) }),
    ),
    ...(ids.length > asked.length
      ? [text.rdap.notAsked({ names: names(ids.slice(asked.length)), max: MAX_RDAP_PER_COMMAND })]
      : []),
  ];
  return { found, lines };
}

/** The line that tells the adder a domain is watched through RDAP: source, expiry and transfer lock. */
export function watchedViaRdapLine(id: string, facts: RdapFacts): string {
  return text.rdap.watchedViaRdap({
    name: codeSpan(displayName(id)),
    source: rdapSource(facts.registrar),
    expiry: markup(
      facts.expiresAt === undefined
        ? text.watches.lineExpiryNotKnown
        : text.watches.lineExpires({ date: slackDate(facts.expiresAt, '{date_short}') }),
    ),
    lock: facts.transferLock ? text.rdap.transferLockOn : text.rdap.transferLockOff,
  });
}
