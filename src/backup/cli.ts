import { accessSync, constants } from 'node:fs';
import type { Config } from '../config.js';
import { inspectBackup, restoreBackup } from './restore.js';
import { takeBackup } from './take.js';
import { withQuietRedis } from './target.js';

export interface BackupCliIo {
  /** The command's report (stdout). */
  out: (line: string) => void;
  /** Notes on the way (stderr): the private Redis started and stopped for the command. */
  say: (line: string) => void;
}

/** `regdesk backup FILE` (docs/data.md "Backup and restore"). */
export async function backupCommand(config: Config, file: string, io: BackupCliIo): Promise<void> {
  const taken = await withQuietRedis(config, { mustExist: true, say: io.say }, ({ redis, keys }) =>
    takeBackup(redis, keys, file),
  );
  const { integrity } = taken.header;
  io.out(
    `Backed up ${taken.keys} keys under the key prefix "${taken.header.prefix}" to ${file}` +
      (integrity === null
        ? ' (the prefix held no integrity marker: no Regdesk had used it).'
        : ` (integrity marker: data id ${integrity.id}, check counter ${integrity.seq}, approval epoch ${integrity.epoch}).`),
  );
  io.out(
    'The copy holds the vault sealed: keep VAULT_MASTER_KEY (for the private Redis, vault.key in ' +
      'REGDESK_DATA_DIR) safe apart from it, or the registrar keys in it cannot be opened.',
  );
}

/** `regdesk restore FILE` (docs/data.md "Backup and restore"). */
export async function restoreCommand(config: Config, file: string, io: BackupCliIo): Promise<void> {
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new Error(`cannot read ${file}: no such file, or not readable by this user.`);
  }
  const done = await withQuietRedis(config, { mustExist: false, say: io.say }, async (target) => {
    const header = await inspectBackup(file, target.keys);
    return {
      ...(await restoreBackup(target.redis, target.keys, file, header, target.mark)),
      shown: target.shown,
    };
  });
  const expired = done.expired === 0 ? '' : ` (${done.expired} more had expired since and were left out)`;
  for (const line of [
    `Restored ${done.restored} keys under the key prefix "${done.header.prefix}" into ${done.shown} from ${file}, ` +
      `a backup taken at ${done.header.takenAt}${expired}; the ${done.removed} keys there before were deleted.`,
    `Approval requests from before the restore will not run: the approval epoch is now ${done.epoch}, so ` +
      'pressing Approve on one closes it and says why. Requests still needed must be asked for again.',
    'Regdesk reports not ready (/readyz 503, reason data_rolled_back) until you have checked the data ' +
      'and run `regdesk data accept` with the same environment as its processes.',
    'What to check: everything done after the backup was taken is gone from Regdesk (the log holds ' +
      'every audit entry since): workspace keys and approval policies set since, watches added or ' +
      'removed, certificate orders and DNS record changes made since, and queued work that may now ' +
      'run again (validation records published, questions answered).',
  ])
    io.out(line);
}
