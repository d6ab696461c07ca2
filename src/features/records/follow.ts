import type { DnsClient } from '../../dns/client.js';
import { sameName } from '../../dns/client.js';
import { displayName } from '../../shared/domain-names.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { checkDelegation, type ZoneServer } from '../diagnostics/delegation.js';
import type { Follower, FollowOutcome } from '../follow/jobs.js';
import { changeCard, changeSummary } from './blocks.js';
import { type MadeChange, type RecordChange, RecordChanges, type RecordValue } from './changes.js';
import { answerPresentation, presentation } from './record-data.js';

/** What is followed: the zone and the change, so the deadline message can name the zone's command. */
export const recordFollowResource = (made: MadeChange) => `${made.domain}/${made.id}`;
const parseResource = (resource: string) => {
  const slash = resource.lastIndexOf('/');
  return { domain: resource.slice(0, slash), id: resource.slice(slash + 1) };
};

/** What every authoritative server must show for the change to count as served. */
export interface Expectation {
  /** The record as written: served with this data and TTL. */
  present?: RecordValue;
  /** The record as it was: no longer served (unless it is the same data, a TTL-only edit). */
  absent?: RecordValue;
}

export function expectationOf(change: RecordChange): Expectation {
  if (change.kind === 'add') return { present: change.after };
  if (change.kind === 'delete') return { absent: change.before };
  const samePlace = change.before.name === change.after.name;
  const sameData =
    samePlace &&
    presentation(change.before.type, change.before.data, change.before.priority) ===
      presentation(change.after.type, change.after.data, change.after.priority);
  return sameData ? { present: change.after } : { present: change.after, absent: change.before };
}

/** One server's answers for the record's name and type, as presentation → TTL. */
async function served(dns: DnsClient, server: ZoneServer, value: RecordValue): Promise<Map<string, number>> {
  // ALIAS is not followed (operations.ts); every other type the registrar takes is a wire type.
  const answer = await dns.ask(dns.nameserver(server.address), value.name, value.type as 'A');
  const seen = new Map<string, number>();
  for (const record of answer.answers) {
    if (record.type !== value.type || !sameName(record.name, value.name)) continue;
    const shown = answerPresentation(record);
    if (shown !== undefined) seen.set(shown, record.ttl ?? 0);
  }
  return seen;
}

/** Whether every server that answers for the zone shows the change; a server that does not answer means "not yet". */
export async function isServed(
  dns: DnsClient,
  servers: readonly ZoneServer[],
  expected: Expectation,
): Promise<boolean> {
  for (const server of servers) {
    try {
      if (expected.present !== undefined) {
        const { present } = expected;
        const ttl = (await served(dns, server, present)).get(
          presentation(present.type, present.data, present.priority),
        );
        // An authoritative answer carries the TTL as written: an old TTL means the old record.
        if (ttl !== present.ttl) return false;
      }
      if (expected.absent !== undefined) {
        const { absent } = expected;
        if ((await served(dns, server, absent)).has(presentation(absent.type, absent.data, absent.priority)))
          return false;
      }
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A record change is settled once every authoritative nameserver of the zone serves it (asked
 * directly, without recursion: no cache in between), then the thread hears how long resolvers may
 * still answer from before (the change's `cacheSeconds`). Nameservers usually serve a change within
 * seconds; after an hour Regdesk stops and points to `/dns check`.
 */
export const recordFollower = {
  kind: 'record' as const,
  deadlineMs: 60 * 60_000,
  showCommand: (resource: string) => text.records.showCommand({ domain: parseResource(resource).domain }),
  check: async (_registrar, resource, tools): Promise<FollowOutcome> => {
    const { id } = parseResource(resource);
    const made = await new RecordChanges(tools.redis, tools.keys).get(tools.workspace, id);
    if (made === undefined) {
      const said = text.records.changeUnknown({ id });
      return { settled: true, text: said, card: { text: said, blocks: [] } };
    }
    // One look is one check: the zone's nameservers asked within the contract's bounds.
    const dns = tools.dns.forCheck();
    const delegation = await checkDelegation(dns, made.domain, undefined);
    if (delegation.servers.length === 0) return { settled: false };
    if (!(await isServed(dns, delegation.servers, expectationOf(made.change)))) return { settled: false };
    const nameservers = [...new Set(delegation.servers.map((server) => server.host))];
    const now = Date.now();
    return {
      settled: true,
      text: text.records.settled({
        summary: escapeMrkdwn(changeSummary(made.domain, made.change, made.revertOf)),
        nameservers: nameservers.map((host) => codeSpan(displayName(host))).join(', '),
        seconds: made.cacheSeconds,
        until: slackDate(now + made.cacheSeconds * 1000),
      }),
      card: changeCard(made, { nameservers, at: now }),
    };
  },
} satisfies Follower<'record'>;
