import type { RegistrarClient } from '../registrar/index.js';
import type { Services } from '../services.js';
import { createWorker, type WorkerFactory } from '../shared/queues.js';
import type { Feature } from '../slack/app.js';
import type { WorkspaceRef } from '../vault/store.js';
import { registerApprovalActions } from './approvals/actions.js';
import { APPROVALS_QUEUE, approvalProcessor } from './approvals/jobs.js';
import type { SensitiveOperation } from './approvals/operations.js';
import { policyCommand, registerPolicyModal } from './approvals/policy-view.js';
import { registerAssistant } from './assistant/index.js';
import { assistantProcessor } from './assistant/jobs.js';
import { ASSISTANT_QUEUE } from './assistant/service.js';
import { auditCommand } from './audit/commands.js';
import { recordsCommand, registerRecordPaging, zoneCommand } from './dns/commands.js';
import { dnssecCommand } from './dnssec/commands.js';
import { registerExternalRecords } from './dnssec/external.js';
import { disableDnssec, setExternalDnssec } from './dnssec/operations.js';
import { checkCommand } from './domains/check.js';
import { authcodeCommand, infoCommand, nsCommand } from './domains/commands.js';
import { changeNameservers, requestAuthCode } from './domains/operations.js';
import { VanitySets } from './domains/vanity.js';
import type { Origin } from './follow/jobs.js';
import { FOLLOW_QUEUE, followProcessor } from './follow/jobs.js';
import { registerHome } from './home/index.js';
import { registerInstallLifecycle } from './install/index.js';
import { registerKeys } from './keys/index.js';
import { showCommand, showOrganization } from './tls/commands.js';
import { downloadCommand } from './tls/download.js';
import { cancelOrder, revokeCertificate } from './tls/operations.js';
import { orderCommand, registerOrderModal } from './tls/order.js';
import { orgCommand, registerOrgModal } from './tls/organizations.js';
import { registerReissue, reissueCommand } from './tls/reissue.js';
import { registerReasonModal, revocationCommand } from './tls/revoke.js';

/** Every sensitive action (docs/requirements.md R8), each requiring approval before it runs. */
export function sensitiveOperations(
  s: Pick<Services, 'config' | 'keys' | 'redis'>,
): SensitiveOperation<RegistrarClient>[] {
  return [
    revokeCertificate,
    cancelOrder,
    requestAuthCode(s.config.limits, s.keys),
    changeNameservers(new VanitySets(s.redis, s.keys)),
    disableDnssec,
    setExternalDnssec,
  ];
}

