import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A Node.js that Regdesk's processes run on in one pass of the bench. */
export interface Runtime {
  /** `Node 20.20.2`: printed before every figure measured on it. */
  label: string;
  /** Short and unique, for key prefixes and channel names: `n20`. */
  tag: string;
  /** The `node` binary the children are started with. */
  node: string;
  /** Node's launch flags for this runtime, as bin/regdesk chooses them (`launchFlags`). */
  flags: readonly string[];
}

/** Regdesk's HTTP front and the bare server both print this once they accept connections. */
export const LISTENING = /listening on http:\/\/[\d.]+:(\d+)/;
const WORKERS_RUNNING = /Regdesk workers \(\d+ queues\) running/;
const START_TIMEOUT_MS = 30_000;
/** Regdesk's own shutdown gives workers 8 s; past this a child is killed outright. */
const STOP_GRACE_MS = 10_000;
/** BENCH_VERBOSE=1 echoes every child's output to stderr, prefixed with its name. */
const VERBOSE = process.env.BENCH_VERBOSE === '1';
/** Diagnosis: flags for every child's node, e.g. `--cpu-prof` (which NODE_OPTIONS does not take). */
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];

/** The repository root: the nearest package.json named regdesk above this file (in bench/ or dist/bench/). */
export function repoRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'regdesk') return dir;
    } catch {
      // none at this level; look one up
    }
  }
  throw new Error('bench: cannot find the regdesk package root');
}

export interface Child {
  name: string;
  pid: number;
  /** The listening port, for children that print one. */
  port: number;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  tail(): string;
  stop(): Promise<void>;
}

/** Every child still alive, so a failing or interrupted bench never leaves one behind. */
const alive = new Set<ChildProcess>();

/** Last resort, synchronous (for `process.on('exit')` and signals): kill whatever is left. */
export function killAllNow(): void {
  for (const child of alive) child.kill('SIGKILL');
}

export async function stopAll(): Promise<void> {
  await Promise.all([...alive].map((child) => stopProcess(child)));
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Starts `node script args…` and resolves once a line matches `ready` (or rejects with its output). */
export function startNode(
  runtime: Runtime,
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  nodeFlags: readonly string[] = [],
): Promise<Child> {
  const child = spawn(runtime.node, [...nodeFlags, ...NODE_ARGS, script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  const lines: string[] = [];
  const tail = () => lines.slice(-30).join('\n');
  return new Promise<Child>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopProcess(child);
      reject(new Error(`${name}: ${why}\n${tail()}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      if (VERBOSE) process.stderr.write(`[${name}] ${line}\n`);
      lines.push(line);
      if (lines.length > 200) lines.shift();
      const match = settled ? null : ready.exec(line);
      if (match === null) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        name,
        pid: child.pid ?? 0,
        port: Number(match[1] ?? 0),
        tail,
        stop: () => stopProcess(child),
      });
    };
    if (child.stdout !== null) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr !== null) createInterface({ input: child.stderr }).on('line', onLine);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before it was ready`));
  });
}

/**
 * Node's flags as bin/regdesk — what `npx regdesk`, `npm start` and the Docker image run — chooses
 * them (the same on every runtime). The bench passes them to its own node, so it measures the same process.
 */
export function launchFlags(): string[] {
  const said = execFileSync('sh', [join(repoRoot(), 'bin', 'regdesk'), '--node-flags'], { encoding: 'utf8' });
  return said.split(/\s+/).filter((flag) => flag !== '');
}

/**
 * `regdesk start|web|worker` from the build, as an operator runs it (`npx regdesk ROLE`); `extraFlags`
 * only for the bench's own instruments (collect-on-signal.ts).
 */
export function startRegdesk(
  runtime: Runtime,
  role: 'start' | 'web' | 'worker',
  env: NodeJS.ProcessEnv,
  name = `regdesk ${role}`,
  extraFlags: readonly string[] = [],
): Promise<Child> {
  const cli = join(repoRoot(), 'dist', 'src', 'cli.js');
  const ready = role === 'worker' ? WORKERS_RUNNING : LISTENING;
  return startNode(runtime, `${name} on ${runtime.label}`, cli, [role], env, ready, [
    ...runtime.flags,
    ...extraFlags,
  ]);
}

/** Flags that preload collect-on-signal.ts: SIGUSR2 then runs a full collection in that process. */
export function collectOnSignalFlags(): string[] {
  const preload = pathToFileURL(join(repoRoot(), 'dist', 'bench', 'lib', 'collect-on-signal.js')).href;
  return ['--expose-gc', '--import', preload];
}

/** Resident memory in MB (1 MB = 1024 kB as the kernel counts): /proc first, `ps` elsewhere. */
export function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // no procfs (macOS): ask ps
  }
  const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  const kb = Number(out);
  if (!Number.isFinite(kb) || kb <= 0) throw new Error(`no resident size for pid ${pid}`);
  return kb / 1024;
}

/**
 * `count` processes that keep one CPU each busy (issue #29: "a busy machine"), started now and
 * stopped by `stop()` — or with every other child when the bench ends.
 */
export function burnCpus(count: number): { stop(): Promise<void> } {
  const burners = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    alive.add(child);
    child.once('exit', () => alive.delete(child));
    return child;
  });
  return { stop: () => Promise.all(burners.map((child) => stopProcess(child))).then(() => undefined) };
}
