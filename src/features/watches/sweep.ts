import type { WebClient } from '@slack/web-api';
import type { Job } from 'bullmq';
import { NotFoundError, type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import { type Limiter, type QuotaWindow, withLatencyMargin } from '../../shared/limiter.js';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { alertMessage, FAILURES_BEFORE_REPORT, itemName } from './blocks.js';
import { type Alert, type Look, lookAtCertificate, lookAtDomain } from './checks.js';
import { deliver } from './deliver.js';
import { sendDigest } from './digest.js';
import { type WatchJob, workspaceOfJob } from './jobs.js';
import { findRenewal } from './renewal.js';
import type { WatchService } from './service.js';
import type { WatchItem, WatchStore } from './store.js';

export interface SweepDeps {
  service: WatchService;
  store: WatchStore;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  keyHashFor(workspace: WorkspaceRef): Promise<string>;
  limiter: Limiter;
  keys: KeySpace;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  /** Certificate orders Regdesk placed: a renewal holds back an expiry alert (renewal.ts). */
  renewals: Pick<RenewalLedger, 'ordersFor'>;
  logger: Logger;
  now: () => number;
}

/**
 * Watch reads per registrar key, shared by every process: the spec gives no limit for reads
 * (docs/registrar-api.md §8), so Regdesk sets its own gentle pace. 20 a second spreads a first look
 * at 500 domains (two reads each) over 50 s, inside the minute a new watch is promised, and never
 * sends a burst; the sweep's looks at the interval are spread further by their jitter.
 */
export const WATCH_READS = { max: 20, windowMs: 1_000 } as const;
/** A read waiting longer than this for the pace hands its item back to the next sweep. */
const MAX_PACE_WAIT_MS = 20_000;
/** After a failed look, the next one comes sooner than the interval (but at most this soon). */
const RETRY_AFTER_FAILURE_MS = 15 * 60_000;

class PaceExceeded extends Error {}

/** The watch queue's one processor: the sweep, an item's look, or a digest. */
export function watchProcessor(deps: SweepDeps) {
  return async (job: Job<WatchJob>): Promise<void> => {
    const data = job.data;
    if (data.type === 'sweep') {
      await deps.service.sweep();
      return;
    }
    const workspace = workspaceOfJob(data);
    if (data.type === 'digest') {
      await sendDigest({ ...deps, service: deps.service, store: deps.store }, workspace, { scheduled: true });
      return;
    }
    const item = await deps.store.item(workspace, data.kind, data.id);
    if (item === undefined) return;
    await lookAt(deps, workspace, item);
  };
}

/** One look at one item: read (paced), compare with the last look, raise what is due, once. */
export async function lookAt(deps: SweepDeps, workspace: WorkspaceRef, item: WatchItem): Promise<void> {
  const previous = await deps.store.state(workspace, item.kind, item.id);
  let look: Look;
  try {
    look = await read(deps, workspace, item, previous);
  } catch (error) {
    if (error instanceof PaceExceeded) {
      await deps.store.setDue(workspace, item.kind, item.id, deps.now() + 30_000);
      return;
    }
    await failed(deps, workspace, item, previous, error);
    return;
  }
  for (const change of look.changes) await deps.store.recordChange(workspace, change);
  await deps.store.saveState(workspace, item.kind, item.id, look.state);
  if (homeShowsChange(previous, look.state)) deps.service.changed(workspace);
  for (const alert of look.alerts) await raise(deps, workspace, item, alert);
  await deps.store.setDue(workspace, item.kind, item.id, deps.service.nextLookAt(deps.now()));
}

/** Whether App Home's "Coming up" line of the item differs (a first look, a new end, a renewal). */
function homeShowsChange(before: Look['state'], after: Look['state']): boolean {
  return (
    before.checkedAt === undefined ||
    before.failures > 0 ||
    before.expiresAt !== after.expiresAt ||
    before.status !== after.status ||
    before.renewal?.id !== after.renewal?.id ||
    before.renewal?.status !== after.renewal?.status
  );
}

async function read(
  deps: SweepDeps,
  workspace: WorkspaceRef,
  item: WatchItem,
  previous: Look['state'],
): Promise<Look> {
  const window: QuotaWindow = {
    key: deps.keys.key(`key:${await deps.keyHashFor(workspace)}`, 'quota', 'watch-reads'),
    max: WATCH_READS.max,
    // Widened like every window (limiter.ts): latency must not push two seconds' reads into one.
    windowMs: withLatencyMargin(WATCH_READS.windowMs),
  };
  const paced = async <T>(call: () => Promise<T>): Promise<T> => {
    if (!(await deps.limiter.acquireWithin([window], MAX_PACE_WAIT_MS))) throw new PaceExceeded();
    return call();
  };
  const registrar = deps.registrarFor(workspace);
  if (item.kind === 'domain') {
    const domain = await paced(() => registrar.domains.get(item.id));
    const dnssec = await paced(() => registrar.dnssec.get(item.id));
    return lookAtDomain(item, previous, domain, dnssec, deps.now());
  }
  const cert = await paced(() => registrar.tls.get(item.id));
  const renewal = await findRenewal(deps.renewals, workspace, cert, deps.now(), (id) =>
    paced(() => registrar.tls.get(id)),
  );
  return lookAtCertificate(item, previous, cert, deps.now(), renewal);
}

/**
 * A failed read raises nothing about the item itself (docs/requirements.md R37): it is counted,
 * and only after FAILURES_BEFORE_REPORT failures in a row is "could not check" said, once per
 * streak. A 404 is an answer, not a failure: the registrar does not know the item (any more).
 */
async function failed(
  deps: SweepDeps,
  workspace: WorkspaceRef,
  item: WatchItem,
  previous: Look['state'],
  error: unknown,
): Promise<void> {
  const now = deps.now();
  const reason =
    error instanceof RegistrarError || error instanceof AppError
      ? error.userMessage
      : error instanceof Error
        ? error.message
        : String(error);
  const state = {
    ...previous,
    failures: previous.failures + 1,
    failingSince: previous.failingSince ?? now,
    lastError: reason.slice(0, 300),
  };
  await deps.store.saveState(workspace, item.kind, item.id, state);
  deps.logger.warn({ kind: item.kind, failures: state.failures, err: reason }, 'watch look failed');
  const name = `*${itemName(item)}*`;
  const remove = item.kind === 'domain' ? `/domain watch remove ${item.id}` : `/tls watch remove ${item.id}`;
  if (error instanceof NotFoundError) {
    await raise(deps, workspace, item, {
      mark: `${item.kind}:${item.id}:not-found:${state.failingSince}`,
      level: 'warn',
      text: `:grey_question: The registrar does not know ${name} (404): it may have left the account, or the ${item.kind === 'domain' ? 'name' : 'id'} is wrong. If it is gone for good, stop watching it with \`${remove}\`.`,
      buttons: ['show'],
    });
  } else if (state.failures >= FAILURES_BEFORE_REPORT) {
    await raise(deps, workspace, item, {
      mark: `${item.kind}:${item.id}:unreachable:${state.failingSince}`,
      level: 'warn',
      text: `:warning: Regdesk could not check ${name} ${state.failures} times in a row (last: ${escapeMrkdwn(reason.slice(0, 200))}). Nothing is known to be wrong with it; Regdesk keeps trying and says here when something is due.`,
      buttons: ['show'],
    });
  }
  const interval = deps.service.nextLookAt(now) - now;
  await deps.store.setDue(workspace, item.kind, item.id, now + Math.min(interval, RETRY_AFTER_FAILURE_MS));
}

/**
 * Raises an alert once: the mark is set first (SET NX, shared by every process and kept across
 * restarts), and taken back when the message could not be delivered at all, so the next look tries again.
 */
async function raise(deps: SweepDeps, workspace: WorkspaceRef, item: WatchItem, alert: Alert): Promise<void> {
  if (!(await deps.store.markAlert(workspace, alert.mark))) return;
  try {
    const settings = await deps.store.settings(workspace);
    const channel = settings?.channel ?? item.channel;
    const where = await deliver(
      deps,
      await deps.slackFor(workspace),
      channel,
      item.addedBy,
      alertMessage(alert, item),
    );
    if (where === 'nowhere') await deps.store.unmarkAlert(workspace, alert.mark);
    else deps.service.changed(workspace);
  } catch (error) {
    await deps.store.unmarkAlert(workspace, alert.mark);
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'watch alert not delivered; raised again at the next look',
    );
  }
}