/** The Slack features, in the order their commands appear in help. */
export function features(s: Services): Feature[] {
  const lookups = {
    vanitySets: new VanitySets(s.redis, s.keys),
    registrarFor: s.registrarFor,
    shareable: s.shareable,
    approvals: s.approvals,
    now: s.now,
  };
  return [
    (_app, d) => {
      d.router
        .add(
          '/domain',
          checkCommand({
            ...lookups,
            workspaceKeys: s.workspaceKeys,
            limiter: s.limiter,
            keys: s.keys,
            limit: s.config.limits.availability,
          }),
        )
        .add('/domain', infoCommand(lookups))
        .add('/domain', nsCommand(lookups))
        .add('/domain', authcodeCommand(lookups));
    },
    (app, d) =>
      registerKeys(app, {
        ...d,
        workspaceKeys: s.workspaceKeys,
        isAdmin: async (client, workspace, user) =>
          s.roles.isAdmin(client, await s.policies.get(workspace), user),
      }),
    (app, d) => {
      d.router.add('/domain', policyCommand(s.policies, s.roles)).add('/domain', auditCommand(s.audit));
      registerPolicyModal(app, s.policies, s.roles, s.audit, d.logger);
      registerApprovalActions(app, s.approvals, d.logger);
    },
    (app, d) => {
      d.router
        .add('/dns', zoneCommand(lookups))
        .add('/dns', recordsCommand(lookups))
        .add(
          '/dns',
          dnssecCommand({
            ...lookups,
            poster: s.poster,
            followDnssec: (workspace, domain, origin) => s.follow(workspace, 'dnssec', domain, origin),
          }),
        );
      registerRecordPaging(app, lookups, d.logger);
      registerExternalRecords(app, s.approvals, d.logger);
    },
    (app, d) => {
      const tlsDeps = {
        registrarFor: s.registrarFor,
        poster: s.poster,
        followCertificate: (workspace: WorkspaceRef, id: string, origin: Origin) =>
          s.follow(workspace, 'certificate', id, origin),
        logger: d.logger,
      };
      d.router
        .add('/tls', orderCommand())
        .add('/tls', showCommand(lookups))
        .add('/tls', reissueCommand(tlsDeps))
        .add('/tls', downloadCommand(lookups))
        .add('/tls', revocationCommand('revoke', s.approvals))
        .add('/tls', revocationCommand('cancel', s.approvals))
        .add('/tls', orgCommand(lookups, showOrganization(lookups)));
      registerReasonModal(app, s.approvals, d.logger);
      registerOrgModal(app, lookups, d.logger);
      registerReissue(app, tlsDeps);
      registerOrderModal(app, {
        registrarFor: s.registrarFor,
        poster: s.poster,
        redis: s.redis,
        keys: s.keys,
        followCertificate: (workspace, id, origin) => s.follow(workspace, 'certificate', id, origin),
        logger: d.logger,
      });
    },
    (app, d) => registerAssistant(app, { ...d, assistant: s.assistant, poster: s.poster }),
    (app, d) => {
      s.shareable.register(app, d.logger);
      registerInstallLifecycle(app, { ...d, vault: s.vault });
      registerHome(app, {
        ...d,
        workspaceKeys: s.workspaceKeys,
        approvals: s.approvalStore,
        audit: s.audit,
        running: async (workspace) => {
          const executing = (await s.approvalQueue.getJobs(['active', 'waiting']))
            .filter((job) => job.data.teamId === workspace.teamId && job.name === 'execute')
            .map((job) => `:gear: Executing approved request \`${job.data.requestId}\``);
          const following = (await s.followQueue.getJobs(['active', 'waiting', 'delayed'], 0, 200))
            .filter((job) => job.data.teamId === workspace.teamId)
            .map(
              (job) =>
                `:hourglass_flowing_sand: Following ${job.data.kind === 'dnssec' ? 'DNSSEC of' : 'certificate'} \`${job.data.resource}\` (check ${job.data.attempt + 1})`,
            );
          return [...executing, ...following];
        },
      });
    },
  ];
}

export function workers(s: Services): WorkerFactory[] {
  return [
    ({ connection, keys, logger }) =>
      createWorker(
        FOLLOW_QUEUE,
        followProcessor({
          registrarFor: s.registrarFor,
          slackFor: (workspace) => s.slackClients.forWorkspace(workspace),
          poster: s.poster,
          logger,
          now: s.now,
        }),
        connection,
        keys,
        logger,
      ),
    ({ connection, keys, logger }) =>
      createWorker(
        ASSISTANT_QUEUE,
        assistantProcessor({
          service: s.assistant,
          queue: s.assistantQueue,
          redis: s.redis,
          limiter: s.limiter,
          limits: s.config.limits,
          poster: s.poster,
          registrarFor: s.registrarFor,
          slackFor: (workspace) => s.slackClients.forWorkspace(workspace),
          logger,
        }),
        connection,
        keys,
        logger,
        // A question held by a process that died is taken up again within about 15 s (BullMQ's
        // defaults take up to a minute): short lock, frequent stalled checks.
        { concurrency: 16, lockDuration: 8_000, stalledInterval: 4_000 },
      ),
    ({ connection, keys, logger }) =>
      createWorker(
        APPROVALS_QUEUE,
        approvalProcessor(s.approvals, (workspace) => s.slackClients.forWorkspace(workspace)),
        connection,
        keys,
        logger,
      ),
  ];
}
