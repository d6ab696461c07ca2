import { join } from 'node:path';
import { z } from 'zod';
import { readIfThere, writeWhole } from './data-dir-files.js';
import type { Logger } from './logger.js';

/**
 * The integrity mark of the private Redis (docs/data.md "Backup and restore"): the data's identity, the
 * highest check counter and the approval epoch a `regdesk start` saw, kept in REGDESK_DATA_DIR beside
 * the Redis files. Its Redis files put back by hand while Regdesk was stopped hold a lower counter (or
 * another identity) than the mark, and the next start treats that as a rollback
 * (src/shared/integrity.ts). One file per key prefix: each prefix has an integrity hash of its own.
 */

export interface MarkState {
  id: string;
  seq: number;
  epoch: number;
}

export interface IntegrityMark {
  /** Where the mark is, for messages. */
  readonly path: string;
  /** The last mark written; undefined when there is none (the first start) or it cannot be parsed. */
  read(): MarkState | undefined;
  /** Written whole (aside, then renamed): a crash leaves the old mark or the new one. */
  write(state: MarkState): void;
}

const Stored = z.lazy(() =>
  z.object({ id: z.string().min(1), seq: z.number().int(), epoch: z.number().int() }),
);

export function dataDirMark(dataDir: string, keyPrefix: string): IntegrityMark {
  const path = join(dataDir, `integrity-${keyPrefix}.json`);
  return {
    path,
    read() {
      const text = readIfThere(path);
      if (text === undefined) return undefined;
      try {
        const parsed = Stored.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    write(state) {
      writeWhole(path, `${JSON.stringify({ ...state, writtenAt: new Date().toISOString() })}\n`);
    },
  };
}

/**
 * Why data found at start is not the marked data or older than it, or undefined. Another identity is
 * a loss (flushed, or replaced); a lower check counter, a rollback (an older copy put back).
 */
export function behindMark(
  now: MarkState,
  mark: MarkState,
  path: string,
): { kind: 'lost' | 'rolled_back'; detail: string } | undefined {
  if (now.id !== mark.id) {
    return {
      kind: 'lost',
      detail: `Redis holds other data than when Regdesk last ran (flushed, or replaced while Regdesk was stopped): ${path} names other data`,
    };
  }
  if (now.seq < mark.seq) {
    return {
      kind: 'rolled_back',
      detail: `Redis went back in time while Regdesk was stopped (its files restored from an older copy): its check counter is ${now.seq}, ${path} says ${mark.seq}`,
    };
  }
  return undefined;
}

/**
 * How often the mark is rewritten while nothing changes. Every process checks every few seconds; the
 * mark matters only once Regdesk is stopped, and a clean stop writes it exact. After a crash it lags
 * by at most this long: a copy from that last minute put back looks like no rollback, the same kind
 * of gap as a copy from a running process's last check interval.
 */
const MARK_EVERY_MS = 60_000;

/** Writes the mark when it changes meaning (other data, another epoch) or is due; failures are logged. */
export class MarkKeeper {
  #last: { state: MarkState; at: number } | undefined;

  constructor(
    readonly mark: IntegrityMark,
    private readonly logger: Logger,
  ) {}

  keep(state: MarkState, exact: boolean): void {
    const last = this.#last;
    const same = last !== undefined && last.state.id === state.id && last.state.epoch === state.epoch;
    if (!exact && same && performance.now() - last.at < MARK_EVERY_MS) return;
    try {
      this.mark.write(state);
      this.#last = { state, at: performance.now() };
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error), mark: this.mark.path },
        "the data directory's integrity mark was not written",
      );
    }
  }
}
