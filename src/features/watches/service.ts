import type { Queue } from 'bullmq';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { DAY_MS } from './checks.js';
import { queueCheck, scheduleDigest, scheduleSweep, type WatchJob } from './jobs.js';
import {
  type DigestSettings,
  fieldOf,
  type WatchItem,
  type WatchKind,
  type WatchState,
  type WatchStore,
} from './store.js';

export interface WatchServiceDeps {
  store: WatchStore;
  queue: Queue<WatchJob>;
  intervalMs: number;
  limit: number;
  now: () => number;
  logger: Logger;
  /**
   * What App Home shows of the workspace's watches changed (settings, a look, an alert, a removal):
   * it is re-published, coalesced (features/home/refresh.ts).
   */
  onChange?: (workspace: WorkspaceRef) => void;
}

/** Items claimed per workspace per sweep; the rest wait for the next sweep (30 s later). */
const SWEEP_BATCH = 600;
/** A claimed item whose check job vanished (a crash) is due again after this long. */
const CLAIM_LEASE_MS = 10 * 60_000;
/**
 * How much before its interval is over an item's next look is due: more than the sweep's period
 * (SWEEP_EVERY_MS) and the pace's queue after it, so the interval is kept (bench: watched items).
 */
export const LOOK_EARLY_MS = 60_000;
/** Expiries shown on App Home and looked ahead in the digest. */
export const LOOK_AHEAD_MS = 60 * DAY_MS;

/**
 * Watches one person may have added in a workspace (docs/requirements.md R37; security review item 4).
 * A tenth of the default workspace limit (WATCH_LIMIT, 500): one member cannot use up the workspace's
 * watches (or fill its channels with alerts) alone, while 50 is more than one person's share of a
 * typical account. Admins answer for the workspace and are held only by its limit (adding.ts), so
 * they can watch a whole account.
 */
export const WATCHES_PER_PERSON = 50;

export type AddResult =
  | { ok: true; added: WatchItem[]; already: string[] }
  | { ok: false; over: 'workspace'; total: number; limit: number }
  | { ok: false; over: 'person'; mine: number; cap: number };

export interface WatchedEntry {
  item: WatchItem;
  state: WatchState;
}

/**
 * Watches without Slack: the list, the digest settings and the sweep that queues looks. Reads and
 * alerts happen in the check jobs (sweep.ts), paced per registrar key.
 */
export class WatchService {
  constructor(private readonly deps: WatchServiceDeps) {}

  get limit(): number {
    return this.deps.limit;
  }

  /** How often every item is looked at (WATCH_INTERVAL_MS). */
  get intervalMs(): number {
    return this.deps.intervalMs;
  }

  /**
   * Adds watches: all or none, within the workspace's limit and the adder's cap (`perPerson`:
   * undefined for an admin, said explicitly; left out, the cap holds). Each new one is looked at at once.
   * `viaRdap`: the domains among `ids` the registrar does not hold, watched through RDAP.
   */
  async add(
    workspace: WorkspaceRef,
    kind: WatchKind,
    ids: readonly string[],
    where: { channel: string; user: string },
    { perPerson, viaRdap }: { perPerson: number | undefined; viaRdap?: ReadonlySet<string> } = {
      perPerson: WATCHES_PER_PERSON,
    },
  ): Promise<AddResult> {
    const now = this.deps.now();
    const unique = [...new Set(ids)];
    const items = unique.map(
      (id): WatchItem => ({
        kind,
        id,
        channel: where.channel,
        addedBy: where.user,
        addedAt: now,
        ...(viaRdap?.has(id) === true ? { via: 'rdap' as const } : {}),
      }),
    );
    const limits = { workspace: this.deps.limit, perPerson, adder: where.user };
    const result = await this.deps.store.add(workspace, items, limits, now);
    if (!result.ok) {
      return result.over === 'workspace' || perPerson === undefined
        ? { ok: false, over: 'workspace', total: result.total, limit: this.deps.limit }
        : { ok: false, over: 'person', mine: result.mine, cap: perPerson };
    }
    for (const item of result.added) await queueCheck(this.deps.queue, workspace, item.kind, item.id);
    const added = new Set(result.added.map((item) => item.id));
    return { ok: true, added: result.added, already: unique.filter((id) => !added.has(id)) };
  }

