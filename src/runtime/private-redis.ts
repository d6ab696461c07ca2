import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis as SingleRedis } from 'ioredis';
import { AppError } from '../shared/app-error.js';
import {
  checkDataFormat,
  DataDirLock,
  isCode,
  prepareDataDir,
  privateRedisPassword,
  processState,
  readIfThere,
  unwritableDataDir,
} from './data-dir.js';
import {
  ensureRedisServer,
  fileSize,
  freePort,
  type RedisServerProcess,
  RedisStartError,
  spawnRedisServer,
  stopRedisServer,
  waitUntilAnswering,
} from './local-redis.js';

export interface PrivateRedis {
  /** With the password: for clients only, never for a log line. */
  url: string;
  port: number;
  child: ChildProcess;
  /** Stops the server (its append-only file is fsynced on the way out) and releases the data directory. */
  stop(): Promise<void>;
}

/** Servers of this process still running: stopped, at least, when the process exits without `stop`. */
const running = new Set<{ child: ChildProcess; lock: DataDirLock }>();
let exitHooked = false;

/**
 * `regdesk start`'s own Redis when none is configured (docs/requirements.md R38): it keeps its data in
 * `<dataDir>/redis` (append-only file, fsync every second), answers on loopback only with a password
 * kept in `<dataDir>/redis.password` (mode 0600), and holds `<dataDir>/regdesk.lock` while it runs so
 * that a second Regdesk on the same directory refuses to start rather than run a second server on the
 * same files. The port is a free one picked at each start: clients get it from the returned URL.
 */
