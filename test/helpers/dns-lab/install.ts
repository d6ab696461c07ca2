import { readdirSync, readFileSync } from 'node:fs';
import { findProgram, installDebianPackages, isRoot } from '../debian.js';
import { WORK_DIR_PREFIX } from './workdirs.js';

/** The programs the lab runs and the Debian packages they come in (kdig is not needed: see queryDns). */
const PROGRAMS = [
  { name: 'knotd', pkg: 'knot' },
  { name: 'knotc', pkg: 'knot' },
  { name: 'keymgr', pkg: 'knot' },
  { name: 'unbound', pkg: 'unbound' },
] as const;
type Program = (typeof PROGRAMS)[number]['name'];

export function program(name: Program): string {
  const path = findProgram(name);
  if (path === undefined) throw new Error(`${name} is missing: ensureDnsServers() installs it.`);
  return path;
}

/** knotd and unbound processes running now, pid → command line. */
function runningDaemons(): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Exact comm match: kernel threads such as "kworker/u8:1-events_unbound" must not count.
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'knotd' && comm !== 'unbound') continue;
      found.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * Finds knotd, knotc, keymgr (package knot) and unbound (package unbound) and, when any is missing and
 * we are root, installs them with apt-get (debian.ts, as ensureChromium does for chromium), saying so;
 * any knotd or unbound the install started anyway is stopped. Otherwise it explains how to get them.
 */
export function ensureDnsServers(
  log: (line: string) => void = (line) => console.log(`[test] ${line}`),
): void {
  const missing = PROGRAMS.filter((candidate) => findProgram(candidate.name) === undefined);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((candidate) => candidate.pkg))];
  if (!isRoot()) {
    throw new Error(
      `The DNS lab tests need Debian's knot and unbound packages (${missing.map((m) => m.name).join(', ')} ` +
        'missing). Install them with `sudo apt-get install -y knot unbound`.',
    );
  }
  const names = missing.map((candidate) => candidate.name).join(', ');
  log(
    `${names} ${missing.length === 1 ? 'is' : 'are'} missing: installing Debian's ${packages.join(' and ')} ` +
      `package${packages.length === 1 ? '' : 's'} (apt-get) ...`,
  );
  const before = runningDaemons();
  installDebianPackages(packages);
  // Without systemd nothing else should start them, but a package-started daemon on 127.0.0.1:53 or
  // 0.0.0.0:53 would outlive the tests: stop any that appeared and is not a lab's own.
  for (const [pid, command] of runningDaemons()) {
    if (before.has(pid) || command.includes(WORK_DIR_PREFIX)) continue;
    log(`stopping ${command} (pid ${pid}), started by the package install`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const stillMissing = PROGRAMS.filter((candidate) => findProgram(candidate.name) === undefined);
  if (stillMissing.length > 0) {
    throw new Error(
      `apt-get installed ${packages.join(', ')}, but ${stillMissing.map((m) => m.name).join(', ')} is missing.`,
    );
  }
}
