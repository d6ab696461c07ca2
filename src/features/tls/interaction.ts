import { type TlsCertificate, validationOf } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Submitter } from '../../slack/modal-flow.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { text } from '../../text/index.js';
import { type Requests, requestUnlessExempt } from '../approvals/request.js';
import { type AuditLog, hashParams } from '../audit/service.js';
import { announceChange } from '../follow/announce.js';
import type { Origin } from '../follow/jobs.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { needsApproval } from '../policy/rules.js';
import { announcement } from './blocks.js';
import type { completeOrder, orderCertificate, reissueCertificate } from './operations.js';
import type { CertificateOrders } from './order-service.js';
import type { CertificatePreflight } from './preflight.js';
import type { TlsService } from './service.js';

/** Orders and reissues: they go through approval when the policy says so. */
export type CertificateOperation = typeof orderCertificate | typeof reissueCertificate | typeof completeOrder;

/** Slack I/O shared by the TLS handlers, and what they are given (built in index.ts). */
export interface TlsHandlerDeps {
  service: TlsService;
  orders: CertificateOrders;
  /** DNSSEC and CAA of every name before an order, renewal, reissue or completion (preflight.ts). */
  preflight: CertificatePreflight;
  poster: ChannelPoster;
  roles: Roles;
  policies: PolicyStore;
  audit: AuditLog;
  approvals: Requests<CertificateOperation>;
  followCertificate(workspace: WorkspaceRef, id: string, origin: Origin): Promise<void>;
  /**
   * Publishes a certificate's validation records and tells the person what happened (features/publish):
   * after a staged order is completed through Regdesk, in the same thread as the follow-up.
   */
  publishValidation(
    workspace: WorkspaceRef,
    certificateId: string,
    where: { channel: string; threadTs?: string; user: string },
  ): Promise<void>;
  logger: Logger;
  now: () => number;
}

/**
 * A submitted order or reissue: an approval request when the policy says orders need one (the request
 * checks the requester, R33), else checked here and made at once by `make`.
 */
export async function orderOrRequest<Op extends CertificateOperation>(
  deps: TlsHandlerDeps,
  workspace: WorkspaceRef,
  who: Submitter,
  operation: Op,
  params: ReturnType<Op['parse']>,
  make: () => Promise<void>,
): Promise<void> {
  const input = { workspace, user: who.user, channel: who.channel, operation, params };
  await requestUnlessExempt(deps, input, who, (rules) => !needsApproval(rules, who.user), make);
}

/** Each change as announced and as audited. */
const CHANGES = { 'tls.order': 'order', 'tls.reissue': 'reissue', 'tls.complete': 'complete' } as const;

/**
 * An order or reissue the registrar accepted without approval: its card with the validation records
 * in the channel, else privately; a pending one is then followed (follow/announce.ts,
 * docs/requirements.md R30). Then audited with the hash of what was sent (R12).
 */
export async function announce(
  deps: TlsHandlerDeps,
  workspace: WorkspaceRef,
  who: Submitter,
  change: { operation: CertificateOperation; params: Record<string, unknown> },
  cert: TlsCertificate,
): Promise<void> {
  const action = CHANGES[change.operation.name];
  await announceChange(
    deps,
    who,
    announcement(who.user, action, cert),
    cert.status === 'pending'
      ? {
          start: async (origin) => {
            await deps.followCertificate(workspace, cert.id, origin);
            // Completed through Regdesk: its records are published at once (R46: only its own names).
            if (action === 'complete' && validationOf(cert)?.method === 'dns-cname-token')
              await deps.publishValidation(workspace, cert.id, {
                channel: origin.channel,
                ...(origin.threadTs === undefined ? {} : { threadTs: origin.threadTs }),
                user: who.user,
              });
          },
          showCommand: text.tls.showCommand({ id: cert.id }),
        }
      : undefined,
  );
  await deps.audit.append(workspace, {
    // Completing a staged order is the ordering decision, audited as one.
    action: action === 'complete' ? 'order' : action,
    actor: who.user,
    operation: change.operation.name,
    target: change.operation.target(change.params),
    paramsHash: hashParams(change.params),
    outcome: text.tls.announcedOutcome({ id: cert.id, status: cert.status }),
  });
}
