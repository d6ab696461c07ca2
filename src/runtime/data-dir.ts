import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../shared/app-error.js';
import { createWhole, readIfThere, unwritableDataDir, writeWhole } from '../shared/data-dir-files.js';

/**
 * REGDESK_DATA_DIR, as `regdesk start` keeps it (docs/requirements.md R38): the format it is written
 * in, the private Redis's password, and the lock that lets one Regdesk at a time use it.
 *
 * Every file here is created whole (written aside, then linked or renamed into place), so a crash
 * leaves either the old file or the new one, never half of one.
 */

export { isCode, readIfThere, unwritableDataDir } from '../shared/data-dir-files.js';
export { DataDirLock, type LockHolder, processState, runningHolder } from './data-dir-lock.js';

/** The data format this code reads and writes. Raise it with a migration, never without. */
export const DATA_FORMAT = 1;

/**
 * Creates the directory (mode 0700: it holds the Redis password and data) or checks it is one, and
 * closes one made beforehand with a wider mode (a `mkdir` under umask 022 gives 0755), at every start.
 * `tightened` tells the caller to say so.
 */
export function prepareDataDir(dir: string): { created: boolean; tightened: boolean } {
  let created: boolean;
  try {
    // EEXIST when `dir` is a file, ENOTDIR when a parent is: a directory that exists is fine.
    created = mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
  } catch (error) {
    throw unwritableDataDir(dir, error);
  }
  if ((statSync(dir).mode & 0o077) === 0) return { created, tightened: false };
  try {
    chmodSync(dir, 0o700);
  } catch (error) {
    throw new AppError(
      'regdesk_data_dir_open',
      `Other users of this machine may read the data directory ${dir} (mode ${(statSync(dir).mode & 0o777).toString(8)}), and this user cannot change that. Run \`chmod 700 ${dir}\` as its owner and start again.`,
      { cause: error },
    );
  }
  return { created, tightened: true };
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
