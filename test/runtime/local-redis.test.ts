import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLock } from '../../src/runtime/data-dir.js';
import { isListening, runningPrivateRedisUrl } from '../../src/runtime/local-redis.js';
import { type PrivateRedis, startPrivateRedis } from '../../src/runtime/private-redis.js';
import { createRedis, waitForReady } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { testSuiteRedis } from '../helpers/test-redis.js';

/** One inline command over a bare socket (no client library, no AUTH): the server's first reply line. */
function rawCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(`${command}\r\n`));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

const listFiles = (dir: string) => readdirSync(dir).map((name) => join(dir, name));

/** A pid that ran and no longer does. */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('could not run `true`');
  return pid;
}

/** A process that runs until the test ends (killed in afterEach). */
function runningProcess(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore' });
  others.push(child);
  return child;
}

const started: PrivateRedis[] = [];
const dirs: string[] = [];
const others: ChildProcess[] = [];

function dataDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'regdesk-data-')), 'data');
  dirs.push(dir);
  return dir;
}

async function start(dir: string, lines: string[] = []): Promise<PrivateRedis> {
  const redis = await startPrivateRedis(dir, (line) => lines.push(line));
  started.push(redis);
  return redis;
}

async function withClient<T>(url: string, use: (client: ReturnType<typeof createRedis>) => Promise<T>) {
  const client = createRedis(url, 'request');
  try {
    await waitForReady(client);
    return await use(client);
  } finally {
    client.disconnect();
  }
}

