// The data directory's file primitives: whole-file writes and reads, shared by its settings and its lock.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { AppError } from './app-error.js';

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

/** Writes `text` to `path` whole: aside first, then renamed over it (atomic on one file system). */
export function writeWhole(path: string, text: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text, { mode: 0o600, flag: 'wx' });
  renameSync(aside, path);
}

/** Like `writeWhole`, but fails with EEXIST when `path` exists: `link` never replaces. */
export function createWhole(path: string, text: string): void {
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

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}
