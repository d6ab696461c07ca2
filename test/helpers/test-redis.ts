import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureRedisServer,
  freePort,
  isListening,
  spawnRedisServer,
  stopRedisServer,
  waitUntilAnswering,
} from '../../src/runtime/local-redis.js';

export interface TestRedis {
  url: string;
  note: string;
  stop(): Promise<void>;
}

/**
 * The test suite's Redis, which may forget everything (tests use a key prefix each and never need
 * data to outlive the run): REDIS_URL when set, else the Redis on 127.0.0.1:6379 when it answers,
 * else a throwaway redis-server of its own on a free port, keeping nothing on disk, stopped with the
 * run (installed from Debian's packages when missing and we are root).
 */
export async function testSuiteRedis(
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
  /** Where a shared Redis may answer; tests of this function pass one where nothing does. */
  defaultPort = 6379,
): Promise<TestRedis> {
  const none = async () => {};
  if (env.REDIS_URL) return { url: env.REDIS_URL, note: 'using REDIS_URL', stop: none };
  if (await isListening('127.0.0.1', defaultPort)) {
    const url = `redis://127.0.0.1:${defaultPort}`;
    return { url, note: `using the Redis on 127.0.0.1:${defaultPort}`, stop: none };
  }
  ensureRedisServer(say, `No Redis answers on 127.0.0.1:${defaultPort} and REDIS_URL is not set`);
  const dir = mkdtempSync(join(tmpdir(), 'regdesk-test-redis-'));
  // Loopback only, and a password of this run's own (docs/requirements.md R25).
  const password = randomBytes(24).toString('hex');
  const port = await freePort();
  const server = spawnRedisServer(port, password, ['--save', '', '--appendonly', 'no', '--dir', dir]);
  await waitUntilAnswering(server, password, { say });
  say(`No Redis on 127.0.0.1:${defaultPort}: started a throwaway redis-server at redis://127.0.0.1:${port}.`);
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    note: `throwaway redis-server at redis://127.0.0.1:${port}`,
    stop: async () => {
      await stopRedisServer(server.child, 5_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