afterEach(async () => {
  for (const child of others.splice(0)) child.kill('SIGKILL');
  for (const redis of started.splice(0)) await redis.stop();
  for (const dir of dirs.splice(0)) rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('startPrivateRedis', () => {
  it('keeps its data and its password across a stop and a start', async () => {
    const dir = dataDir();
    const lines: string[] = [];
    const first = await start(dir, lines);
    const password = new URL(first.url).password;
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(lines.join('\n')).not.toContain(password);
    expect(lines.join('\n')).toContain(`Created the data directory ${dir}`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const passwordFile = join(dir, 'redis.password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(passwordFile, 'utf8').trim()).toBe(password);
    expect(readFileSync(join(dir, 'FORMAT'), 'utf8').trim()).toBe('1');
    expect(JSON.parse(readFileSync(join(dir, 'regdesk.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: first.port,
    });
    await withClient(first.url, async (client) => {
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await client.config('GET', 'appendfsync')).toEqual(['appendfsync', 'everysec']);
      expect(await client.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
      expect(await client.config('GET', 'dir')).toEqual(['dir', join(dir, 'redis')]);
      await client.set('kept', 'across restarts');
    });
    // Password-protected: without it nothing can be read.
    expect(await rawCommand(first.port, 'GET kept')).toMatch(/^-NOAUTH/);

    // One-shot commands beside it find it through the lock and the password file.
    expect(runningPrivateRedisUrl(dir)).toBe(first.url);

    await first.stop();
    started.splice(started.indexOf(first), 1);
    expect(runningPrivateRedisUrl(dir)).toBeUndefined();
    expect(await isListening('127.0.0.1', first.port)).toBe(false);
    expect(() => statSync(join(dir, 'regdesk.lock'))).toThrow(/ENOENT/);

    const second = await start(dir);
    expect(new URL(second.url).password).toBe(password);
    await withClient(second.url, async (client) => {
      expect(await client.get('kept')).toBe('across restarts');
    });
  });

  it('refuses a second start on the same data directory, naming the first', async () => {
    const dir = dataDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(
      new RegExp(`Another Regdesk \\(pid ${process.pid}, its Redis on 127\\.0\\.0\\.1:${first.port},`),
    );
    // The refused start left the first one alone.
    await withClient(first.url, async (client) => expect(await client.ping()).toBe('PONG'));
    expect(JSON.parse(readFileSync(join(dir, 'regdesk.lock'), 'utf8'))).toMatchObject({ port: first.port });
  });

  it('refuses while another Regdesk process holds the lock', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const other = runningProcess(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    const holder = { pid: other.pid, port: 40_001, startedAt: Date.now() };
    writeFileSync(join(dir, 'regdesk.lock'), JSON.stringify(holder));
    await expect(start(dir)).rejects.toThrow(
      `Another Regdesk (pid ${other.pid}, its Redis on 127.0.0.1:40001, started ${new Date(holder.startedAt).toISOString()}) is using the data directory ${dir}`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'regdesk.lock'), 'utf8'))).toEqual(holder);
  });

  it('takes over a lock whose pid now belongs to a process that is not Regdesk', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const stranger = runningProcess('sleep', ['60']);
    writeFileSync(join(dir, 'regdesk.lock'), JSON.stringify({ pid: stranger.pid, port: 1, startedAt: 0 }));
    const redis = await start(dir);
    expect(JSON.parse(readFileSync(join(dir, 'regdesk.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: redis.port,
    });
    expect(stranger.exitCode).toBeNull();
  });

  it('takes over a lock whose process no longer runs', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const stale = { pid: deadPid(), port: 1, startedAt: Date.now() - 60_000 };
    writeFileSync(join(dir, 'regdesk.lock'), JSON.stringify(stale));
    const redis = await start(dir);
    expect(JSON.parse(readFileSync(join(dir, 'regdesk.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: redis.port,
    });
  });

  it('closes a data directory made beforehand with 0755, and its Redis writes files only its owner reads', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const lines: string[] = [];
    const redis = await start(dir, lines);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(lines.join('\n')).toContain('Closed the data directory');
    await withClient(redis.url, async (client) => {
      await client.set('k', 'v');
      await client.call('BGREWRITEAOF');
    });
    // Whatever the test runner's umask: redis-server runs under 077.
    const files = [join(dir, 'redis', 'redis.log'), ...listFiles(join(dir, 'redis', 'appendonlydir'))];
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) expect(statSync(file).mode & 0o077, file).toBe(0);
  });

  it('does not take over a lock that cannot be read yet (being written), only one left so', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lock = join(dir, 'regdesk.lock');
    // Created empty, as a file system without hard links creates it before its content is written.
    writeFileSync(lock, '');
    await expect(DataDirLock.acquire(dir, 1)).rejects.toMatchObject({ code: 'regdesk_data_dir_busy' });
    expect(readFileSync(lock, 'utf8')).toBe('');
    // Unreadable for a minute: its writer died.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, aMinuteAgo, aMinuteAgo);
    const taken = await DataDirLock.acquire(dir, 2);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, port: 2 });
    taken.release();
  });

  it('stops a redis-server left running by a Regdesk that died, keeping its data', async () => {
    const dir = dataDir();
    const orphan = await start(dir);
    await withClient(orphan.url, (client) => client.set('written', 'before the crash'));
    // Its Regdesk "dies": the lock names a process that no longer runs, the server runs on.
    writeFileSync(
      join(dir, 'regdesk.lock'),
      JSON.stringify({ pid: deadPid(), port: orphan.port, startedAt: Date.now() }),
    );
    const lines: string[] = [];
    const next = await start(dir, lines);
    expect(lines.join('\n')).toContain(`(pid ${orphan.child.pid}) left by an earlier Regdesk`);
    expect(orphan.child.exitCode ?? orphan.child.signalCode).not.toBeNull();
    await withClient(next.url, async (client) =>
      expect(await client.get('written')).toBe('before the crash'),
    );
  });

  it('refuses a password file other users may read', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'redis.password');
    writeFileSync(file, 'a'.repeat(48));
    chmodSync(file, 0o644);
    await expect(start(dir)).rejects.toThrow(`Run \`chmod 600 ${file}\``);
    // Refused before anything ran: the directory is free for the next attempt.
    chmodSync(file, 0o600);
    const redis = await start(dir);
    expect(new URL(redis.url).password).toBe('a'.repeat(48));
  });

  it('refuses a data directory written by a newer Regdesk', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'FORMAT'), '2\n');
    await expect(start(dir)).rejects.toThrow(
      /written by a newer Regdesk \(data format 2; this Regdesk knows format 1 and older\)\. Run that newer Regdesk, or restore a backup/,
    );
    expect(() => statSync(join(dir, 'redis'))).toThrow(/ENOENT/);
  });

  it('refuses a data directory it cannot write, naming it and REGDESK_DATA_DIR', async () => {
    // A plain file where the directory should be: unusable even for root, whom chmod does not stop.
    const dir = dataDir();
    writeFileSync(dir, 'not a directory');
    await expect(start(dir)).rejects.toThrow(
      `Regdesk cannot write its data directory ${dir} (it is a file, not a directory). Make it a directory this user may write, or set REGDESK_DATA_DIR`,
    );
    await expect(start(join(dir, 'below'))).rejects.toThrow(
      /cannot write its data directory .* \(a part of its path is a file\)/,
    );
  });

  // Root writes through any mode bits: the plain-file case above covers root.
  it.skipIf(process.getuid?.() === 0)('refuses a data directory without write permission', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true, mode: 0o500 });
    try {
      await expect(start(dir)).rejects.toThrow(
        `Regdesk cannot write its data directory ${dir} (permission denied). Make it a directory this user may write, or set REGDESK_DATA_DIR`,
      );
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('says what redis-server logged when it exits while starting', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'redis', 'appendonlydir'), { recursive: true });
    writeFileSync(join(dir, 'redis', 'appendonlydir', 'appendonly.aof.manifest'), 'not a manifest\n');
    const failure = start(dir);
    await expect(failure).rejects.toThrow(
      /redis-server exited while starting \(1\)\. The end of its log \(.*redis\.log\):\n/,
    );
    await expect(failure).rejects.toThrow(/manifest/i);
    // The failed start released the directory.
    expect(() => statSync(join(dir, 'regdesk.lock'))).toThrow(/ENOENT/);
  });
});

describe('testSuiteRedis', () => {
  it('uses REDIS_URL when it is set', async () => {
    const redis = await testSuiteRedis({ REDIS_URL: testRedisUrl() }, () => {});
    expect(redis).toMatchObject({ url: testRedisUrl(), note: 'using REDIS_URL' });
  });

  it('starts a throwaway, password-protected redis-server when nothing answers, and stops it', async () => {
    const lines: string[] = [];
    const nothing = 1; // nothing listens on port 1 of loopback
    const redis = await testSuiteRedis({}, (line) => lines.push(line), nothing);
    const port = Number(new URL(redis.url).port);
    try {
      expect(lines.join('\n')).toMatch(/started a throwaway redis-server at redis:\/\/127\.0\.0\.1:\d+/);
      expect(lines.join('\n')).not.toContain(new URL(redis.url).password);
      await withClient(redis.url, async (client) => {
        expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
      });
      expect(await rawCommand(port, 'GET anything')).toMatch(/^-NOAUTH/);
    } finally {
      await redis.stop();
    }
    expect(await isListening('127.0.0.1', port)).toBe(false);
  });
});
