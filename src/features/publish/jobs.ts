import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import { canonicalName, type DnsClient } from '../../dns/client.js';
import { NotFoundError, type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import { DelayedError } from '../../shared/bullmq.js';
import type { Logger } from '../../shared/logger.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import { checkDelegation } from '../diagnostics/delegation.js';
import { checkValidation } from '../diagnostics/validation.js';
import { followDelay } from '../follow/jobs.js';
import { zoneOf } from './plan.js';
import { annotationFor, type OwnRecord, type PublishedRecords } from './store.js';
import type { ValidationLedger, ValidationRecord } from './validation-ledger.js';

export const PUBLISH_QUEUE = 'publish';

/** Job data: ids and where to report; never a key or a token (docs/requirements.md R18). */
export interface PublishJob {
  teamId: string;
  enterpriseId?: string;
  certificateId: string;
  /** `confirm`: until the zone's nameservers serve the records; `cleanup`: until the certificate settles. */
  phase: 'confirm' | 'cleanup';
  attempt: number;
  deadline: number;
  channel: string;
  threadTs?: string;
  user: string;
}

/** Nameservers usually serve a change within seconds; after this, the person is told what is missing. */
const CONFIRM_FOR_MS = 60 * 60_000;
/** As long as the registrar follows an order (features/tls/follow.ts). */
const CLEANUP_FOR_MS = 30 * 86_400_000;

const jobId = (workspace: WorkspaceRef, certificateId: string) =>
  `publish-${createHash('sha256')
    .update(`${workspaceId(workspace)}:${certificateId}`)
    .digest('hex')
    .slice(0, 24)}`;

/**
 * One follow-up per certificate however often the button is pressed (docs/requirements.md R16): the id
 * is derived from it; a chain of delayed jobs, so it survives restarts.
 */
export async function queuePublishJob(
  queue: Queue<PublishJob>,
  workspace: WorkspaceRef,
  certificateId: string,
  origin: { channel: string; threadTs?: string; user: string },
  now: number,
): Promise<void> {
  await queue.add(
    'publish',
    {
      ...workspaceFields(workspace),
      certificateId,
      phase: 'confirm',
      attempt: 0,
      deadline: now + CONFIRM_FOR_MS,
      channel: origin.channel,
      ...(origin.threadTs === undefined ? {} : { threadTs: origin.threadTs }),
      user: origin.user,
    },
    {
      jobId: jobId(workspace, certificateId),
      delay: followDelay(0),
      removeOnComplete: true,
      removeOnFail: 50,
      attempts: 3,
      backoff: { type: 'exponential', delay: 5_000 },
    },
  );
}

export interface PublishJobDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  dnsClient: DnsClient;
  validations: Pick<ValidationLedger, 'recall'>;
  published: PublishedRecords;
  audit: Pick<AuditLog, 'append'>;
  poster: ChannelPoster;
  logger: Logger;
  now: () => number;
}

/**
 * Confirms the records on the zone's authoritative nameservers (asked directly, not through a cache)
 * and says "published"; then waits for the certificate to settle and removes Regdesk's own records,
 * never anyone else's.
 */
