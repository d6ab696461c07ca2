import { z } from 'zod';
import {
  REVOCATION_REASONS,
  TLS_PRODUCTS,
  type TlsCertificate,
  TlsCertificateOrderParams,
  TlsCertificateReissueParams,
  validationOf,
} from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import { slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { defineOperation, type Execution, type RegistrarContext } from '../approvals/operations.js';
import type { ValidationLedger } from '../publish/validation-ledger.js';
import { orderedAt } from './blocks.js';
import { parseCsr } from './csr.js';
import type { CertificateOrders } from './order-service.js';
import { type CertificatePreflight, namesOf } from './preflight.js';

const WINDOW_MS = 7 * 86_400_000;

/** Up to ten names in code spans, and how many more there are. */
const names = (list: readonly string[]) =>
  text.tls.nameList({
    names: list.slice(0, 10).map(codeSpan).join(', '),
    more: Math.max(list.length - 10, 0),
  });

export function describeCertificate(cert: TlsCertificate): string {
  return text.tls.describeCertificate({
    id: codeSpan(cert.id),
    commonName: codeSpan(cert.common_name),
    status: escapeMrkdwn(cert.status),
    names: names(cert.dns_names.length > 0 ? cert.dns_names : [cert.common_name]),
  });
}

const Params = z.lazy(() =>
  z.object({
    certificateId: z.string().min(1).max(200),
    reason: z.enum(REVOCATION_REASONS),
  }),
);

export const revokeCertificate = defineOperation<RegistrarContext, 'tls.revoke', z.infer<typeof Params>>({
  name: 'tls.revoke',
  actionClass: 'revoke',
  undo: 'never',
  schema: Params,
  summary: (p) => text.tls.revokeRequestSummary({ id: p.certificateId, reason: p.reason }),
  target: (p) => p.certificateId,
  preview: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    const details = [describeCertificate(cert), text.tls.revokeOnlyThisCertificate];
    if (cert.status !== 'issued')
      return { details, blocker: text.tls.revokeNotIssued({ id: p.certificateId, status: cert.status }) };
    return { details };
  },
  precheck: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    return cert.status === 'issued' ? undefined : text.tls.revokeNoLongerIssued({ status: cert.status });
  },
  execute: async ({ registrar }, p) => {
    const cert = await registrar.tls.revoke(p.certificateId, {
      revocation_reason: p.reason,
      comment: 'Revoked via Regdesk after team approval',
    });
    return { outcome: text.tls.revokedOutcome({ id: cert.id, status: cert.status }) };
  },
});

export const cancelOrder = defineOperation<RegistrarContext, 'tls.cancel', z.infer<typeof Params>>({
  name: 'tls.cancel',
  actionClass: 'revoke',
  undo: 'never',
  schema: Params,
  summary: (p) => text.tls.cancelRequestSummary({ id: p.certificateId, reason: p.reason }),
  target: (p) => p.certificateId,
  preview: async ({ registrar, now }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    const details = [describeCertificate(cert)];
    if (cert.status === 'pending') {
      details.push(text.tls.cancelPending);
      return { details };
    }
    const ordered = orderedAt(cert);
    if (ordered !== undefined) {
      // docs/requirements.md R32: absolute dates, since the approval message lives on for a day or more.
      const windowEnds = slackDate(ordered + WINDOW_MS);
      if (ordered + WINDOW_MS <= now) {
        return { details, blocker: text.tls.cancelWindowEnded({ date: windowEnds }) };
      }
      details.push(text.tls.cancelWindowOpen({ ordered: slackDate(ordered), ends: windowEnds }));
    } else {
      details.push(text.tls.cancelWindowUnknown);
    }
    details.push(text.tls.revokedOrderNotReissuable);
    return { details };
  },
  precheck: async ({ registrar, now }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    if (['revoked', 'cancelled'].includes(cert.status))
      return text.tls.cancelAlready({ status: cert.status });
    const ordered = orderedAt(cert);
    if (cert.status !== 'pending' && ordered !== undefined && now > ordered + WINDOW_MS) {
      return text.tls.cancelPastWindow;
    }
    return undefined;
  },
  execute: async ({ registrar }, p) => {
    const cert = await registrar.tls.cancelOrder(p.certificateId, {
      revocation_reason: p.reason,
      comment: 'Cancelled via Regdesk after team approval',
    });
    return { outcome: text.tls.cancelledOutcome({ id: cert.id, status: cert.status }) };
  },
});

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
        ? text.tls.csrKeyRsa({ bits: key.bits })
        : key.type === 'ec'
          ? text.tls.csrKeyEc({ curve: key.curve })
          : key.type === 'ed25519'
            ? text.tls.csrKeyEd25519
            : text.tls.csrKeyUnknownType;
    return text.tls.csrKey({ type, fingerprint: codeSpan(keySha256) });
  } catch {
    return text.tls.csrKeyUnreadable;
  }
}

function placed(cert: TlsCertificate, change: 'order' | 'reissue' | 'complete'): Execution {
  const pending = cert.status === 'pending';
  const outcome = {
    order: text.tls.orderedOutcome,
    reissue: text.tls.reissuedOutcome,
    complete: text.tls.completedOutcome,
  }[change];
  return {
    outcome: outcome({ id: cert.id, commonName: cert.common_name, status: cert.status, pending }),
    ...(pending ? { follow: { kind: 'certificate' as const, resource: cert.id } } : {}),
  };
}

/**
 * A certificate order, when the policy says orders need approval (`ordersNeedApproval`). Placed
 * through `CertificateOrders`, so an order for a name already being placed or pending is not
 * placed twice, whichever way it came.
 */
export const orderCertificate = defineOperation<
  RegistrarContext & { certificateOrders: CertificateOrders; certificatePreflight: CertificatePreflight },
  'tls.order',
  TlsCertificateOrderParams
