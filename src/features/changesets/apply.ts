import type { WebClient } from '@slack/web-api';
import type { Job } from 'bullmq';
import {
  type DnsRecord,
  RateLimitedError,
  type RegistrarClient,
  RegistrarError,
} from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Logger } from '../../shared/logger.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Origin } from '../follow/jobs.js';
import type { RecordChange } from '../records/changes.js';
import { refusal, sameRecord, writable } from '../records/make.js';
import { recordValueOf } from '../records/rules.js';
import { outcomeMessage } from './blocks.js';
import { changeSetFollower, changeSetFollowResource } from './follow.js';
import { afterStep, CUTOVER_TTL } from './operation.js';
import { type DnsPaceDeps, NoRoomYet, pacedDns } from './pace.js';
import type { ChangeSetJob, ChangeSetRun, ChangeSets } from './store.js';

export interface ApplyDeps {
  changeSets: ChangeSets;
  /** Paces the set's registrar calls to the DNS API's rate limit per key (pace.ts). */
  limiter: DnsPaceDeps['limiter'];
  limits: DnsPaceDeps['limits'];
  keys: DnsPaceDeps['keys'];
  workspaceKeys: DnsPaceDeps['workspaceKeys'];
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  audit: AuditLog;
  languages: Pick<Languages, 'inWorkspaceLanguage'>;
  /** Follows an applied set until the zone's nameservers serve it (follow.ts), reported in the thread. */
  follow(workspace: WorkspaceRef, kind: string, resource: string, origin: Origin): Promise<void>;
  logger: Logger;
}

/**
 * Whether `step` has already happened on `records` (a worker that died after the write and before
 * saving its progress): an add whose record is there, an edit whose record holds the new value, a
 * delete whose record is gone. Such a step is counted done and not written twice.
 */
export function happened(records: readonly DnsRecord[], step: RecordChange): DnsRecord | boolean {
  if (step.kind === 'add') {
    const found = records.find((record) => {
      const value = recordValueOf(record);
      return value !== undefined && sameRecord(value, step.after);
    });
    return found ?? false;
  }
  const current = records.find((record) => record.id === step.id);
  if (step.kind === 'delete') return current === undefined;
  const value = current === undefined ? undefined : recordValueOf(current);
  return value !== undefined && sameRecord(value, step.after);
}

/** Rate limits, the registrar's 5xx and the network: the job is retried and resumes here. */
const isTransient = (error: unknown) =>
  error instanceof RateLimitedError ||
  error instanceof NoRoomYet ||
  (error instanceof RegistrarError && (error.status === 0 || error.status >= 500));

/** A step as the zone shows its record after a cutover lowered that record's TTL. */
function asLowered(step: RecordChange, lowered: Record<string, number>): RecordChange {
  if (step.kind === 'add' || lowered[String(step.id)] === undefined) return step;
  return { ...step, before: { ...step.before, ttl: CUTOVER_TTL } };
}

/**
 * Applies a change set from where it stands (contract §3 "Change sets", docs/requirements.md R53):
 * the zone is read once, each step is skipped when it already happened, else checked against every
 * rule on the zone as it is and written; progress is saved after every step, so a worker killed
 * mid-way resumes without writing anything twice. The first refusal (a rule, or the registrar's 4xx) stops the set; the thread is told
 * what was done and what was not, with Revert, and the whole is audited.
 */
export async function applyChangeSet(deps: ApplyDeps, workspace: WorkspaceRef, id: string): Promise<void> {
  // A cutover's time has come: it applies unless Cancel got there first.
  const current = await deps.changeSets.get(workspace, id);
  const stored =
    current?.state === 'scheduled'
      ? await deps.changeSets.transition(workspace, id, 'scheduled', 'applying')
      : current;
  if (stored === undefined || stored.state !== 'applying') return;
  const run: ChangeSetRun = { ...stored, created: { ...stored.created } };
  const registrar = await pacedDns(deps, deps.registrarFor(workspace), workspace);
  let records = await registrar.records(run.domain);
  while (run.done < run.steps.length) {
    const step = run.steps[run.done] as RecordChange;
    const already = happened(records, step);
    if (already === false) {
      const refused = refusal(records, {
        domain: run.domain,
        change: asLowered(step, run.lowered),
        by: run.by,
      });
      if (refused !== undefined) {
        await finish(deps, workspace, { ...run, state: 'stopped', reason: refused });
        return;
      }
      try {
        if (step.kind === 'add') {
          const made = await registrar.createRecord(writable(step.after));
          run.created[String(run.done)] = made.id ?? 0;
          records = [...records, { ...step.after, id: made.id ?? 0 }];
        } else {
          if (step.kind === 'edit') await registrar.updateRecord(step.id, writable(step.after));
          else await registrar.deleteRecord(step.id);
          records = afterStep(records, step);
        }
      } catch (error) {
        if (isTransient(error)) {
          await deps.changeSets.save(workspace, run);
          throw error;
        }
        const reason = error instanceof AppError ? error.userMessage : text.changesets.writeFailed;
        await finish(deps, workspace, { ...run, state: 'stopped', reason });
        return;
      }
    } else if (step.kind === 'add' && typeof already === 'object' && already.id !== undefined) {
      run.created[String(run.done)] = already.id;
    }
    run.done += 1;
    await deps.changeSets.save(workspace, run);
  }
  await finish(deps, workspace, { ...run, state: 'applied' });
}

/** The end: saved, audited (what was asked, written and not), told in the request's thread. */
async function finish(deps: ApplyDeps, workspace: WorkspaceRef, run: ChangeSetRun): Promise<void> {
  await deps.changeSets.save(workspace, run);
  await deps.audit.append(workspace, {
    action: 'record_change',
    actor: run.by,
    operation: 'dns.changeset',
    target: run.domain,
    outcome: text.changesets.auditOutcome({ id: run.id, done: run.done, total: run.steps.length }),
    ...(run.reason === undefined ? {} : { detail: run.reason }),
  });
  const { thread } = run;
  if (thread === undefined) return;
  const client = await deps.slackFor(workspace);
  await deps.languages.inWorkspaceLanguage(workspace, async () => {
    const message = outcomeMessage(run);
    await deps.poster.post(client, { channel: thread.channel, thread_ts: thread.ts, ...message });
  });
  // Confirmed on the nameservers as single changes are: what was written, once they serve it.
  if (run.done > 0)
    await deps.follow(workspace, changeSetFollower.kind, changeSetFollowResource(run.domain, run.id), {
      channel: thread.channel,
      threadTs: thread.ts,
      startedBy: run.by,
    });
}

/** The apply job's processor: one change set per job, resumed by BullMQ's retries. */
export function applyProcessor(deps: ApplyDeps): (job: Job<ChangeSetJob>) => Promise<void> {
  return async (job) => applyChangeSet(deps, workspaceFields(job.data), job.data.setId);
}
