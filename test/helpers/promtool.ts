import { execFile } from 'node:child_process';
import { findProgram, installDebianPackages, isRoot } from './debian.js';

/**
 * Finds promtool (Debian's `prometheus` package) and, when it is missing and we are root, installs the
 * package (debian.ts keeps its server from starting), saying so; otherwise explains how to get it.
 */
export function ensurePromtool(
  log: (line: string) => void = (line) => console.log(`[test] ${line}`),
): string {
  const found = findProgram('promtool');
  if (found !== undefined) return found;
  if (!isRoot()) {
    throw new Error(
      "The operations tests need promtool from Debian's prometheus package. Install it with " +
        '`sudo apt-get install -y prometheus`.',
    );
  }
  log("promtool is missing: installing Debian's prometheus package (apt-get) ...");
  installDebianPackages(['prometheus']);
  const installed = findProgram('promtool');
  if (installed === undefined) throw new Error('apt-get installed prometheus, but promtool is missing.');
  return installed;
}

/** Runs promtool; resolves with its exit code and what it printed (stdin when given). */
export function promtool(
  args: readonly string[],
  options: { cwd?: string; stdin?: string } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      ensurePromtool(),
      [...args],
      { cwd: options.cwd, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  });
}
