import type { Job } from 'bullmq';
import { NotFoundError, type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { Metrics } from '../../shared/metrics.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { registrarFacts } from '../diagnostics/service.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { FAILURES_BEFORE_REPORT, itemName } from './blocks.js';
import { type Look, lookAtCertificate, lookAtDomain } from './checks.js';
import { type CtLookDeps, ctLook } from './ct-look.js';
import { sendDigest } from './digest.js';
import { discoverDue } from './discover.js';
import { type DnsLookDeps, dnsLook } from './dns-look.js';
import type { WatchJob } from './jobs.js';
import { flushAlerts, type OutboxDeps, raise } from './outbox.js';
import { type PaceDeps, PaceExceeded, watchPace } from './pace.js';
import { type RdapLookDeps, rdapLook } from './rdap-look.js';
import { findRenewal } from './renewal.js';
import { type ServedLookDeps, servedLook } from './served-look.js';
import type { WatchItem } from './store.js';

export interface SweepDeps
  extends OutboxDeps,
    PaceDeps,
    DnsLookDeps,
    RdapLookDeps,
    ServedLookDeps,
    CtLookDeps {
  metrics: Pick<Metrics, 'watchLooks' | 'watchAlerts' | 'watchSweptAt'>;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  /** Certificate orders Regdesk placed: a renewal holds back an expiry alert (renewal.ts). */
  renewals: Pick<RenewalLedger, 'ordersFor' | 'ordersUnder'>;
  languages: Pick<Languages, 'inWorkspaceLanguage'>;
  now: () => number;
}

/** After a failed look, the next one comes sooner than the interval (at most this long after). */
const RETRY_AFTER_FAILURE_MS = 15 * 60_000;

/** The watch queue's one processor: the sweep, an item's look, a batch of alerts, or a digest. */
export function watchProcessor(deps: SweepDeps) {
  return async (job: Job<WatchJob>, token?: string): Promise<void> => {
    const data = job.data;
    if (data.type === 'sweep') {
      await deps.service.sweep();
      await discoverDue(deps);
      // A sweep that stops finishing means watches stop being looked at: /metrics says when (an alert).
      deps.metrics.watchSweptAt.set(deps.now() / 1000);
      return;
    }
    const workspace = workspaceFields(data);
    // Alerts and digests are for the watch's channel: the workspace's language (contract §3).
    await deps.languages.inWorkspaceLanguage(workspace, async () => {
      if (data.type === 'alerts') {
        await flushAlerts(deps, job, token);
        return;
      }
      if (data.type === 'digest') {
        await sendDigest({ ...deps, service: deps.service, store: deps.store }, workspace, {
          scheduled: true,
        });
        return;
      }
      const item = await deps.store.item(workspace, data.kind, data.id);
      if (item !== undefined) await lookAt(deps, workspace, item);
    });
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
      deps.metrics.watchLooks.inc({ kind: item.kind, outcome: 'deferred' });
      await deps.store.setDue(workspace, item.kind, item.id, error.until ?? deps.now() + 30_000);
      return;
    }
    deps.metrics.watchLooks.inc({ kind: item.kind, outcome: 'failed' });
    await failed(deps, workspace, item, previous, error);
    return;
  }
  deps.metrics.watchLooks.inc({ kind: item.kind, outcome: 'ok' });
  const state = await stageOnce(deps, workspace, item, previous, look);
  for (const change of look.changes) await deps.store.recordChange(workspace, change);
  await deps.store.saveState(workspace, item.kind, item.id, state);
  if (homeShowsChange(previous, state)) deps.service.changed(workspace);
  for (const alert of look.alerts) if (alert.once !== true) await raise(deps, workspace, item, alert);
  await deps.store.setDue(workspace, item.kind, item.id, deps.service.nextLookAt(deps.now()));
}

/**
 * Alerts no later look raises again (`Alert.once`: a CT issuance behind the cursor the look moves)
 * go into the outbox before the state that moves past them is saved. If one cannot be staged, the
 * CT search keeps its old cursor, so the next look finds the issuance again; one staged before a
 * crash is found again too, and its mark keeps it to one alert. Returns the state to save.
 */
async function stageOnce(
  deps: SweepDeps,
  workspace: WorkspaceRef,
  item: WatchItem,
  previous: Look['state'],
  look: Look,
): Promise<Look['state']> {
  let staged = true;
  for (const alert of look.alerts)
    if (alert.once === true && !(await raise(deps, workspace, item, alert))) staged = false;
  if (staged) return look.state;
  const { ct: _moved, ...state } = look.state;
  return previous.ct === undefined ? state : { ...state, ct: previous.ct };
}