export async function startPrivateRedis(dataDir: string, say: (line: string) => void): Promise<PrivateRedis> {
  const { created, tightened } = prepareDataDir(dataDir);
  if (tightened) say(`Closed the data directory ${dataDir} to other users of this machine (mode 700).`);
  let port = await freePort();
  const lock = await DataDirLock.acquire(dataDir, port);
  try {
    checkDataFormat(dataDir);
    const { password, created: newPassword } = privateRedisPassword(dataDir);
    const redisDir = join(dataDir, 'redis');
    mkdirSync(redisDir, { recursive: true, mode: 0o700 });
    ensureRedisServer(say, 'No Redis is configured, so `regdesk start` runs its own redis-server');
    await stopLeftover(redisDir, say);
    const logFile = join(redisDir, 'redis.log');
    // A restore (docs/data.md "Backup and restore"): a snapshot put back without its append-only file. With
    // `appendonly yes` Redis would start empty and ignore the snapshot, so it loads the snapshot with
    // the append-only file off, and turns it on once loaded (CONFIG SET writes a new one from memory).
    const restoring = !existsSync(join(redisDir, 'appendonlydir')) && existsSync(join(redisDir, 'dump.rdb'));
    let server: RedisServerProcess | undefined;
    for (let attempt = 1; server === undefined; attempt++) {
      const logFrom = fileSize(logFile);
      const started = spawnRedisServer(port, password, serverArgs(redisDir, logFile, !restoring));
      try {
        await waitUntilAnswering(started, password, { say, logFile, logFrom });
        server = started;
      } catch (error) {
        // The port was free when picked, and taken before redis-server bound it: pick another.
        if (!(error instanceof RedisStartError && /already in use/i.test(error.said)) || attempt >= 3)
          throw error;
        port = await freePort();
        lock.setPort(port);
      }
    }
    const { child } = server;
    if (restoring) {
      await turnOnAppendOnly(port, password);
      say(
        `Loaded ${join(redisDir, 'dump.rdb')} (no append-only file was there) and wrote a new append-only file from it.`,
      );
    }
    const entry = { child, lock };
    running.add(entry);
    hookExit();
    child.once('exit', (code, signal) => {
      // Stopped on purpose (here or by a caller holding `child`): the directory is free again.
      if (child.killed) {
        lock.release();
        running.delete(entry);
      } else {
        say(
          `The private redis-server stopped by itself (${code ?? signal}); Regdesk cannot reach its data until it is restarted. See ${logFile}.`,
        );
      }
    });
    if (created) say(`Created the data directory ${dataDir} (REGDESK_DATA_DIR).`);
    say(
      `Started the private redis-server at redis://127.0.0.1:${port}: data in ${redisDir} (append-only file, ` +
        `fsync every second), loopback only, password ${newPassword ? 'generated into' : 'from'} ${join(dataDir, 'redis.password')}.`,
    );
    return {
      url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`,
      port,
      child,
      stop: async () => {
        await stopRedisServer(child);
        lock.release();
        running.delete(entry);
      },
    };
  } catch (error) {
    lock.release();
    throw FILE_ERRORS.some((code) => isCode(error, code)) ? unwritableDataDir(dataDir, error) : error;
  }
}

/** What writing the data directory's files fails with when the directory is not fit (not a bug). */
const FILE_ERRORS = ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOSPC'];

function serverArgs(redisDir: string, logFile: string, appendOnly: boolean): string[] {
  return [
    '--dir',
    redisDir,
    '--appendonly',
    appendOnly ? 'yes' : 'no',
    // At most a second of writes is lost to a power cut; `always` would fsync on every command.
    '--appendfsync',
    'everysec',
    // Besides the append-only file (which is what Redis loads at start), a snapshot at most an hour
    // old: dump.rdb is written aside and renamed, so a file-level backup of the data directory always
    // holds one whole copy, where copying the append-only files of a running server can tear.
    '--save',
    '3600 1',
    '--logfile',
    logFile,
    // Written by the server itself at start and removed at a clean exit: one left behind with a live
    // redis-server names a server whose Regdesk died (see stopLeftover).
    '--pidfile',
    join(redisDir, 'redis.pid'),
    '--daemonize',
    'no',
  ];
}

async function turnOnAppendOnly(port: number, password: string): Promise<void> {
  const client = new SingleRedis({ host: '127.0.0.1', port, password, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  try {
    await client.config('SET', 'appendonly', 'yes');
  } finally {
    client.disconnect();
  }
}

/**
 * A Regdesk that died without stopping its redis-server (SIGKILL, a crash) leaves the server running
 * on the data; a second one on the same files would corrupt them. We hold the lock, so such a server
 * has no Regdesk: it is stopped (it fsyncs its append-only file first).
 */
async function stopLeftover(redisDir: string, say: (line: string) => void): Promise<void> {
  const pidFile = join(redisDir, 'redis.pid');
  const pid = Number((readIfThere(pidFile) ?? '').trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return;
  const state = processState(pid, /redis-server/);
  if (state === 'gone' || state === 'other') return;
  const leftover = new AppError(
    'regdesk_private_redis_leftover',
    `A redis-server (pid ${pid}, ${pidFile}) from an earlier Regdesk may still run on ${redisDir}. ` +
      `Stop it (\`kill ${pid}\`) and start Regdesk again; if pid ${pid} is not that redis-server, delete ${pidFile}.`,
  );
  // Without /proc nothing says the pid is still that redis-server: ask rather than signal a stranger.
  if (state === 'unknown') throw leftover;
  say(`A redis-server (pid ${pid}) left by an earlier Regdesk still runs on ${redisDir}: stopping it first.`);
  try {
    process.kill(pid, 'SIGTERM');
  } catch (error) {
    if (isCode(error, 'ESRCH')) return;
    throw error;
  }
  const deadline = Date.now() + 30_000;
  while (processState(pid, /redis-server/) === 'matches') {
    if (Date.now() > deadline) throw leftover;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  // Only synchronous work is possible here. A server still running gets SIGTERM and the lock stays:
  // the next start finds the holder gone, takes the lock over and waits for the server (stopLeftover).
  process.once('exit', () => {
    for (const { child, lock } of running) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      else lock.release();
    }
  });
}
