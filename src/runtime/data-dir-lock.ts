// The data directory's lock (one Regdesk at a time): its holder, liveness checks and stale take-over.
import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../shared/app-error.js';
import {
  createWhole,
  isCode,
  readIfThere,
  unlinkQuietly,
  unwritableDataDir,
  writeWhole,
} from '../shared/data-dir-files.js';

export interface LockHolder {
  pid: number;
  port: number;
  startedAt: number;
}

/** Locks this process holds, by path: a lock naming our own pid is ours only if it is in here. */
const held = new Map<string, DataDirLock>();

/**
 * One Regdesk at a time on a data directory: two private Redis servers on one append-only file would
 * corrupt it. `regdesk.lock` is created exclusively and names its holder; a lock whose holder no longer
 * runs is taken over.
 */
export class DataDirLock {
  readonly #path: string;
  #holder: LockHolder;

  private constructor(path: string, holder: LockHolder) {
    this.#path = path;
    this.#holder = holder;
  }

  /** Throws `regdesk_data_dir_locked` naming the holder when another running process has the directory. */
  static async acquire(dir: string, port: number): Promise<DataDirLock> {
    const path = join(dir, 'regdesk.lock');
    const holder: LockHolder = { pid: process.pid, port, startedAt: Date.now() };
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        createWhole(path, JSON.stringify(holder));
        const lock = new DataDirLock(path, holder);
        held.set(path, lock);
        return lock;
      } catch (error) {
        if (!isCode(error, 'EEXIST')) throw unwritableDataDir(dir, error);
      }
      const text = readIfThere(path);
      if (text === undefined) continue; // released in between
      const other = parseHolder(text);
      if (other !== undefined && holderRuns(path, other)) throw lockedError(dir, path, other);
      // A lock that cannot be read may be one being written right now (a file system without hard
      // links creates it empty first): only one that stayed unreadable is stale (issue #41).
      const stale = other !== undefined || unreadableFor(path) > UNREADABLE_STALE_MS;
      if (!stale || !takeOver(path, text)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new AppError(
      'regdesk_data_dir_busy',
      `Could not take ${path}: other processes keep taking it. Start one Regdesk at a time on ${dir}.`,
    );
  }

  get holder(): LockHolder {
    return this.#holder;
  }

  /** Records another port (the private Redis moved to a free one). */
  setPort(port: number): void {
    this.#holder = { ...this.#holder, port };
    writeWhole(this.#path, JSON.stringify(this.#holder));
  }

  /** Removes the lock if it is still ours (idempotent). */
  release(): void {
    if (held.get(this.#path) !== this) return;
    held.delete(this.#path);
    const now = parseHolder(readIfThere(this.#path) ?? '');
    if (now?.pid === this.#holder.pid && now.startedAt === this.#holder.startedAt) {
      try {
        unlinkSync(this.#path);
      } catch (error) {
        if (!isCode(error, 'ENOENT')) throw error;
      }
    }
  }
}

/** Who holds `dir`'s lock, when that process still runs (the CLI finds a running private Redis by it). */
export function runningHolder(dir: string): LockHolder | undefined {
  const path = join(dir, 'regdesk.lock');
  const holder = parseHolder(readIfThere(path) ?? '');
  return holder !== undefined && holderRuns(path, holder) ? holder : undefined;
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, port, startedAt } = value as Record<string, unknown>;
    if (typeof pid !== 'number' || typeof port !== 'number' || typeof startedAt !== 'number')
      return undefined;
    return { pid, port, startedAt };
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs. Our own pid in a lock we do not hold is an earlier run that
 * had the same pid (pid 1 in a container, every time); a pid that now belongs to a process that is not
 * Node was reused after the holder died. Where that cannot be told (no /proc), it counts as running.
 */
function holderRuns(path: string, holder: LockHolder): boolean {
  if (holder.pid === process.pid) return held.has(path);
  const state = processState(holder.pid, NODE);
  return state === 'matches' || state === 'unknown';
}

const NODE = /node|regdesk/;

/** How long a lock or mutex file may stay unreadable before it counts as a crashed writer's. */
const UNREADABLE_STALE_MS = 10_000;

/** Milliseconds since `path` was last written (0 when it is gone: nothing to judge). */
function unreadableFor(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 0;
    throw error;
  }
}

/**
 * Whether `pid` runs, and whether its command line matches `command`: 'unknown' where /proc cannot
 * tell (macOS), so callers decide what an unverifiable process means to them.
 */
export function processState(pid: number, command: RegExp): 'gone' | 'matches' | 'other' | 'unknown' {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if (isCode(error, 'ESRCH')) return 'gone';
  }
  try {
    return command.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))
      ? 'matches'
      : 'other';
  } catch (error) {
    return isCode(error, 'ENOENT') && existsSync('/proc/self') ? 'gone' : 'unknown';
  }
}

function lockedError(dir: string, path: string, holder: LockHolder): AppError {
  return new AppError(
    'regdesk_data_dir_locked',
    `Another Regdesk (pid ${holder.pid}, its Redis on 127.0.0.1:${holder.port}, started ` +
      `${new Date(holder.startedAt).toISOString()}) is using the data directory ${dir}. Stop it first, or ` +
      `give this one a REGDESK_DATA_DIR of its own. If pid ${holder.pid} is not Regdesk, delete ${path}.`,
  );
}

/**
 * Removes a stale lock, unless it changed since it was judged stale. The check and the removal run
 * under `regdesk.lock.takeover`, taken exclusively: without it, two processes that both judged the
 * same lock stale could each remove it, the second removing the lock the first had just made.
 * False when another process is taking over right now (try again shortly).
 */
function takeOver(path: string, judged: string): boolean {
  const mutex = `${path}.takeover`;
  try {
    createWhole(mutex, JSON.stringify({ pid: process.pid, port: 0, startedAt: Date.now() }));
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    // A process that died inside the few lines below leaves the mutex behind.
    // Our own pid there is stale too: this function never waits while it holds the mutex.
    // One that cannot be read is being written, never stale, unless it stays so: unlinking it would
    // let its writer and us both past this point.
    const other = parseHolder(readIfThere(mutex) ?? '');
    const state =
      other === undefined
        ? unreadableFor(mutex) > UNREADABLE_STALE_MS
          ? 'gone'
          : 'writing'
        : other.pid === process.pid
          ? 'gone'
          : processState(other.pid, NODE);
    if (state === 'gone' || state === 'other') unlinkQuietly(mutex);
    return false;
  }
  try {
    if (readIfThere(path) === judged) unlinkQuietly(path);
    return true;
  } finally {
    unlinkQuietly(mutex);
  }
}
