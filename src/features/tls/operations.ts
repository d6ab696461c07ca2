import { z } from 'zod';
import { REVOCATION_REASONS, type TlsCertificate } from '../../registrar/index.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import { orderedAt } from './blocks.js';

const WINDOW_MS = 7 * 86_400_000;

export function describeCertificate(cert: TlsCertificate): string {
  const names = cert.dns_names.length > 0 ? cert.dns_names : [cert.common_name];
  return `Certificate ${codeSpan(cert.id)}: ${codeSpan(cert.common_name)}, status *${escapeMrkdwn(cert.status)}*, names ${names
    .slice(0, 10)
    .map(codeSpan)
    .join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`;
}

const Params = z.object({
  certificateId: z.string().min(1).max(200),
  reason: z.enum(REVOCATION_REASONS),
});

export const revokeCertificate = defineOperation<RegistrarContext, 'tls.revoke', z.infer<typeof Params>>({
  name: 'tls.revoke',
  schema: Params,
  summary: (p) => `revoke certificate ${p.certificateId} (reason: ${p.reason})`,
  target: (p) => p.certificateId,
  preview: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    const details = [
      describeCertificate(cert),
      'Only this certificate is revoked; the order stays available for a reissue.',
    ];
    if (cert.status !== 'issued')
      return {
        details,
        blocker: `Certificate ${p.certificateId} is ${cert.status}: only an issued certificate can be revoked.`,
      };
    return { details };
  },
  precheck: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    return cert.status === 'issued'
      ? undefined
      : `the certificate is now ${cert.status}, so nothing was revoked`;
  },
  execute: async ({ registrar }, p) => {
    const cert = await registrar.tls.revoke(p.certificateId, {
      revocation_reason: p.reason,
      comment: 'Revoked via Regdesk after team approval',
    });
    return { outcome: `certificate ${cert.id} is now ${cert.status}` };
  },
});

export const cancelOrder = defineOperation<RegistrarContext, 'tls.cancel', z.infer<typeof Params>>({
  name: 'tls.cancel',
  schema: Params,
  summary: (p) => `cancel or revoke the whole order of certificate ${p.certificateId} (reason: ${p.reason})`,
  target: (p) => p.certificateId,
  preview: async ({ registrar, now }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    const details = [describeCertificate(cert)];
    if (cert.status === 'pending') {
      details.push('The order is not issued yet: it will be *cancelled*.');
      return { details };
    }
    const ordered = orderedAt(cert);
    if (ordered !== undefined) {
      // docs/requirements.md R32: absolute dates, since the approval message lives on for a day or more.
      const windowEnds = slackDate(ordered + WINDOW_MS);
      if (ordered + WINDOW_MS <= now) {
        return { details, blocker: `The 7-day window for revoking the whole order ended ${windowEnds}.` };
      }
      details.push(`Ordered ${slackDate(ordered)}: the whole order can be revoked until ${windowEnds}.`);
    } else {
      details.push(
        'Within 7 days of ordering this revokes the *whole order* (every certificate version); later the registrar refuses.',
      );
    }
    details.push(':warning: A revoked order cannot be reissued.');
    return { details };
  },
  precheck: async ({ registrar, now }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    if (['revoked', 'cancelled'].includes(cert.status)) return `the order is already ${cert.status}`;
    const ordered = orderedAt(cert);
    if (cert.status !== 'pending' && ordered !== undefined && now > ordered + WINDOW_MS) {
      return 'the order is now past its 7-day window, so it can no longer be revoked as a whole';
    }
    return undefined;
  },
  execute: async ({ registrar }, p) => {
    const cert = await registrar.tls.cancelOrder(p.certificateId, {
      revocation_reason: p.reason,
      comment: 'Cancelled via Regdesk after team approval',
    });
    return { outcome: `order of ${cert.id} is now ${cert.status}` };
  },
});
