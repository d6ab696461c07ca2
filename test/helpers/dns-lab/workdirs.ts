import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The work directories of labs carry this prefix; daemons started by a lab have it in their command line. */
export const WORK_DIR_PREFIX = 'regdesk-dns-lab-';

/** The pid of the process that owns a work directory. */
export const OWNER_FILE = 'owner.pid';

/**
 * Removes the work directories of labs whose process died without stopping them (killed with SIGKILL:
 * no exit hook ran; setpriv's death signal took their daemons). A directory without an owner file may be
 * one being created right now, so it stays.
 */
export function removeStaleWorkDirs(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(WORK_DIR_PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner))
      rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether `pid` runs; a zombie (dead, not yet reaped by a lazy init) counts as dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
