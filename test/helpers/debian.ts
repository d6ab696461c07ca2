import { execFileSync } from 'node:child_process';
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where to look besides PATH: daemons and tools live in /usr/sbin, which a non-login PATH may lack. */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), ...SYSTEM_DIRS];
  return dirs
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
}

const POLICY_RC_D = '/usr/sbin/policy-rc.d';

/**
 * Installs Debian packages with apt-get (the caller checks it is root). Packages with a daemon
 * (knot, unbound, prometheus) would start it system-wide on install: a temporary policy-rc.d forbids
 * that (invoke-rc.d asks it first; 101 means "not allowed"). An image that ships one already keeps
 * it exactly as it was.
 */
export function installDebianPackages(packages: readonly string[]): void {
  const ownPolicy = !existsSync(POLICY_RC_D);
  if (ownPolicy)
    writeFileSync(POLICY_RC_D, '#!/bin/sh\n# Written by regdesk test/helpers/debian.ts\nexit 101\n', {
      mode: 0o755,
    });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } finally {
    if (ownPolicy) unlinkSync(POLICY_RC_D);
  }
}

export const isRoot = (): boolean => process.getuid?.() === 0;
