import type { Queue } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import {
  DuplicateRecordError,
  ForbiddenError,
  NotOfferedError,
  type RegistrarClient,
  RegistrarError,
  UnauthorizedError,
} from '../../registrar/index.js';
import type { BaseDeps } from '../../shared/deps.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { AuditLog } from '../audit/service.js';
import { type PublishJob, queuePublishJob } from './jobs.js';
import { planFor, type Step } from './plan.js';
import { annotationFor, type OwnRecord, type PublishedRecords } from './store.js';
import type { ValidationLedger } from './validation-ledger.js';

export interface PublishDeps extends BaseDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  dnsClient: DnsClient;
  validations: Pick<ValidationLedger, 'recall'>;
  published: PublishedRecords;
  audit: Pick<AuditLog, 'append'>;
  publishQueue: Queue<PublishJob>;
}

/** Validation records live only while the CA looks: a minute in caches at most (spec addendum §4). */
export const VALIDATION_TTL = 60;

export type PublishOutcome =
  | { kind: 'not-ours' }
  | { kind: 'not-pending'; status: string }
  | { kind: 'plan'; steps: Step[] }
  | { kind: 'read-only' }
  | { kind: 'not-offered' }
  | { kind: 'partial'; written: number; reason: string }
  | { kind: 'written'; steps: Step[]; written: number };

/** Where the follow-up reports (the card's thread) and who pressed. */
export interface PublishOrigin {
  channel: string;
  threadTs?: string;
  user: string;
}

/**
 * What writing takes. The audit is left out when publishing runs as an approved request: the
 * request's own trail (request, approvals, execution, outcome) records it.
 */
export type PublishWriteDeps = Pick<
  PublishDeps,
  'registrarFor' | 'validations' | 'published' | 'publishQueue' | 'now'
> & {
  audit?: Pick<AuditLog, 'append'>;
};

/**
 * Publishes a pending certificate's validation records at the registrar (docs/requirements.md R46):
 * the records come from what Regdesk kept when it placed the order or reissue, never from the
 * button. Nothing is written while any record is blocked by someone else's record or its zone is
 * not hosted at the registrar; records already there are not written again (a repeated or
 * simultaneous press writes nothing more: the registrar refuses an exact duplicate). Then a job
 * confirms them on the zone's authoritative nameservers and removes them once the certificate is
 * issued. `planned` is a plan the caller has just read from the registrar (it is not read again).
 */
export async function publishRecords(
  deps: PublishWriteDeps,
  workspace: WorkspaceRef,
  certificateId: string,
  origin: PublishOrigin,
  planned?: Step[],
): Promise<PublishOutcome> {
  const known = await deps.validations.recall(workspace, certificateId);
  if (known === undefined) return { kind: 'not-ours' };
  const registrar = deps.registrarFor(workspace);
  const certificate = await registrar.tls.get(certificateId);
  if (certificate.status !== 'pending') return { kind: 'not-pending', status: certificate.status };

  const steps = planned ?? (await planFor(registrar, known.records, await deps.published.owned(workspace)));
  if (steps.some((step) => step.action === 'blocked' || step.action === 'elsewhere'))
    return { kind: 'plan', steps };

  const writes = steps.filter((step) => step.action === 'create' || step.action === 'replace').length;
  // Audited before the first write and after the last: a write that fails part-way leaves a trail of
  // what was asked and what was written (contract §3 "Audit"; the approved path's trail is the request's).
  await deps.audit?.append(workspace, {
    action: 'records_publish',
    actor: origin.user,
    operation: 'tls.publish',
    target: certificateId,
    outcome: `${writes} to write`,
  });
  const added: OwnRecord[] = [];
  const replaced: number[] = [];
  let failure: unknown;
  for (const step of steps) {
    if (step.action !== 'create' && step.action !== 'replace') continue;
    try {
      if (step.action === 'replace') {
        await registrar.dns.deleteRecord(step.stale.id);
        replaced.push(step.stale.id);
      }
      const created = await registrar.dns.createRecord({
        type: 'CNAME',
        name: step.record.name,
        data: step.record.value,
        ttl: VALIDATION_TTL,
        annotation: annotationFor(certificateId),
      });
      if (created.id !== undefined)
        added.push({ id: created.id, zone: step.zone, name: step.record.name, value: step.record.value });
    } catch (error) {
      // Another press wrote it a moment ago: it is there, which is all that was wanted.
      if (error instanceof DuplicateRecordError) continue;
      failure = error;
      break;
    }
  }
  if (added.length > 0 || replaced.length > 0)
    await deps.published.add(workspace, certificateId, added, replaced);
  const written = added.length;
  const failed = failure instanceof Error ? failure.message : undefined;
  await deps.audit?.append(workspace, {
    action: 'records_publish',
    actor: origin.user,
    operation: 'tls.publish',
    target: certificateId,
    outcome:
      failed === undefined ? `${written} written` : `${written} of ${writes} written; failed: ${failed}`,
  });
  // Whatever was written is followed, so the cleanup after issuance removes it, a partial write too.
  if (written > 0 || failure === undefined)
    await queuePublishJob(deps.publishQueue, workspace, certificateId, origin, deps.now());
  if (failure !== undefined) {
    if (written === 0 && (failure instanceof ForbiddenError || failure instanceof UnauthorizedError))
      return { kind: 'read-only' };
    if (written === 0 && failure instanceof NotOfferedError) return { kind: 'not-offered' };
    if (!(failure instanceof RegistrarError)) throw failure;
    return { kind: 'partial', written, reason: failure.userMessage };
  }
  return { kind: 'written', steps, written };
}
