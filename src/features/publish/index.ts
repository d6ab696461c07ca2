import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { BaseDeps } from '../../shared/deps.js';
import { createWorker } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Requests } from '../approvals/request.js';
import type { AuditLog } from '../audit/service.js';
import type { FeatureModule } from '../feature.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { registerPublishActions } from './actions.js';
import { PUBLISH_QUEUE, type PublishJob, publishProcessor } from './jobs.js';
import { publishValidation } from './operations.js';
import type { PublishedRecords } from './store.js';
import type { ValidationLedger } from './validation-ledger.js';

export interface PublishFeatureDeps extends BaseDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  dnsClient: DnsClient;
  validations: ValidationLedger;
  published: PublishedRecords;
  publishQueue: Queue<PublishJob>;
  roles: Roles;
  policies: PolicyStore;
  approvals: Requests<typeof publishValidation>;
  audit: AuditLog;
  poster: ChannelPoster;
  languages: Languages;
}

/**
 * "Publish validation records" on a pending certificate's card: the CNAMEs written at the registrar,
 * confirmed on the zone's nameservers, removed once the certificate is issued (contract §3).
 */
export const publishFeature = {
  name: 'publish',
  operations: [publishValidation],
  register: (app, deps) => registerPublishActions(app, deps, deps.logger),
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      // Its reports are in the certificate card's thread, in a channel: the workspace's language.
      createWorker(
        PUBLISH_QUEUE,
        deps.languages.speakingForWorkspaces(publishProcessor({ ...deps, logger })),
        connection,
        keys,
        logger,
        { concurrency: 4 },
      ),
  ],
} satisfies FeatureModule<PublishFeatureDeps>;
