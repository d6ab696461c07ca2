import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { LookupDeps } from '../../slack/lookup.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Requests } from '../approvals/request.js';
import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import type { Origin } from '../follow/jobs.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { outcomeMessage } from '../publish/blocks.js';
import { publishOrAsk } from '../publish/gate.js';
import type { PublishJob } from '../publish/jobs.js';
import type { publishValidation } from '../publish/operations.js';
import type { PublishedRecords } from '../publish/store.js';
import type { ValidationLedger } from '../publish/validation-ledger.js';
import { showCommand, showOrganization } from './commands.js';
import { registerCompleteOrder } from './complete.js';
import { downloadCommand } from './download.js';
import { certificateFollower } from './follow.js';
import type { CertificateOperation, TlsHandlerDeps } from './interaction.js';
import {
  cancelOrder,
  completeOrder,
  orderCertificate,
  reissueCertificate,
  revokeCertificate,
} from './operations.js';
import { orderCommand, registerOrderModal } from './order.js';
import type { CertificateOrders } from './order-service.js';
import { orgCommand, registerOrgModal } from './organizations.js';
import type { CertificatePreflight } from './preflight.js';
import { registerReissue, reissueCommand } from './reissue.js';
import type { RenewalLedger } from './renewals.js';
import { type RevocationRequests, registerReasonModal, revocationCommand } from './revoke.js';
import { TlsService } from './service.js';

export interface TlsDeps extends LookupDeps {
  approvals: RevocationRequests & Requests<CertificateOperation> & Requests<typeof publishValidation>;
  roles: Roles;
  policies: PolicyStore;
  audit: AuditLog;
  poster: ChannelPoster;
  redis: Redis;
  keys: KeySpace;
  dnsClient: DnsClient;
  /** DNSSEC and CAA of every name before an order, renewal, reissue or completion (preflight.ts). */
  certificatePreflight: CertificatePreflight;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /** Publishing validation records (features/publish), for completed staged orders. */
  validations: ValidationLedger;
  renewals: RenewalLedger;
  certificateOrders: CertificateOrders;
  published: PublishedRecords;
  publishQueue: Queue<PublishJob>;
  follow(workspace: WorkspaceRef, kind: 'certificate', id: string, origin: Origin): Promise<void>;
}

/**
 * `/tls order|show|reissue|download|revoke|cancel|org`; issued certificates are followed. Orders and
 * reissues are sensitive operations too, used when the policy says they need approval.
 */
export const tlsFeature = {
  name: 'tls',
  operations: [revokeCertificate, cancelOrder, orderCertificate, reissueCertificate, completeOrder],
  followers: [certificateFollower],
  register: (app, deps) => {
    const service = new TlsService(deps);
    const handlers: TlsHandlerDeps = {
      service,
      orders: deps.certificateOrders,
      preflight: deps.certificatePreflight,
      poster: deps.poster,
      roles: deps.roles,
      policies: deps.policies,
      audit: deps.audit,
      approvals: deps.approvals,
      logger: deps.logger,
      now: deps.now,
      followCertificate: (workspace, id, origin) => deps.follow(workspace, 'certificate', id, origin),
      publishValidation: async (workspace, certificateId, where) => {
        const client = await deps.slackFor(workspace);
        const outcome = await publishOrAsk(deps, workspace, certificateId, { ...where, client });
        if (outcome.kind === 'requested') return;
        const message = outcomeMessage(certificateId, outcome);
        await deps.poster.post(client, {
          channel: where.channel,
          ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
          text: message.text,
          ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
        });
      },
    };
    deps.router
      .add('/tls', orderCommand(handlers))
      .add('/tls', showCommand(deps, service))
      .add('/tls', reissueCommand(handlers))
      .add('/tls', downloadCommand(service, deps.roles))
      .add('/tls', revocationCommand('revoke', deps.approvals))
      .add('/tls', revocationCommand('cancel', deps.approvals))
      .add('/tls', orgCommand(handlers, showOrganization(deps, service)));
    registerReasonModal(app, deps.approvals, deps.logger);
    registerOrgModal(app, handlers);
    registerReissue(app, handlers);
    registerOrderModal(app, handlers);
    registerCompleteOrder(app, handlers);
  },
} satisfies FeatureModule<TlsDeps>;
