import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { Follower } from '../follow/jobs.js';
import { certificateCard } from './blocks.js';

/** A certificate order is settled once it leaves `pending`; validation may take up to 30 days. */
export const certificateFollower: Follower<'certificate'> = {
  kind: 'certificate',
  deadlineMs: 30 * 24 * 60 * 60 * 1000,
  showCommand: (id) => `/tls show ${id}`,
  check: async (registrar, id) => {
    const cert = await registrar.tls.get(id);
    if (cert.status === 'pending') return { settled: false };
    if (cert.status === 'issued') {
      return {
        settled: true,
        card: certificateCard(cert),
        text: `:white_check_mark: Certificate ${codeSpan(cert.id)} for ${codeSpan(cert.common_name)} is issued. Download it with \`/tls download ${cert.id} pem\` or \`zip\`.`,
      };
    }
    return {
      settled: true,
      card: certificateCard(cert),
      text: `:x: Certificate ${codeSpan(cert.id)} ended as *${escapeMrkdwn(cert.status)}*${cert.pending_message ? `: ${escapeMrkdwn(cert.pending_message)}` : ''}.`,
    };
  },
};
