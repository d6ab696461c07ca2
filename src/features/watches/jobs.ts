import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { defaultRepeatStrategy } from '../../shared/bullmq.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import type { DigestSettings, WatchKind } from './store.js';

export const WATCH_QUEUE = 'watch';

/** Job data: ids only, never a key or a Slack token (docs/requirements.md R18). */
export type WatchJob =
  | { type: 'sweep' }
  | { type: 'check'; teamId: string; enterpriseId?: string; kind: WatchKind; id: string }
  | { type: 'digest'; teamId: string; enterpriseId?: string }
  /** Posts one batch of gathered alerts (outbox.ts): `batch` names channel and cause (a hash). */
  | { type: 'alerts'; teamId: string; enterpriseId?: string; batch: string; gen: number };

/**
 * The sweep hands due items to check jobs this often. With it, and a new item's own check job, an
 * item is looked at within a minute of being added and at most this much later than it is due.
 */
export const SWEEP_EVERY_MS = 30_000;
const SWEEP_SCHEDULER = 'watch-sweep';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/**
 * One check job per item at a time, whoever asks (the sweep of any worker, an add): the id is derived
 * from the item, so BullMQ keeps one (docs/requirements.md R16). Removed when done or failed so the
 * next look can be queued under the same id.
 */
export async function queueCheck(
  queue: Queue<WatchJob>,
  workspace: WorkspaceRef,
  kind: WatchKind,
  id: string,
): Promise<void> {
  await queue.add(
    'check',
    { type: 'check', ...workspaceFields(workspace), kind, id },
    {
      jobId: `watch-check-${digest(`${workspaceId(workspace)}|${kind}|${id}`)}`,
      removeOnComplete: true,
      removeOnFail: true,
      attempts: 1,
    },
  );
}

/**
 * The flush of one batch of alerts, under an id derived from the batch and its generation: every
 * alert that joins the batch asks for it, BullMQ keeps one. It first runs `delayMs` later and moves
 * itself back to delayed while alerts still join. A failed take is retried (taking is atomic).
 */
export async function queueAlertFlush(
  queue: Queue<WatchJob>,
  workspace: WorkspaceRef,
  batch: string,
  gen: number,
  delayMs: number,
): Promise<void> {
  await queue.add(
    'alerts',
    { type: 'alerts', ...workspaceFields(workspace), batch, gen },
    {
      jobId: `watch-alerts-${digest(`${workspaceId(workspace)}|${batch}|${gen}`)}`,
      delay: delayMs,
      removeOnComplete: true,
      removeOnFail: 50,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
    },
  );
}

/**
 * The one sweep of all processes: a Job Scheduler upserted by every worker at start under a fixed
 * id, so restarts and more workers replace it rather than add a second one.
 */
export async function scheduleSweep(queue: Queue<WatchJob>): Promise<void> {
  await queue.upsertJobScheduler(
    SWEEP_SCHEDULER,
    { every: SWEEP_EVERY_MS },
    { name: 'sweep', data: { type: 'sweep' }, opts: { removeOnComplete: true, removeOnFail: 50 } },
  );
}

export const digestSchedulerId = (workspace: WorkspaceRef) =>
  `watch-digest-${digest(workspaceId(workspace))}`;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The cron pattern of a digest: minute 0 of the chosen hour, every day or on one weekday. */
export function digestPattern(settings: DigestSettings): string | undefined {
  if (settings.cadence === 'off') return undefined;
  const day = settings.cadence === 'daily' ? '*' : String(WEEKDAYS.indexOf(settings.cadence));
  return `0 ${settings.hour} * * ${day}`;
}

/** When the digest runs next after `from`, as BullMQ itself computes it (cron in the time zone). */
export function nextDigestAt(settings: DigestSettings, from: number): number | undefined {
  const pattern = digestPattern(settings);
  if (pattern === undefined || settings.channel === undefined) return undefined;
  return defaultRepeatStrategy(from, { pattern, tz: settings.timeZone }) ?? undefined;
}

/**
 * One digest scheduler per workspace, under an id derived from it: saving the settings moves it
 * (upsert replaces the pattern and the next run), turning it off or uninstalling removes it. Never a
 * second copy, however many processes save or restart.
 */
export async function scheduleDigest(
  queue: Queue<WatchJob>,
  workspace: WorkspaceRef,
  settings: DigestSettings | undefined,
): Promise<void> {
  const id = digestSchedulerId(workspace);
  const pattern = settings === undefined ? undefined : digestPattern(settings);
  if (settings === undefined || pattern === undefined || settings.channel === undefined) {
    await queue.removeJobScheduler(id);
    return;
  }
  await queue.upsertJobScheduler(
    id,
    { pattern, tz: settings.timeZone },
    {
      name: 'digest',
      data: { type: 'digest', ...workspaceFields(workspace) },
      opts: { removeOnComplete: true, removeOnFail: 50 },
    },
  );
}
