import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Follower } from '../follow/jobs.js';
import { certificateCard } from './blocks.js';

/** A certificate order is settled once it leaves `pending`; validation may take up to 30 days. */
export const certificateFollower = {
  kind: 'certificate' as const,
  deadlineMs: 30 * 24 * 60 * 60 * 1000,
  showCommand: (id) => text.tls.showCommand({ id }),
  check: async (registrar, id) => {
    const cert = await registrar.tls.get(id);
    if (cert.status === 'pending') return { settled: false };
    if (cert.status === 'issued') {
      return {
        settled: true,
        card: certificateCard(cert),
        text: text.tls.followIssued({
          id: codeSpan(cert.id),
          commonName: codeSpan(cert.common_name),
          rawId: cert.id,
        }),
        // Then whether its names serve it (features/watches/served-follow.ts), told in the same thread.
        next: { kind: 'served', resource: cert.id },
      };
    }
    return {
      settled: true,
      card: certificateCard(cert),
      text: text.tls.followEnded({
        id: codeSpan(cert.id),
        status: escapeMrkdwn(cert.status),
        message: cert.pending_message ? escapeMrkdwn(cert.pending_message) : undefined,
      }),
    };
  },
} satisfies Follower<'certificate'>;
