import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import { ADD, REMOVE } from './store-scripts.js';
import { DigestSettings, WatchAll, WatchChange, WatchItem, type WatchKind, WatchState } from './stored.js';

export {
  CADENCES,
  DigestSettings,
  RenewalSeen,
  WatchAll,
  WatchChange,
  WatchItem,
  WatchKind,
  WatchState,
} from './stored.js';

/** Changes kept per workspace for the digest (newest first). */
const MAX_CHANGES = 200;
/** An alert mark outlives any threshold it records (the longest is 60 days before an expiry). */
const ALERT_MARK_TTL_S = 400 * 86_400;

export type StoreAddResult =
  | { ok: true; added: WatchItem[]; mine: number }
  | { ok: false; over: 'workspace' | 'person'; total: number; mine: number };

export const fieldOf = (kind: WatchKind, id: string) => `${kind}:${id}`;

/**
 * The watch list and what was last seen, in Redis under the workspace's hash tag (docs/requirements.md
 * R23): an uninstall's purge of `{ws:…}` removes all of it. The due set orders items by their next
 * look; a global set names the workspaces that have watches, for the sweep.
 */
export class WatchStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, ...parts: string[]): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'watch', ...parts);
  }

  get #workspaces(): string {
    return this.keys.key('watch', 'workspaces');
  }

  /**
   * Adds `items` (all added by `limits.adder`) within the workspace's limit and, unless it is
   * undefined, `limits.perPerson`: how many watches one person may have added.
   */
  async add(
    workspace: WorkspaceRef,
    items: readonly WatchItem[],
    limits: { workspace: number; perPerson: number | undefined; adder: string },
    dueAt: number,
  ): Promise<StoreAddResult> {
    const before = new Set(await this.redis.hkeys(this.#key(workspace, 'items')));
    const pairs = items.flatMap((item) => [fieldOf(item.kind, item.id), JSON.stringify(item)]);
    const [added, total, mine] = (await ADD.run(
      this.redis,
      2,
      this.#key(workspace, 'items'),
      this.#key(workspace, 'due'),
      String(limits.workspace),
      String(dueAt),
      String(limits.perPerson ?? -1),
      limits.adder,
      ...pairs,
    )) as [number, number, number];
    if (added < 0) return { ok: false, over: added === -1 ? 'workspace' : 'person', total, mine };
    if (added > 0) await this.redis.sadd(this.#workspaces, JSON.stringify(workspaceFields(workspace)));
    return {
      ok: true,
      added: items.filter((item) => !before.has(fieldOf(item.kind, item.id))),
      mine,
    };
  }

  /**
   * Removes watches with their state. With `onlyBy`, only the ones that person added; the others
   * come back as `refused`. Ids that were not watched are in neither list.
   */
  async remove(
    workspace: WorkspaceRef,
    kind: WatchKind,
    ids: readonly string[],
    onlyBy?: string,
  ): Promise<{ removed: WatchItem[]; refused: WatchItem[] }> {
    if (ids.length === 0) return { removed: [], refused: [] };
    const [removed, refused] = (await REMOVE.run(
      this.redis,
      3,
      this.#key(workspace, 'items'),
      this.#key(workspace, 'state'),
      this.#key(workspace, 'due'),
      onlyBy ?? '',
      ...ids.map((id) => fieldOf(kind, id)),
    )) as [string[], string[]];
    return {
      removed: removed.flatMap((json) => parsed(WatchItem, json)),
      refused: refused.flatMap((json) => parsed(WatchItem, json)),
    };
  }

  async items(workspace: WorkspaceRef): Promise<WatchItem[]> {
    const raw = await this.redis.hvals(this.#key(workspace, 'items'));
    return raw.flatMap((json) => parsed(WatchItem, json));
  }

  async item(workspace: WorkspaceRef, kind: WatchKind, id: string): Promise<WatchItem | undefined> {
    const raw = await this.redis.hget(this.#key(workspace, 'items'), fieldOf(kind, id));
    return raw === null ? undefined : parsed(WatchItem, raw)[0];
  }

  async count(workspace: WorkspaceRef): Promise<number> {
    return this.redis.hlen(this.#key(workspace, 'items'));
  }

  async states(workspace: WorkspaceRef): Promise<Map<string, WatchState>> {
    const raw = await this.redis.hgetall(this.#key(workspace, 'state'));
    const states = new Map<string, WatchState>();
    for (const [field, json] of Object.entries(raw)) {
      const [state] = parsed(WatchState, json);
      if (state !== undefined) states.set(field, state);
    }
    return states;
  }

  async state(workspace: WorkspaceRef, kind: WatchKind, id: string): Promise<WatchState> {
    const raw = await this.redis.hget(this.#key(workspace, 'state'), fieldOf(kind, id));
    return (raw === null ? undefined : parsed(WatchState, raw)[0]) ?? { failures: 0 };
  }

  /** Saves what a look saw, only while the item is still watched (a removal during a look wins). */
  async saveState(workspace: WorkspaceRef, kind: WatchKind, id: string, state: WatchState): Promise<void> {
    const field = fieldOf(kind, id);
    if (!(await this.redis.hexists(this.#key(workspace, 'items'), field))) return;
    await this.redis.hset(this.#key(workspace, 'state'), field, JSON.stringify(state));
  }

  /** Items due by `now` (at most `max`), each pushed to `leaseUntil` so the next sweep skips it. */
  async claimDue(workspace: WorkspaceRef, now: number, max: number, leaseUntil: number): Promise<string[]> {
    const due = this.#key(workspace, 'due');
    const fields = await this.redis.zrangebyscore(due, '-inf', now, 'LIMIT', 0, max);
    // XX: an item removed meanwhile is not brought back.
    if (fields.length > 0) await this.redis.zadd(due, 'XX', ...fields.flatMap((f) => [leaseUntil, f]));
    return fields;
  }

  async setDue(workspace: WorkspaceRef, kind: WatchKind, id: string, at: number): Promise<void> {
    await this.redis.zadd(this.#key(workspace, 'due'), 'XX', at, fieldOf(kind, id));
  }

  async workspaces(): Promise<WorkspaceRef[]> {
    const raw = await this.redis.smembers(this.#workspaces);
    return raw.flatMap((json) => parsed(WorkspaceShape, json));
  }

  /**
   * Marks an alert as raised; false when it was already (by this or any process, before or after a
   * restart). The mark is the once-per-threshold guarantee.
   */
  async markAlert(workspace: WorkspaceRef, mark: string): Promise<boolean> {
    const digest = createHash('sha256').update(mark).digest('hex').slice(0, 32);
    return (
      (await this.redis.set(this.#key(workspace, 'alert', digest), '1', 'EX', ALERT_MARK_TTL_S, 'NX')) ===
      'OK'
    );
  }

  /** Undoes a mark whose alert could not be delivered, so the next look raises it again. */
  async unmarkAlert(workspace: WorkspaceRef, mark: string): Promise<void> {
    const digest = createHash('sha256').update(mark).digest('hex').slice(0, 32);
    await this.redis.del(this.#key(workspace, 'alert', digest));
  }

  async recordChange(workspace: WorkspaceRef, change: WatchChange): Promise<void> {
    const key = this.#key(workspace, 'changes');
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(change))
      .ltrim(key, 0, MAX_CHANGES - 1)
      .exec();
  }

  async changesSince(workspace: WorkspaceRef, since: number): Promise<WatchChange[]> {
    const raw = await this.redis.lrange(this.#key(workspace, 'changes'), 0, MAX_CHANGES - 1);
    return raw.flatMap((json) => parsed(WatchChange, json)).filter((change) => change.at > since);
  }

  async settings(workspace: WorkspaceRef): Promise<DigestSettings | undefined> {
    const raw = await this.redis.get(this.#key(workspace, 'settings'));
    return raw === null ? undefined : parsed(DigestSettings, raw)[0];
  }

  async saveSettings(workspace: WorkspaceRef, settings: DigestSettings): Promise<void> {
    await this.redis.set(this.#key(workspace, 'settings'), JSON.stringify(settings));
  }

  /** When the last digest was posted (its "what changed" starts there). */
  async lastDigest(workspace: WorkspaceRef): Promise<number | undefined> {
    const raw = await this.redis.get(this.#key(workspace, 'last-digest'));
    return raw === null ? undefined : Number(raw);
  }

  async setLastDigest(workspace: WorkspaceRef, at: number): Promise<void> {
    await this.redis.set(this.#key(workspace, 'last-digest'), String(at));
  }

  /** `/domain watch all` (discover.ts): where new items' alerts go, who asked, when last listed. */
  async watchAll(workspace: WorkspaceRef): Promise<WatchAll | undefined> {
    const raw = await this.redis.get(this.#key(workspace, 'all'));
    return raw === null ? undefined : parsed(WatchAll, raw)[0];
  }

  async saveWatchAll(workspace: WorkspaceRef, all: WatchAll): Promise<void> {
    await this.redis.set(this.#key(workspace, 'all'), JSON.stringify(all));
    await this.redis.sadd(this.#workspaces, JSON.stringify(workspaceFields(workspace)));
  }

  /** Certificates found by listing that Regdesk did not order: the digest names them. */
  async markForeign(workspace: WorkspaceRef, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.sadd(this.#key(workspace, 'foreign'), ...ids);
  }

  async foreign(workspace: WorkspaceRef): Promise<Set<string>> {
    return new Set(await this.redis.smembers(this.#key(workspace, 'foreign')));
  }

  /** Forgets the workspace in the sweep's list (its own keys go with the uninstall's purge). */
  async forget(workspace: WorkspaceRef): Promise<void> {
    await this.redis.srem(this.#workspaces, JSON.stringify(workspaceFields(workspace)));
    await this.redis.del(
      ...['items', 'state', 'due', 'settings', 'changes', 'last-digest', 'all', 'foreign'].map((part) =>
        this.#key(workspace, part),
      ),
    );
  }
}

const WorkspaceShape = z.lazy(() => z.object({ teamId: z.string(), enterpriseId: z.string().optional() }));

function parsed<T>(schema: z.ZodType<T>, json: string): T[] {
  try {
    const result = schema.safeParse(JSON.parse(json));
    return result.success ? [result.data] : [];
  } catch {
    return [];
  }
}
