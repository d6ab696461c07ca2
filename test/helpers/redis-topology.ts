import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { isListening } from '../../src/runtime/local-redis.js';

const run = promisify(execFile);

/**
 * Real Redis topologies on loopback for the scale tests: Debian's redis-server (the same binary
 * `src/runtime/local-redis.ts` installs when missing), in a temp dir, stopped and removed after.
 */
export interface Topology {
  /** The variables a Regdesk process needs to reach it (docs/requirements.md C2). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ClusterTopology extends Topology {
  ports: number[];
  password: string;
  /** A client for one node, authenticated. */
  node(port: number): Redis;
}

export interface SentinelTopology extends Topology {
  masterName: string;
  sentinelPort: number;
  /** The port of the current master, as Sentinel names it. */
  masterPort(): Promise<number>;
  /**
   * `SENTINEL FAILOVER`, retried while Sentinel has not yet found a replica good enough; resolves
   * with the new master's port once Sentinel names it.
   */
  failover(): Promise<number>;
}

async function freePort(): Promise<number> {
  for (;;) {
    // Below Linux's ephemeral range (32768 and up), where an outgoing connection may hold the port;
    // cluster nodes also take port + 10000 for their bus.
    const port = 10_000 + Math.floor(Math.random() * 12_000);
    if (!(await isListening('127.0.0.1', port, 200)) && !(await isListening('127.0.0.1', port + 10_000, 200)))
      return port;
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

class Processes {
  readonly children: ChildProcess[] = [];
  readonly dir = mkdtempSync(join(tmpdir(), 'regdesk-topology-'));

  /** A redis-server with `lines` as its configuration file (passwords never on a command line). */
  async server(name: string, port: number, lines: string[], sentinel = false): Promise<void> {
    const file = join(this.dir, `${name}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        'save ""',
        'appendonly no',
        ...(sentinel ? [] : ['maxmemory-policy noeviction']),
        ...lines,
        '',
      ].join('\n'),
    );
    const child = spawn('redis-server', sentinel ? [file, '--sentinel'] : [file], { stdio: 'ignore' });
    this.children.push(child);
    await waitUntil(`${name} on port ${port}`, () => isListening('127.0.0.1', port, 200), 10_000);
  }

  async stop(): Promise<void> {
    await this.stopAll();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Every server killed (SIGKILL: nothing saved on the way out); the folder stays. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    this.children.length = 0;
  }
}

/** Three masters, no replicas, all 16384 slots assigned; `requirepass` so credentials are exercised. */
export async function startRedisCluster(): Promise<ClusterTopology> {
  const processes = new Processes();
  const password = randomBytes(12).toString('hex');
  const ports: number[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      ports.push(port);
      await processes.server(`cluster-${port}`, port, [
        'cluster-enabled yes',
        `cluster-config-file nodes-${port}.conf`,
        'cluster-node-timeout 2000',
        `requirepass ${password}`,
        `masterauth ${password}`,
      ]);
    }
    await run(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-yes'],
      { env: { ...process.env, REDISCLI_AUTH: password }, timeout: 30_000 },
    );
    const node = (port: number) =>
      new Redis({ host: '127.0.0.1', port, password, lazyConnect: false, maxRetriesPerRequest: 1 });
    for (const port of ports) {
      const client = node(port);
      try {
        await waitUntil(`cluster state ok on ${port}`, async () =>
          (await client.cluster('INFO')).includes('cluster_state:ok'),
        );
      } finally {
        client.disconnect();
      }
    }
    return {
      ports,
      password,
      node,
      env: {
        REDIS_CLUSTER_NODES: ports.map((port) => `127.0.0.1:${port}`).join(','),
        REDIS_PASSWORD: password,
        // The suite's own throwaway servers persist nothing, on purpose.
        REDIS_ALLOW_EPHEMERAL: '1',
      },
      stop: () => processes.stop(),
    };
  } catch (error) {
    await processes.stop();
    throw error;
  }
}

/** One master, one replica and one sentinel (quorum 1), with quick fail-over timings. */
export async function startRedisSentinel(): Promise<SentinelTopology> {
  const processes = new Processes();
  const masterName = 'regdesk-test';
  try {
    const masterPort = await freePort();
    await processes.server('master', masterPort, []);
    const replicaPort = await freePort();
    await processes.server('replica', replicaPort, [`replicaof 127.0.0.1 ${masterPort}`]);
    const sentinelPort = await freePort();
    await processes.server(
      'sentinel',
      sentinelPort,
      [
        `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${masterName} 2000`,
        `sentinel failover-timeout ${masterName} 10000`,
        `sentinel parallel-syncs ${masterName} 1`,
      ],
      true,
    );
    const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, maxRetriesPerRequest: 1 });
    const masterPortNow = async () => {
      const [, port] = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName)) as string[];
      return Number(port);
    };
    // Sentinel learns of the replica from the master's INFO; a fail-over needs it known and in sync.
    await waitUntil('the replica to be known to Sentinel', async () => {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', masterName)) as string[][];
      return replicas.some((fields) => {
        const flags = fields[fields.indexOf('flags') + 1] ?? '';
        const link = fields[fields.indexOf('master-link-status') + 1] ?? '';
        return flags === 'slave' && link === 'ok';
      });
    });
    return {
      masterName,
      sentinelPort,
      masterPort: masterPortNow,
      failover: async () => {
        const before = await masterPortNow();
        await waitUntil('Sentinel to accept the fail-over', async () => {
          await sentinel.call('SENTINEL', 'FAILOVER', masterName);
          return true;
        });
        await waitUntil('the master to move', async () => (await masterPortNow()) !== before);
        return masterPortNow();
      },
      env: {
        REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`,
        REDIS_SENTINEL_MASTER: masterName,
        REDIS_ALLOW_EPHEMERAL: '1',
      },
      stop: async () => {
        sentinel.disconnect();
        await processes.stop();
      },
    };
  } catch (error) {
    await processes.stop();
    throw error;
  }
}

export interface SingleServer extends Topology {
  port: number;
  url: string;
  /** Its data folder (dump.rdb, appendonlydir). */
  dir: string;
  /** A client of its own (closed by `stop`). */
  client: Redis;
  /** Stops the server without saving, runs `between` (e.g. put an older copy in place), starts it again. */
  restart(between?: () => void): Promise<void>;
}

/**
 * One redis-server of a test's own, `lines` added to its configuration (persistence, say): for tests
 * that flush, restore or stop Redis, which the suite's shared server must never see.
 */
export async function startRedisServer(lines: string[] = []): Promise<SingleServer> {
  const processes = new Processes();
  const port = await freePort();
  await processes.server(`single-${port}`, port, lines);
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, lazyConnect: false });
  client.on('error', () => {});
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir: processes.dir,
    client,
    env: { REDIS_URL: `redis://127.0.0.1:${port}` },
    restart: async (between) => {
      await processes.stopAll();
      between?.();
      await processes.server(`single-${port}`, port, lines);
    },
    stop: async () => {
      client.disconnect();
      await processes.stop();
    },
  };
}