export function publishProcessor(deps: PublishJobDeps) {
  return async (job: Job<PublishJob>, token?: string): Promise<void> => {
    const data = job.data;
    const workspace = workspaceFields(data);
    const own = await deps.published.of(workspace, data.certificateId);
    const id = codeSpan(data.certificateId);
    const later = async (next: Partial<PublishJob>) => {
      const attempt = next.attempt ?? data.attempt + 1;
      await job.updateData({ ...data, ...next, attempt });
      await job.moveToDelayed(Date.now() + followDelay(attempt), token);
      throw new DelayedError();
    };
    const cleanup = { phase: 'cleanup' as const, attempt: 0, deadline: deps.now() + CLEANUP_FOR_MS };

    if (data.phase === 'confirm') {
      // Every record the order waits for, Regdesk's own and any that were there already.
      const wanted = (await deps.validations.recall(workspace, data.certificateId))?.records ?? [];
      const missing = await unserved(deps, wanted);
      if (missing.servers.length > 0 && missing.names.length === 0) {
        await say(
          deps,
          workspace,
          data,
          text.publish.published({ id, nameservers: missing.servers.map(codeSpan).join(', ') }),
        );
        return later(cleanup);
      }
      if (deps.now() + followDelay(data.attempt + 1) > data.deadline) {
        const names = missing.names.length > 0 ? missing.names : wanted.map((record) => record.name);
        await say(
          deps,
          workspace,
          data,
          text.publish.notYetServed({ id, missing: names.map(codeSpan).join(', ') }),
        );
        return later(cleanup);
      }
      return later({});
    }

    const certificate = await deps
      .registrarFor(workspace)
      .tls.get(data.certificateId)
      .catch((error: unknown) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
    const status = certificate?.status ?? 'gone';
    if (status === 'pending' && deps.now() + followDelay(data.attempt + 1) <= data.deadline) return later({});
    // `released`: no longer followed (deleted, gone, or changed by someone else); `removed`: deleted.
    const released: number[] = [];
    const removed: number[] = [];
    const registrar = deps.registrarFor(workspace);
    try {
      for (const record of own) {
        // Read again first: ids are the registrar's, and the record may have been changed or replaced
        // since Regdesk wrote it; only what is still Regdesk's own is deleted (R46).
        if (await stillOwn(registrar, record, data.certificateId)) {
          await registrar.dns.deleteRecord(record.id);
          removed.push(record.id);
        }
        released.push(record.id);
      }
    } catch (error) {
      if (!(error instanceof RegistrarError)) throw error;
      await deps.published.forget(workspace, data.certificateId, released);
      await say(
        deps,
        workspace,
        data,
        text.publish.removeFailed({ id, reason: escapeMrkdwn(error.userMessage) }),
      );
      return;
    }
    await deps.published.forget(workspace, data.certificateId, released);
    const left = released.length - removed.length;
    await deps.audit.append(workspace, {
      action: 'records_remove',
      actor: 'regdesk',
      operation: 'tls.publish',
      target: data.certificateId,
      outcome: text.publish.auditRemovedOutcome({ removed: removed.length, status, left }),
    });
    if (removed.length > 0)
      await say(
        deps,
        workspace,
        data,
        text.publish.removed({ id, count: removed.length, status: escapeMrkdwn(status) }),
      );
  };
}

/**
 * Whether the record with `own.id` is still the CNAME Regdesk wrote: same name and value, and its
 * annotation, where the registrar returns one, still Regdesk's for this certificate. One that is gone
 * is not Regdesk's to delete any more (nothing to do).
 */
async function stillOwn(registrar: RegistrarClient, own: OwnRecord, certificateId: string): Promise<boolean> {
  const now = await registrar.dns
    .getRecord(own.id)
    .catch((error: unknown) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
  if (now === undefined) return false;
  const same = (a: string, b: string) => canonicalName(a) === canonicalName(b);
  return (
    now.type === 'CNAME' &&
    same(now.name, own.name) &&
    same(now.data ?? '', own.value) &&
    (now.annotation === undefined || now.annotation === annotationFor(certificateId))
  );
}

/** Which of the records the zones' authoritative nameservers do not serve yet, and who they are. */
async function unserved(
  deps: PublishJobDeps,
  wanted: readonly ValidationRecord[],
): Promise<{ servers: string[]; names: string[] }> {
  const servers = new Set<string>();
  const names: string[] = [];
  const zoned = wanted.map((record) => ({ ...record, zone: zoneOf(record.name) ?? record.name }));
  for (const zone of new Set(zoned.map((record) => record.zone))) {
    // Each zone's confirmation is one check, within the contract's bounds.
    const dns = deps.dnsClient.forCheck();
    const delegation = await checkDelegation(dns, zone, undefined);
    for (const server of delegation.servers) servers.add(server.host);
    const records = zoned.filter((record) => record.zone === zone);
    const view = await checkValidation(dns, delegation.servers, [{ id: zone, records }]);
    if (delegation.servers.length === 0 || view.visible.length === 0)
      names.push(...records.map((record) => record.name));
  }
  return { servers: [...servers], names };
}

async function say(
  deps: PublishJobDeps,
  workspace: WorkspaceRef,
  data: PublishJob,
  said: string,
): Promise<void> {
  const client = await deps.slackFor(workspace);
  const message = text.workspace.followAddressed({ user: data.user, text: said });
  try {
    await deps.poster.post(client, {
      channel: data.channel,
      ...(data.threadTs === undefined ? {} : { thread_ts: data.threadTs }),
      text: message,
    });
  } catch (error) {
    if (slackRefusal(error) === undefined) throw error;
    deps.logger.warn({ slackError: slackRefusal(error) }, 'publish outcome could not be posted');
  }
}
