import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export interface HomeRefreshDeps {
  redis: Redis;
  keys: KeySpace;
  /** Re-publishes the workspace's Home for its recent viewers (HomeService.republish). */
  publish(workspace: WorkspaceRef): Promise<void>;
  logger: Logger;
  /** At most one publish per workspace in this long, across processes. */
  windowMs?: number;
}

/**
 * One re-publish per workspace per 20 s: a sweep that raises 500 alerts re-publishes a few times,
 * not 500, and with up to 50 viewers each that stays near views.publish's Tier 4 (100+ a minute).
 */
export const HOME_REFRESH_WINDOW_MS = 20_000;

/**
 * Coalesces "the Home of this workspace is stale" (watch alerts, looks, settings) into few publishes:
 * the first request publishes at once, requests within the window after it publish once when the
 * window ends, so the last change is always shown. The window is a Redis key (`SET NX PX`), shared by
 * every process; a process that finds it taken tries again when it lapses.
 */
export class HomeRefresh {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #windowMs: number;

  constructor(private readonly deps: HomeRefreshDeps) {
    this.#windowMs = deps.windowMs ?? HOME_REFRESH_WINDOW_MS;
  }

  /** Asks for a re-publish; returns at once (best-effort, failures are logged). */
  request(workspace: WorkspaceRef): void {
    const id = workspaceId(workspace);
    if (this.#timers.has(id)) return;
    this.#schedule(id, workspace, 0);
  }

  #schedule(id: string, workspace: WorkspaceRef, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#attempt(id, workspace).catch((error: unknown) => {
        this.#timers.delete(id);
        this.deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'home refresh failed',
        );
      });
    }, delayMs);
    timer.unref();
    this.#timers.set(id, timer);
  }

  async #attempt(id: string, workspace: WorkspaceRef): Promise<void> {
    const { redis, keys } = this.deps;
    const gate = keys.key(`ws:${id}`, 'home', 'refreshed');
    if ((await redis.set(gate, '1', 'PX', this.#windowMs, 'NX')) !== 'OK') {
      // Published within the window (here or elsewhere): once more when it lapses.
      const left = await redis.pttl(gate);
      this.#schedule(id, workspace, Math.max(50, left));
      return;
    }
    // Requests from now on are after this publish's read: they wait for the window, then publish.
    this.#timers.delete(id);
    await this.deps.publish(workspace);
  }

  /** Stops pending refreshes (shutdown). */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
