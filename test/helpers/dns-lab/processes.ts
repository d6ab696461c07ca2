import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findProgram } from '../debian.js';

/** Starting, watching and stopping the lab's daemons, and the programs it runs to completion. */

export interface Daemon {
  name: string;
  child: ChildProcess;
  /** The daemon's own log and its stdout/stderr (config errors land there before any log is open). */
  logs: string[];
  exited: Promise<void>;
  /** How it ended ('code 1', 'SIGKILL'), or undefined while it runs. */
  exitStatus(): string | undefined;
}

/** Every daemon of every lab in this process, so they die with it even when nobody calls stop(). */
const liveDaemons = new Set<Daemon>();
export const liveDirs = new Set<string>();
let exitHookInstalled = false;

export function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const daemon of liveDaemons) daemon.child.kill('SIGKILL');
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** setpriv(1) from util-linux: lets the kernel kill a daemon when this process dies, even by SIGKILL. */
const SETPRIV = findProgram('setpriv');

export function startDaemon(name: string, dir: string, command: string, args: string[], log: string): Daemon {
  const output = join(dir, `${name}.out`);
  const fd = openSync(output, 'a');
  // Foreground processes (knotd without -d, unbound -d), so the child is the daemon itself.
  const child =
    SETPRIV === undefined
      ? spawn(command, args, { stdio: ['ignore', fd, fd] })
      : spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let status: string | undefined;
  const daemon: Daemon = {
    name,
    child,
    logs: [log, output],
    exited: new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        status = signal ?? `code ${code}`;
        liveDaemons.delete(daemon);
        resolve();
      });
      child.once('error', (error) => {
        status = error.message;
        liveDaemons.delete(daemon);
        resolve();
      });
    }),
    exitStatus: () => status,
  };
  liveDaemons.add(daemon);
  return daemon;
}

function tail(path: string, lines = 25): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

function describeLogs(daemon: Daemon): string {
  return daemon.logs.map((path) => `--- ${path}\n${tail(path)}`).join('\n');
}

export async function stopDaemon(daemon: Daemon): Promise<void> {
  if (daemon.exitStatus() !== undefined) return;
  daemon.child.kill('SIGTERM');
  const timer = setTimeout(() => daemon.child.kill('SIGKILL'), 5000);
  await daemon.exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Generous, so a slow or loaded machine is never the reason a lab fails to start. */
const DEADLINE_MS = 30_000;
/**
 * One polling query's wait. Short, because a query sent before the daemon listens is simply lost (no
 * ICMP error reaches an unconnected UDP socket); a slow answer only costs another attempt.
 */
export const ATTEMPT_MS = 250;

/**
 * Polls `check` until it returns true. Fails early, with the log tails, when a daemon dies; fails at the
 * deadline with the last error and the log tails.
 */
export async function waitFor(what: string, daemons: Daemon[], check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  let last = '';
  for (;;) {
    const dead = daemons.find((daemon) => daemon.exitStatus() !== undefined);
    if (dead !== undefined) {
      throw new Error(
        `DNS lab: ${dead.name} exited (${dead.exitStatus()}) while waiting for ${what}.\n${describeLogs(dead)}`,
      );
    }
    try {
      if (await check()) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      const logs = daemons.map(describeLogs).join('\n');
      throw new Error(
        `DNS lab: timed out after ${DEADLINE_MS} ms waiting for ${what}${last ? ` (${last})` : ''}.\n${logs}`,
      );
    }
    await sleep(50);
  }
}

export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: DEADLINE_MS }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed: ${`${stderr}${stdout}`.trim() || error.message}`),
        );
    });
  });
}
