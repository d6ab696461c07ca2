import { randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { AppError } from './app-error.js';

/**
 * REGDESK_DATA_DIR, as `regdesk start` keeps it (docs/requirements.md R38): the format it is written
 * in, the private Redis's password, and the lock that lets one Regdesk at a time use it.
 *
 * Every file here is created whole (written aside, then linked or renamed into place), so a crash
 * leaves either the old file or the new one, never half of one.
 */

/** The data format this code reads and writes. Raise it with a migration, never without. */
export const DATA_FORMAT = 1;

const WHY: Record<string, string> = {
  EEXIST: 'it is a file, not a directory',
  ENOTDIR: 'a part of its path is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left',
};

/** Where the data directory is a plain file, or cannot be created or written. */
export function unwritableDataDir(dir: string, cause: unknown): AppError {
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : undefined;
  const reason = code === undefined ? '' : ` (${WHY[code] ?? code})`;
  return new AppError(
    'regdesk_data_dir_unwritable',
    `Regdesk cannot write its data directory ${dir}${reason}. Make it a directory this user may write, ` +
      'or set REGDESK_DATA_DIR to one that is.',
    { cause },
  );
}

/** Creates the directory (mode 0700: it holds the Redis password and data) or checks it is one. */
export function prepareDataDir(dir: string): { created: boolean } {
  try {
    // EEXIST when `dir` is a file, ENOTDIR when a parent is: a directory that exists is fine.
    return { created: mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined };
  } catch (error) {
    throw unwritableDataDir(dir, error);
  }
}

/** Writes `text` to `path` whole: aside first, then renamed over it (atomic on one file system). */
function writeWhole(path: string, text: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text, { mode: 0o600, flag: 'wx' });
  renameSync(aside, path);
}

/** Like `writeWhole`, but fails with EEXIST when `path` exists: `link` never replaces. */
function createWhole(path: string, text: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, path);
  } catch (error) {
    // A file system without hard links (some network and FUSE mounts): O_EXCL, then the content.
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].some((code) => isCode(error, code))) throw error;
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  } finally {
    unlinkSync(aside);
  }
}

export function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

export function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

/**
 * `FORMAT` names the data format the directory holds. A newer Regdesk may store things this one
 * would misread or overwrite, so it is refused rather than "mostly" read.
 */
export function checkDataFormat(dir: string): void {
  const path = join(dir, 'FORMAT');
  const text = readIfThere(path);
  if (text === undefined) {
    writeWhole(path, `${DATA_FORMAT}\n`);
    return;
  }
  const found = /^\s*(\d{1,6})\s*$/.exec(text)?.[1];
  if (found === undefined) {
    throw new AppError(
      'regdesk_data_format_unknown',
      `${path} does not hold a data format number, so Regdesk cannot tell what wrote ${dir}. ` +
        'Restore the directory from a backup, or point REGDESK_DATA_DIR elsewhere.',
    );
  }
  if (Number(found) > DATA_FORMAT) {
    throw new AppError(
      'regdesk_data_format_newer',
      `${dir} was written by a newer Regdesk (data format ${found}; this Regdesk knows format ${DATA_FORMAT} ` +
        'and older). Run that newer Regdesk, or restore a backup of the directory made by this version.',
    );
  }
}

/** Passwords Regdesk generates are hex; one set by hand must fit a config line and a URL as is. */
const PASSWORD = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/**
 * The private Redis's password, generated once (`redis.password`, mode 0600) and kept: the data
 * outlives the process, so must the password. A file others may read is refused, not repaired: it may
 * have been read already, and only the operator knows whether to change it.
 */
export function privateRedisPassword(dir: string): { password: string; created: boolean } {
  const path = join(dir, 'redis.password');
  const text = readIfThere(path);
  if (text === undefined) {
    const password = randomBytes(24).toString('hex');
    createWhole(path, `${password}\n`);
    return { password, created: true };
  }
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new AppError(
      'regdesk_password_file_open',
      `${path} may be read by other users of this machine (mode ${mode.toString(8)}). ` +
        `Run \`chmod 600 ${path}\` and start again.`,
    );
  }
  const password = text.trim();
  if (!PASSWORD.test(password)) {
    throw new AppError(
      'regdesk_password_file_bad',
      `${path} does not hold a usable password (16 to 512 letters, digits or ._~+/=-). ` +
        'Delete it to have a new one made (the data stays), or fix it.',
    );
  }
  return { password, created: false };
}

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
      if (!takeOver(path, text)) await new Promise((resolve) => setTimeout(resolve, 20));
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
    const other = parseHolder(readIfThere(mutex) ?? '');
    const state = other === undefined || other.pid === process.pid ? 'gone' : processState(other.pid, NODE);
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

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}
