import { displayName } from '../../shared/domain-names.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { checkDelegation } from '../diagnostics/delegation.js';
import type { Follower, FollowOutcome } from '../follow/jobs.js';
import { expectationOf, isServed } from '../records/follow.js';
import { ChangeSets } from './store.js';

/** What is followed: the zone and the set. */
export const changeSetFollowResource = (domain: string, id: string) => `${domain}/${id}`;
const parseResource = (resource: string) => {
  const slash = resource.lastIndexOf('/');
  return { domain: resource.slice(0, slash), id: resource.slice(slash + 1) };
};

/** Steps confirmed per look: one look stays one bounded check (the live-DNS limits of contract §3). */
const STEPS_PER_LOOK = 25;

/**
 * An applied change set is settled once every authoritative nameserver of the zone serves every
 * step (asked directly, as single record changes are: records/follow.ts). A large set is confirmed
 * a slice per look, its progress kept with the run, so no look outgrows one check's bounds. ALIAS
 * steps have no wire type of their own and are not asked about.
 */
export const changeSetFollower = {
  kind: 'changeset' as const,
  deadlineMs: 60 * 60_000,
  showCommand: (resource: string) => text.changesets.showCommand({ domain: parseResource(resource).domain }),
  check: async (_registrar, resource, tools): Promise<FollowOutcome> => {
    const { domain, id } = parseResource(resource);
    const sets = new ChangeSets(tools.redis, tools.keys);
    const run = await sets.get(tools.workspace, id);
    if (run === undefined) {
      const said = text.changesets.revertGone;
      return { settled: true, text: said, card: { text: said, blocks: [] } };
    }
    const dns = tools.dns.forCheck();
    const delegation = await checkDelegation(dns, domain, undefined);
    if (delegation.servers.length === 0) return { settled: false };
    const done = run.steps.slice(0, run.done);
    let confirmed = run.confirmed;
    for (const step of done.slice(confirmed, confirmed + STEPS_PER_LOOK)) {
      const value = step.kind === 'delete' ? step.before : step.after;
      if (value.type !== 'ALIAS' && !(await isServed(dns, delegation.servers, expectationOf(step)))) break;
      confirmed += 1;
    }
    if (confirmed !== run.confirmed) await sets.save(tools.workspace, { ...run, confirmed });
    if (confirmed < done.length) return { settled: false };
    const nameservers = [...new Set(delegation.servers.map((server) => server.host))];
    const said = text.changesets.served({
      id,
      domain,
      count: done.length,
      nameservers: nameservers.map((host) => codeSpan(displayName(host))).join(', '),
    });
    return { settled: true, text: said, card: { text: said, blocks: [] } };
  },
} satisfies Follower<'changeset'>;
