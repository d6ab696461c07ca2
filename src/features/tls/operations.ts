import { z } from 'zod';
import { DCV_METHODS, REVOCATION_REASONS, TLS_PRODUCTS, type TlsCertificate } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { defineOperation, type Execution, type RegistrarContext } from '../approvals/operations.js';
import { orderedAt } from './blocks.js';
import { parseCsr } from './csr.js';
import { CertificateOrders } from './order-service.js';

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

/** The order as the registrar takes it (docs/registrar-api.md §4.1), snapshotted CSR included: a CSR is public. */
const OrderParams = z.object({
  sku: z.string().min(1),
  common_name: z.string().min(1),
  dns_names: z.array(z.string()).optional(),
  csr: z.string().min(1),
  dcv_method: z.enum(DCV_METHODS),
  dcv_emails: z.array(z.string()).optional(),
  org_id: z.string().optional(),
  renewal_of_certificate_id: z.string().optional(),
  validity_days: z.number().int().positive().optional(),
});
type OrderParams = z.infer<typeof OrderParams>;

/**
 * The CSR's key, for approvers: which key the certificate will vouch for — its type and its SHA-256
 * fingerprint (of the SubjectPublicKeyInfo, as `openssl pkey -pubin -outform der | sha256sum` gives),
 * so the approver can compare it with the key the requester holds.
 */
function csrKey(pem: string): string {
  try {
    const { key, keySha256 } = parseCsr(pem);
    const type =
      key.type === 'rsa'
        ? `RSA ${key.bits} bits`
        : key.type === 'ec'
          ? `EC ${key.curve}`
          : key.type === 'ed25519'
            ? 'Ed25519'
            : 'unknown type';
    return `${type}, public key SHA-256 ${codeSpan(keySha256)}`;
  } catch {
    return 'unreadable';
  }
}

const names = (list: readonly string[]) =>
  `${list.slice(0, 10).map(codeSpan).join(', ')}${list.length > 10 ? ` and ${list.length - 10} more` : ''}`;

function placed(cert: TlsCertificate, verb: 'ordered' | 'reissued'): Execution {
  const pending = cert.status === 'pending';
  return {
    outcome:
      `certificate ${cert.id} for ${cert.common_name} ${verb}, now ${cert.status}` +
      (pending ? `; its validation records: /tls show ${cert.id}` : ''),
    ...(pending ? { follow: { kind: 'certificate' as const, resource: cert.id } } : {}),
  };
}

/**
 * A certificate order, when the policy says orders need approval (`ordersNeedApproval`). Placed
 * through `CertificateOrders`, so an order for a name already being placed or pending is not
 * placed twice, whichever way it came.
 */
export const orderCertificate = defineOperation<
  RegistrarContext & { redis: Redis; keys: KeySpace },
  'tls.order',
  OrderParams
>({
  name: 'tls.order',
  permission: 'order',
  schema: OrderParams,
  summary: (p) => {
    const more = p.dns_names?.length ?? 0;
    return `order a ${p.sku} certificate for ${p.common_name}${more > 0 ? ` and ${more} more name(s)` : ''}`;
  },
  target: (p) => p.common_name,
  preview: async (_ctx, p) => {
    const product = TLS_PRODUCTS.find((known) => known.sku === p.sku)?.name ?? p.sku;
    const details = [
      `Product *${escapeMrkdwn(product)}* for ${names([p.common_name, ...(p.dns_names ?? [])])}`,
      `CSR key: ${csrKey(p.csr)}; validation by ${p.dcv_method === 'email' ? `e-mail to ${names(p.dcv_emails ?? [])}` : 'DNS (CNAME record)'}`,
    ];
    if (p.org_id !== undefined) details.push(`TLS organization ${codeSpan(p.org_id)}`);
    if (p.renewal_of_certificate_id !== undefined)
      details.push(`Renews certificate ${codeSpan(p.renewal_of_certificate_id)}`);
    if (p.validity_days !== undefined) details.push(`Validity: ${p.validity_days} days`);
    return { details };
  },
  precheck: async () => undefined,
  execute: async ({ registrar, redis, keys, workspace }, p) => {
    const orders = new CertificateOrders({ registrarFor: () => registrar, redis, keys });
    const outcome = await orders.place(workspace, p);
    if (outcome.kind === 'placed') return placed(outcome.certificate, 'ordered');
    throw new AppError(
      'regdesk_tls_order_pending',
      outcome.kind === 'already-pending'
        ? `an order for ${p.common_name} is already pending (${outcome.id}), so none was placed`
        : `an order for ${p.common_name} was being placed at that moment, so none was placed`,
    );
  },
});

/** A reissue with the names kept exactly (docs/registrar-api.md §4.1), when the policy says it needs approval. */
const ReissueParams = z.object({
  certificateId: z.string().min(1).max(200),
  commonName: z.string(),
  params: z.object({
    csr: z.string().min(1),
    dcv_method: z.enum(DCV_METHODS),
    common_name: z.string().optional(),
    dns_names: z.array(z.string()).optional(),
    comments: z.string().optional(),
    validity_days: z.number().int().positive().optional(),
  }),
});

export const reissueCertificate = defineOperation<
  RegistrarContext,
  'tls.reissue',
  z.infer<typeof ReissueParams>
>({
  name: 'tls.reissue',
  permission: 'reissue',
  schema: ReissueParams,
  summary: (p) => `reissue certificate ${p.certificateId} (${p.commonName}) with a new CSR`,
  target: (p) => p.certificateId,
  preview: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    return {
      details: [
        describeCertificate(cert),
        `New CSR key: ${csrKey(p.params.csr)}; the names stay exactly as ordered.`,
      ],
    };
  },
  precheck: async () => undefined,
  execute: async ({ registrar }, p) =>
    placed(await registrar.tls.reissue(p.certificateId, p.params), 'reissued'),
});
