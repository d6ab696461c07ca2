import { displayName } from '../../shared/domain-names.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Follower } from '../follow/jobs.js';
import { dnssecCard } from './blocks.js';

/** A DNSSEC transition is settled when no state is pending and no job runs; it converges within 48 h. */
export const dnssecFollower = {
  kind: 'dnssec' as const,
  deadlineMs: 48 * 60 * 60 * 1000,
  showCommand: (domain) => `/dns dnssec ${domain}`,
  check: async (registrar, domain) => {
    const state = await registrar.dnssec.get(domain);
    const pending =
      state.dnssec_state === 'pending' || (state.pending_job !== undefined && state.pending_job !== null);
    if (pending) return { settled: false };
    const outcome =
      state.dnssec_state === 'active' ? text.dns.dnssecSettledActive : text.dns.dnssecSettledInactive;
    return {
      settled: true,
      card: dnssecCard(domain, state),
      text: outcome({
        name: codeSpan(displayName(domain)),
        state: escapeMrkdwn(state.dnssec_state),
        mode: codeSpan(state.mode ?? 'none'),
      }),
    };
  },
} satisfies Follower<'dnssec'>;