  /**
   * Stops watching `ids`. With `onlyBy` (the policy lets only adders and admins remove, and the
   * remover is no admin), only that person's own watches go; the others come back as `refused`.
   */
  async remove(
    workspace: WorkspaceRef,
    kind: WatchKind,
    ids: readonly string[],
    onlyBy?: string,
  ): Promise<{ removed: WatchItem[]; refused: WatchItem[] }> {
    const result = await this.deps.store.remove(workspace, kind, ids, onlyBy);
    if (result.removed.length > 0) this.changed(workspace);
    return result;
  }

  /** Tells App Home that what it shows of `workspace` changed (best-effort, returns at once). */
  changed(workspace: WorkspaceRef): void {
    this.deps.onChange?.(workspace);
  }

  /** Every watch with what its last look saw, soonest expiry first (unknown expiries last). */
  async list(workspace: WorkspaceRef): Promise<WatchedEntry[]> {
    const [items, states] = await Promise.all([
      this.deps.store.items(workspace),
      this.deps.store.states(workspace),
    ]);
    return items
      .map((item) => ({ item, state: states.get(fieldOf(item.kind, item.id)) ?? { failures: 0 } }))
      .sort(
        (a, b) =>
          (a.state.expiresAt ?? Number.POSITIVE_INFINITY) - (b.state.expiresAt ?? Number.POSITIVE_INFINITY) ||
          a.item.id.localeCompare(b.item.id),
      );
  }

  /** What expires within the look-ahead, soonest first (App Home's "Coming up", the digest). */
  async comingUp(workspace: WorkspaceRef): Promise<WatchedEntry[]> {
    const horizon = this.deps.now() + LOOK_AHEAD_MS;
    return (await this.list(workspace)).filter(
      (entry) => entry.state.expiresAt !== undefined && entry.state.expiresAt <= horizon,
    );
  }

  settings(workspace: WorkspaceRef): Promise<DigestSettings | undefined> {
    return this.deps.store.settings(workspace);
  }

  /** Saves the digest settings and moves (or removes) the workspace's one digest scheduler. */
  async saveSettings(workspace: WorkspaceRef, settings: DigestSettings): Promise<void> {
    await this.deps.store.saveSettings(workspace, settings);
    await scheduleDigest(this.deps.queue, workspace, settings);
    this.changed(workspace);
  }

  /**
   * Queues a check for every item due by now, in every workspace. Claimed items are pushed a lease
   * ahead, so a second sweep (another worker, a retry) does not queue them again; the check job
   * sets the real next look when it is done.
   */
  async sweep(): Promise<number> {
    const now = this.deps.now();
    let queued = 0;
    for (const workspace of await this.deps.store.workspaces()) {
      const fields = await this.deps.store.claimDue(workspace, now, SWEEP_BATCH, now + CLAIM_LEASE_MS);
      for (const field of fields) {
        const [kind, ...rest] = field.split(':');
        if (kind !== 'domain' && kind !== 'certificate') continue;
        await queueCheck(this.deps.queue, workspace, kind, rest.join(':'));
        queued++;
      }
    }
    if (queued > 0) this.deps.logger.debug({ queued }, 'watch sweep queued checks');
    return queued;
  }

  /**
   * The next look: a little before the interval is over, spread by up to 10 % so items added together
   * drift apart, and early enough (LOOK_EARLY_MS) that the sweep's own period cannot make it late.
   */
  nextLookAt(now: number): number {
    const { intervalMs } = this.deps;
    return now + Math.max(30_000, intervalMs - LOOK_EARLY_MS - Math.floor(Math.random() * intervalMs * 0.1));
  }

  /**
   * The recurring schedules, upserted under their fixed ids (a no-op when they exist): the one sweep
   * and each workspace's digest. Run at every worker start and after Regdesk's data was lost or rolled
   * back (docs/requirements.md R39), when BullMQ's schedulers may be gone or out of date.
   */
  async restoreSchedules(): Promise<void> {
    await scheduleSweep(this.deps.queue);
    for (const workspace of await this.deps.store.workspaces()) {
      const settings = await this.deps.store.settings(workspace);
      if (settings !== undefined) await scheduleDigest(this.deps.queue, workspace, settings);
    }
  }

  /** Uninstall: the digest scheduler and every watch of the workspace. */
  async forget(workspace: WorkspaceRef): Promise<void> {
    await scheduleDigest(this.deps.queue, workspace, undefined);
    await this.deps.store.forget(workspace);
  }
}