/** Whether what App Home shows of the item differs (a first look, a new end, a renewal, served, CT). */
function homeShowsChange(before: Look['state'], after: Look['state']): boolean {
  return (
    before.checkedAt === undefined ||
    before.failures > 0 ||
    before.expiresAt !== after.expiresAt ||
    before.status !== after.status ||
    before.renewal?.id !== after.renewal?.id ||
    before.renewal?.status !== after.renewal?.status ||
    // What Home says of served certificates and CT (served-words.ts).
    JSON.stringify(before.served?.names) !== JSON.stringify(after.served?.names) ||
    (before.served?.blindLooks ?? 0) > 0 !== (after.served?.blindLooks ?? 0) > 0 ||
    (before.ct?.unknown?.length ?? 0) !== (after.ct?.unknown?.length ?? 0) ||
    (before.ct?.failures ?? 0) > 0 !== (after.ct?.failures ?? 0) > 0
  );
}

async function read(
  deps: SweepDeps,
  workspace: WorkspaceRef,
  item: WatchItem,
  previous: Look['state'],
): Promise<Look> {
  // Held at another registrar: its registry's RDAP service, not the registrar, is asked.
  if (item.via === 'rdap') return rdapLook(deps, item, previous);
  const paced = await watchPace(deps, workspace);
  const registrar = deps.registrarFor(workspace);
  if (item.kind === 'domain') {
    const domain = await paced(() => registrar.domains.get(item.id));
    const dnssec = await paced(() => registrar.dnssec.get(item.id));
    const look = lookAtDomain(item, previous, domain, dnssec, deps.now());
    const known = registrarFacts(domain, dnssec);
    const live = await dnsLook(deps, { registrar, workspace, paced, known }, item, previous);
    // What Certificate Transparency shows was issued for the zone (ct-look.ts).
    const { ct, alerts } = await ctLook(deps, { registrar, workspace, paced }, item, previous);
    return {
      ...look,
      state: {
        ...look.state,
        ...(live.findings === undefined ? {} : { dnsFindings: live.findings }),
        ...(ct === undefined ? {} : { ct }),
      },
      alerts: [...look.alerts, ...live.alerts, ...alerts],
    };
  }
  const cert = await paced(() => registrar.tls.get(item.id));
  const renewal = await findRenewal(deps.renewals, workspace, cert, deps.now(), (id) =>
    paced(() => registrar.tls.get(id)),
  );
  const look = lookAtCertificate(item, previous, cert, deps.now(), renewal);
  // Which certificate its names serve (served-look.ts).
  const { served, alerts } = await servedLook(
    deps,
    { registrar, workspace, paced },
    item,
    previous,
    cert,
    renewal,
  );
  return {
    ...look,
    state: { ...look.state, ...(served === undefined ? {} : { served }) },
    alerts: [...look.alerts, ...alerts],
  };
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
  const name = `*${escapeMrkdwn(itemName(item))}*`;
  const remove = item.kind === 'domain' ? `/domain watch remove ${item.id}` : `/tls watch remove ${item.id}`;
  if (error instanceof NotFoundError) {
    await raise(deps, workspace, item, {
      mark: `${item.kind}:${item.id}:not-found:${state.failingSince}`,
      level: 'warn',
      text:
        item.kind === 'domain'
          ? text.watches.notFoundDomain({ name, remove })
          : text.watches.notFoundCertificate({ name, remove }),
      buttons: ['show'],
      cause: { kind: 'not-found' },
      line: name,
    });
  } else if (state.failures >= FAILURES_BEFORE_REPORT) {
    const code = error instanceof AppError ? error.code : 'unexpected';
    await raise(deps, workspace, item, {
      mark: `${item.kind}:${item.id}:unreachable:${state.failingSince}`,
      level: 'warn',
      text: text.watches.couldNotCheck({
        name,
        times: state.failures,
        reason: escapeMrkdwn(reason.slice(0, 200)),
      }),
      buttons: ['show'],
      cause: { kind: 'unreachable', code, reason: reason.slice(0, 300) },
      line: name,
    });
  }
  await deps.store.setDue(workspace, item.kind, item.id, retryAt(now, deps.service.intervalMs));
}

/**
 * When a failed item is looked at again: one step on (15 minutes, or the interval when shorter),
 * rounded up to the step's grid, so that items failing for one reason (a refused key, the registrar
 * down) are retried in the same sweep whatever their own due times were, and their "could not check"
 * comes as one message per grid slot their first failures fell in (outbox.ts), not one per item.
 */
export function retryAt(now: number, interval: number): number {
  const step = Math.max(30_000, Math.min(interval, RETRY_AFTER_FAILURE_MS));
  return Math.ceil((now + step) / step) * step;
}
