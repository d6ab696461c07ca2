import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { AppError } from '../shared/app-error.js';
import { readIfThere, runningHolder } from './data-dir.js';

/**
 * redis-server processes this process starts: the private, persistent one of `regdesk start`
 * (private-redis.ts) and the test suite's throwaway one (test/helpers/test-redis.ts).
 */

/** True when something accepts TCP connections on host:port within `timeoutMs`. */
export function isListening(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The URL (with its password) of the private Redis that a running `regdesk start` keeps in `dataDir`
 * (private-redis.ts), for one-shot commands run beside it; undefined when no Regdesk holds `dataDir`.
 */
export function runningPrivateRedisUrl(dataDir: string): string | undefined {
  const holder = runningHolder(dataDir);
  if (holder === undefined) return undefined;
  const path = join(dataDir, 'redis.password');
  let password: string | undefined;
  try {
    password = readIfThere(path)?.trim();
  } catch (error) {
    throw new AppError(
      'regdesk_password_file_unreadable',
      `A Regdesk (pid ${holder.pid}) runs its private Redis from ${dataDir}, but ${path} cannot be read by this user. ` +
        'Run this command as the user that runs `regdesk start`.',
      { cause: error },
    );
  }
  return password === undefined || password === ''
    ? undefined
    : `redis://:${encodeURIComponent(password)}@127.0.0.1:${holder.port}`;
}

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Installs Debian's redis-server package when it is missing and we are root; else says how to. */
export function ensureRedisServer(log: (line: string) => void, why: string): void {
  if (hasRedisServer()) return;
  if (process.getuid?.() !== 0) {
    throw new AppError(
      'regdesk_redis_server_missing',
      `${why}, but redis-server is not installed. Install it with \`sudo apt-get install -y redis-server\`, ` +
        'or point REDIS_URL at a Redis 6.2+ server.',
    );
  }
  log("redis-server is missing: installing Debian's redis-server package (apt-get) ...");
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** A loopback port nothing listens on now (the kernel's pick; it may be taken before redis binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface RedisServerProcess {
  child: ChildProcess;
  port: number;
  /** What it printed (the last 16 KB, password masked): config errors come here, before any log file. */
  output(): string;
  /** It exited, or could not be started at all. */
  exited(): boolean;
}

const OUTPUT_BYTES = 16_384;

/**
 * Starts redis-server on 127.0.0.1:`port`, protected mode on, requiring `password`. The password goes
 * in on stdin (a config read from `-`), never on the command line where `ps` shows it. Under umask 077
 * (set by a shell that then becomes redis-server: Node has no per-child umask), so the append-only
 * file, the snapshot and the log are the owner's alone (issue #41), whatever the directory's mode.
 */
export function spawnRedisServer(
  port: number,
  password: string,
  args: readonly string[],
): RedisServerProcess {
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      'umask 077 && exec redis-server "$@"',
      'redis-server',
      '-',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--protected-mode',
      'yes',
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_BYTES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // A failed spawn (no binary) emits 'error' and never 'exit': it counts as an exit.
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    keep(Buffer.from(`${error.message}\n`));
  });
  child.stdin?.on('error', () => {}); // EPIPE when it exits before reading its config: reported as an exit
  child.stdin?.end(`requirepass ${password}\n`);
  return {
    child,
    port,
    output: () => output.replaceAll(password, '***'),
    exited: () => failed || child.exitCode !== null || child.signalCode !== null,
  };
}

/** A start-up failure, with what redis-server said (its log tail or its output). */
export class RedisStartError extends AppError {
  constructor(
    message: string,
    readonly said: string,
  ) {
    super('regdesk_redis_server_failed', message);
  }
}

/** How long a fresh redis-server may take to answer at all, and to load a large append-only file. */
const ANSWER_MS = 30_000;
const LOAD_MS = 10 * 60_000;

/**
 * Waits until the server answers PING with the password: it has then loaded its data (a loading
 * server answers `-LOADING`). Kills it and throws `RedisStartError` with the end of its log when it
 * exits or does not answer in time.
 */
export async function waitUntilAnswering(
  server: RedisServerProcess,
  password: string,
  options: { say: (line: string) => void; logFile?: string; logFrom?: number },
): Promise<void> {
  const { child, port } = server;
  const started = Date.now();
  let loading = false;
  const said = () => {
    const log = options.logFile === undefined ? '' : readFrom(options.logFile, options.logFrom ?? 0);
    return tail(`${server.output()}\n${log}`.replaceAll(password, '***'), 20);
  };
  const fail = (what: string) => {
    child.kill('SIGKILL');
    const text = said();
    const where = options.logFile === undefined ? 'its output' : `its log (${options.logFile})`;
    return new RedisStartError(
      `redis-server ${what}. ${text === '' ? 'It said nothing.' : `The end of ${where}:\n${text}`}`,
      text,
    );
  };
  for (;;) {
    if (server.exited()) {
      throw fail(`exited while starting (${child.exitCode ?? child.signalCode ?? 'not started'})`);
    }
    const answer = await probe(port, password);
    if (answer === '+PONG') return;
    if (answer.startsWith('-LOADING') && !loading) {
      loading = true;
      options.say(`redis-server on 127.0.0.1:${port} is loading its data ...`);
    }
    if (Date.now() - started > (loading ? LOAD_MS : ANSWER_MS)) {
      throw fail(`did not answer on 127.0.0.1:${port} within ${(loading ? LOAD_MS : ANSWER_MS) / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** AUTH, then PING, on a socket of its own: the reply to PING ('+PONG', '-LOADING …', …) or 'down'. */
function probe(port: number, password: string, timeoutMs = 1_000): Promise<string> {
  const command = (...words: string[]) =>
    `*${words.length}\r\n${words.map((word) => `$${Buffer.byteLength(word)}\r\n${word}\r\n`).join('')}`;
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let received = '';
    const done = (answer: string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done('down'));
    socket.once('connect', () => socket.write(command('AUTH', password) + command('PING')));
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      const lines = received.split('\r\n');
      if (lines.length >= 3) done(lines[1] ?? 'down');
    });
    socket.once('error', () => done('down'));
    socket.once('close', () => done('down'));
  });
}

/** Resolves true once the child has exited, false after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM (Redis then fsyncs its append-only file and exits), SIGKILL if that takes over `timeoutMs`. */
export async function stopRedisServer(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, timeoutMs)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 5_000);
}

export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** What `path` holds from byte `from` on (at most the last 64 KB of it). */
function readFrom(path: string, from: number): string {
  const size = fileSize(path);
  const start = Math.max(from, size - 65_536);
  if (size <= start) return '';
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

function tail(text: string, lines: number): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-lines)
    .join('\n');
}