>({
  name: 'tls.order',
  actionClass: 'order',
  permission: 'order',
  // Kept as the registrar's own order parameters (docs/registrar-api.md §4.1), CSR included (a CSR is
  // public): what approvers saw is exactly what is sent, checked by the same schema.
  schema: TlsCertificateOrderParams,
  summary: (p) =>
    text.tls.orderRequestSummary({ sku: p.sku, commonName: p.common_name, more: p.dns_names?.length ?? 0 }),
  target: (p) => p.common_name,
  preview: async (_ctx, p) => {
    const product = TLS_PRODUCTS.find((known) => known.sku === p.sku)?.name ?? p.sku;
    const details = [
      text.tls.orderPreviewProduct({
        product: escapeMrkdwn(product),
        names: names([p.common_name, ...(p.dns_names ?? [])]),
      }),
      text.tls.orderPreviewCsr({
        key: csrKey(p.csr),
        emails: p.dcv_method === 'email' ? names(p.dcv_emails ?? []) : undefined,
      }),
    ];
    if (p.org_id !== undefined) details.push(text.tls.orderPreviewOrganization({ id: codeSpan(p.org_id) }));
    if (p.renewal_of_certificate_id !== undefined)
      details.push(text.tls.orderPreviewRenews({ id: codeSpan(p.renewal_of_certificate_id) }));
    if (p.validity_days !== undefined) details.push(text.tls.orderPreviewValidity({ days: p.validity_days }));
    return { details };
  },
  // DNS may have changed while the request waited: the CA would refuse a bogus chain or CAA now.
  precheck: ({ certificatePreflight, workspace }, p) =>
    certificatePreflight.atExecution(workspace, [p.common_name, ...(p.dns_names ?? [])], p.dcv_method),
  execute: async ({ certificateOrders, workspace, requester }, p) => {
    const outcome = await certificateOrders.place(workspace, p, requester);
    if (outcome.kind === 'placed') return placed(outcome.certificate, 'order');
    throw new AppError(
      'regdesk_tls_order_pending',
      outcome.kind === 'already-pending'
        ? text.tls.orderAlreadyPendingRefusal({ commonName: p.common_name, id: outcome.id })
        : text.tls.orderInProgressRefusal({ commonName: p.common_name }),
    );
  },
});

/** A reissue with the names kept exactly (docs/registrar-api.md §4.1), when the policy says it needs approval. */
const ReissueParams = z.lazy(() =>
  z.object({
    certificateId: z.string().min(1).max(200),
    commonName: z.string(),
    // The registrar's own reissue parameters (docs/registrar-api.md §4.1): sent exactly as approved.
    params: TlsCertificateReissueParams,
  }),
);

export const reissueCertificate = defineOperation<
  RegistrarContext & { validations: ValidationLedger; certificatePreflight: CertificatePreflight },
  'tls.reissue',
  z.infer<typeof ReissueParams>
>({
  name: 'tls.reissue',
  actionClass: 'order',
  permission: 'reissue',
  schema: ReissueParams,
  summary: (p) => text.tls.reissueRequestSummary({ id: p.certificateId, commonName: p.commonName }),
  target: (p) => p.certificateId,
  preview: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    return {
      details: [describeCertificate(cert), text.tls.reissuePreviewCsr({ key: csrKey(p.params.csr) })],
    };
  },
  precheck: ({ certificatePreflight, workspace }, p) =>
    certificatePreflight.atExecution(
      workspace,
      [p.commonName, ...(p.params.dns_names ?? [])],
      p.params.dcv_method,
    ),
  execute: async ({ registrar, validations, workspace, requester }, p) => {
    const certificate = await registrar.tls.reissue(p.certificateId, p.params);
    await validations
      .remember(workspace, certificate, { by: requester, as: 'reissue' })
      .catch(() => undefined);
    return placed(certificate, 'reissue');
  },
});

const CompleteParams = z.lazy(() =>
  z.object({
    certificateId: z.string().min(1).max(200),
    orgId: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
  }),
);

/**
 * Completing a staged order (`action_required`, spec addendum §1 #9) with an organization: an order
 * decision like placing one, so it follows the order policy (approval when orders need one).
 */
export const completeOrder = defineOperation<
  RegistrarContext & { validations: ValidationLedger; certificatePreflight: CertificatePreflight },
  'tls.complete',
  z.infer<typeof CompleteParams>
>({
  name: 'tls.complete',
  actionClass: 'order',
  permission: 'order',
  schema: CompleteParams,
  summary: (p) => text.tls.completeRequestSummary({ id: p.certificateId, org: p.orgId }),
  target: (p) => p.certificateId,
  preview: async ({ registrar }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    const details = [describeCertificate(cert), text.tls.orderPreviewOrganization({ id: codeSpan(p.orgId) })];
    if (cert.action_required !== true)
      return { details, blocker: text.tls.completeNotStaged({ id: p.certificateId, status: cert.status }) };
    return { details };
  },
  precheck: async ({ registrar, certificatePreflight, workspace }, p) => {
    const cert = await registrar.tls.get(p.certificateId);
    if (cert.action_required !== true)
      return text.tls.completeNotStaged({ id: p.certificateId, status: cert.status });
    return certificatePreflight.atExecution(workspace, namesOf(cert), validationOf(cert)?.method);
  },
  execute: async ({ registrar, validations, workspace, requester }, p) => {
    const certificate = await registrar.tls.complete(p.certificateId, p.orgId);
    // Its validation records appear now (spec addendum §4): kept for publishing.
    await validations
      .remember(workspace, certificate, { by: requester, as: 'completion' })
      .catch(() => undefined);
    return placed(certificate, 'complete');
  },
});
