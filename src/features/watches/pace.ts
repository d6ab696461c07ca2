import { AppError } from '../../shared/app-error.js';
import { type Limiter, type QuotaWindow, withLatencyMargin } from '../../shared/limiter.js';
import type { KeySpace } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';

export interface PaceDeps {
  limiter: Limiter;
  keys: KeySpace;
  keyHashFor(workspace: WorkspaceRef): Promise<string>;
}

/**
 * Watch reads per registrar key, shared by every process: the spec gives no limit for reads
 * (docs/registrar-api.md §8), so Regdesk sets its own gentle pace. 20 a second spreads a first look
 * at 500 domains (two reads each) over 50 s, inside the minute a new watch is promised, and never
 * sends a burst; the sweep's looks at the interval are spread further by their jitter. The reads
 * that check a name before it is watched (known.ts) take the same pace.
 */
export const WATCH_READS = { max: 20, windowMs: 1_000 } as const;
/** A read waiting longer than this for the pace gives up (a look hands its item to the next sweep). */
const MAX_PACE_WAIT_MS = 20_000;

/**
 * A look that did not happen for pace, Regdesk's own or a server's: deferred, never counted as a
 * failure. `until`: when the server said to ask again (a 429's Retry-After); the next look is not before.
 */
export class PaceExceeded extends AppError {
  constructor(readonly until?: number) {
    super('regdesk_watch_pace', () => text.watches.paceExceeded);
  }
}

/** Runs registrar calls at the workspace key's watch pace; throws `PaceExceeded` past the wait. */
export async function watchPace(
  deps: PaceDeps,
  workspace: WorkspaceRef,
): Promise<<T>(call: () => Promise<T>) => Promise<T>> {
  const window: QuotaWindow = {
    key: deps.keys.key(`key:${await deps.keyHashFor(workspace)}`, 'quota', 'watch-reads'),
    max: WATCH_READS.max,
    // Widened like every window (limiter.ts): latency must not push two seconds' reads into one.
    windowMs: withLatencyMargin(WATCH_READS.windowMs),
  };
  return async (call) => {
    if (!(await deps.limiter.acquireWithin([window], MAX_PACE_WAIT_MS))) throw new PaceExceeded();
    return call();
  };
}
