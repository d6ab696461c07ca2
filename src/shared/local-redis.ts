import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

export interface LocalRedis {
  url: string;
  /** Set when this process started its own redis-server; stop it on exit. */
  child?: ChildProcess;
  note: string;
}

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

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function installRedisServer(log: (line: string) => void): void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'No Redis answers on 127.0.0.1:6379 and redis-server is not installed. Install it with ' +
        '`sudo apt-get install -y redis-server`, or point REDIS_URL at a Redis 6.2+ server.',
    );
  }
  log("redis-server is missing: installing Debian's redis-server package (apt-get) ...");
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/**
 * Resolve the Redis to use: REDIS_URL when set, else 127.0.0.1:6379 when it answers, else a private
 * redis-server on a free port (installed from Debian's packages when missing and we are root).
 * The private server keeps nothing on disk and is stopped with the process that started it.
 */
export async function ensureLocalRedis(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  options: { workDir?: string; defaultPort?: number } = {},
): Promise<LocalRedis> {
  const defaultPort = options.defaultPort ?? 6379;
  if (env.REDIS_URL) return { url: env.REDIS_URL, note: 'using REDIS_URL' };
  if (await isListening('127.0.0.1', defaultPort)) {
    return { url: `redis://127.0.0.1:${defaultPort}`, note: `using the Redis on 127.0.0.1:${defaultPort}` };
  }
  const workDir = options.workDir ?? join(process.cwd(), '.redis');
  if (!hasRedisServer()) installRedisServer(log);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  mkdirSync(workDir, { recursive: true });
  // Loopback only, and a password of this process's own: another local user or a browser page
  // talking to localhost cannot read the vault or the queues (docs/requirements.md R25).
  const password = randomBytes(24).toString('hex');
  const child = spawn(
    'redis-server',
    [
      '-',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      workDir,
    ],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  // The password goes in on stdin (a config read from `-`), never on the command line where `ps` shows it.
  child.stdin?.end(`requirepass ${password}\n`);
  const deadline = Date.now() + 10_000;
  while (!(await isListening('127.0.0.1', port, 200))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Could not start a private redis-server on port ${port}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const shown = `redis://127.0.0.1:${port}`;
  log(
    `No Redis on 127.0.0.1:${defaultPort}: started a private redis-server at ${shown} (loopback only, password-protected, nothing is kept on disk).`,
  );
  return { url: `redis://:${password}@127.0.0.1:${port}`, child, note: `private redis-server at ${shown}` };
}
