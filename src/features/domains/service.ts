import { randomBytes } from 'node:crypto';
import type { LimitWindow } from '../../config.js';
import { type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import { type ParsedName, splitNames } from '../../shared/domain-names.js';
import { type Limiter, type QuotaWindow, withLatencyMargin } from '../../shared/limiter.js';
import { releaseOwn } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { WorkspaceKeys } from '../keys/service.js';

/** Names per `/domain check`; more are counted as overflow and not checked. */
export const MAX_NAMES = 50;
/** A check still waiting for quota after this long is reported as "could not check". */
const MAX_QUOTA_WAIT_MS = 120_000;
/** Checks in flight per command; the shared quota, not this, sets the pace. */
const PARALLEL = 4;
/**
 * Per person (docs/requirements.md R34): one check at a time, and at most this many names a minute,
 * so one person cannot queue up the whole key's availability quota ahead of everybody else. One
 * check still runs at the key's full pace; a second person's check shares the window with it.
 */
export const USER_NAMES_PER_MINUTE = 150;
/** A check lock outlives the longest check (every name waiting its full time) only by a margin. */
const CHECK_LOCK_MS = MAX_QUOTA_WAIT_MS + 60_000;

/** A person's share is used up: said to them, nothing is checked. */
export class CheckCapError extends AppError {
  constructor(message: string | (() => string)) {
    super('regdesk_check_cap', message);
  }
}

export type CheckState =
  | { kind: 'waiting' }
  | { kind: 'available' }
  | { kind: 'taken'; status: string }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unknown'; reason: string };

export interface CheckRow {
  name: ParsedName;
  state: CheckState;
}

export interface CheckPlan {
  rows: CheckRow[];
  overflow: number;
}

/**
 * The names of one check, validated locally against the Public Suffix List and merged when they
 * normalise alike. Invalid names are settled here, so they never spend quota; valid ones wait.
 */
export function planCheck(input: string): CheckPlan {
  const { names, overflow } = splitNames(input, MAX_NAMES);
  const rows = names.map(
    (name): CheckRow => ({
      name,
      state: name.ok ? { kind: 'waiting' } : { kind: 'invalid', reason: name.reason },
    }),
  );
  return { rows, overflow };
}

export interface AvailabilityDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  redis: Redis;
  workspaceKeys: Pick<WorkspaceKeys, 'keyHashFor'>;
  limiter: Limiter;
  keys: KeySpace;
  /** The registrar's availability limit per API key (docs/registrar-api.md §8). */
  limit: LimitWindow;
}

/** Checks for one workspace, bound to its registrar client and its key's quota window. */
export interface WorkspaceAvailability {
  /**
   * Checks every waiting row, updating it in place as its answer arrives so the caller can show
   * progress from the same rows; `onProgress` is told how many have been answered so far.
   */
  check(rows: readonly CheckRow[], onProgress?: (done: number) => void): Promise<void>;
}

/**
 * `/domain check` without Slack: every call is scheduled against the per-key availability window
 * shared by all processes (docs/requirements.md R14), so Regdesk itself never causes a 429, and an
 * answer that is not one (502, timeout, limit) is "could not check", never "taken"
 * (docs/registrar-api.md §4.5).
 */
export class AvailabilityService {
  constructor(private readonly deps: AvailabilityDeps) {}

  /**
   * Fails (no key, unreadable key, store down, the person's share used up) before any quota is spent
   * or any name is asked. `release` must be called when the check is over.
   */
  async forWorkspace(
    workspace: WorkspaceRef,
    user: string,
    names: number,
  ): Promise<WorkspaceAvailability & { release(): Promise<void> }> {
    const { deps } = this;
    // The quota is per API key (docs/registrar-api.md §8); the key is known here only by a hash.
    const tag = `key:${await deps.workspaceKeys.keyHashFor(workspace)}`;
    const release = await this.#reserve(tag, user, names);
    const window: QuotaWindow = {
      key: deps.keys.key(tag, 'quota', 'availability'),
      max: deps.limit.max,
      windowMs: withLatencyMargin(deps.limit.windowMs),
    };
    const registrar = deps.registrarFor(workspace);

    const checkOne = async (row: CheckRow, name: ParsedName & { ok: true }): Promise<void> => {
      const slot = await deps.limiter.slotWithin([window], MAX_QUOTA_WAIT_MS);
      if (slot === undefined) {
        row.state = { kind: 'unknown', reason: text.domains.checkLimitReached };
        return;
      }
      try {
        const result = await registrar.domains.checkAvailability(name.ascii);
        row.state = result.available ? { kind: 'available' } : { kind: 'taken', status: result.status ?? '' };
      } catch (error) {
        row.state =
          statusOf(error) === 400
            ? { kind: 'invalid', reason: text.domains.checkNameRefused }
            : { kind: 'unknown', reason: unknownReason(statusOf(error)) };
      } finally {
        // The registrar counted the call before it answered: the window runs from here (limiter.ts).
        await slot.settle();
      }
    };

    return {
      release,
      check: async (rows, onProgress) => {
        const queue = rows.filter((row) => row.state.kind === 'waiting');
        let done = 0;
        await Promise.all(
          Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
            for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
              if (row.name.ok) await checkOne(row, row.name);
              onProgress?.(++done);
            }
          }),
        );
      },
    };
  }

  /** Takes the person's check lock and counts their names in this minute, or says why not. */
  async #reserve(tag: string, user: string, names: number): Promise<() => Promise<void>> {
    const { redis, keys } = this.deps;
    const lock = keys.key(tag, 'check-running', user);
    const token = randomBytes(8).toString('hex');
    if ((await redis.set(lock, token, 'PX', CHECK_LOCK_MS, 'NX')) === null) {
      throw new CheckCapError(() => text.domains.checkAlreadyRunning);
    }
    const release = async () => {
      // Only our own lock: a check that overran its lock must not free a newer one.
      await releaseOwn(redis, lock, token);
    };
    const counter = keys.key(tag, 'check-names', user, String(Math.floor(Date.now() / 60_000)));
    const [[, counted] = [null, 0]] =
      (await redis.multi().incrby(counter, names).pexpire(counter, 120_000).exec()) ?? [];
    if (Number(counted) > USER_NAMES_PER_MINUTE) {
      await redis.decrby(counter, names);
      await release();
      throw new CheckCapError(() => text.domains.checkShareUsed({ max: USER_NAMES_PER_MINUTE }));
    }
    return release;
  }
}

/** The HTTP status of a registrar failure; 0 when there was no answer (timeout, network). */
function statusOf(error: unknown): number {
  return error instanceof RegistrarError ? error.status : 0;
}

function unknownReason(status: number): string {
  if (status === 502) return text.domains.checkRegistryUnreachable;
  if (status === 429) return text.domains.checkRegistrarLimit;
  if (status === 0) return text.domains.checkNoAnswer;
  return text.domains.checkRegistrarError({ status });
}
