import { mkdtempSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureLocalRedis, isListening } from '../../src/shared/local-redis.js';
import { createRedis, waitForReady } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

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

describe('ensureLocalRedis', () => {
  it('uses REDIS_URL when it is set', async () => {
    const redis = await ensureLocalRedis({ REDIS_URL: testRedisUrl() }, () => {});
    expect(redis).toEqual({ url: testRedisUrl(), note: 'using REDIS_URL' });
  });

  it('starts a private redis-server when nothing answers, says so, and stops it on request', async () => {
    const lines: string[] = [];
    const free = 1; // nothing listens on port 1 of loopback
    const local = await ensureLocalRedis({}, (line) => lines.push(line), {
      defaultPort: free,
      workDir: mkdtempSync(join(tmpdir(), 'regdesk-redis-')),
    });
    try {
      expect(local.child).toBeDefined();
      expect(lines.join('\n')).toMatch(/started a private redis-server at redis:\/\/127\.0\.0\.1:\d+/);
      const client = createRedis(local.url, 'request');
      await waitForReady(client);
      expect(await client.ping()).toBe('PONG');
      client.disconnect();
      // Password-protected: without it nothing can be read; the password is never printed.
      const password = new URL(local.url).password;
      expect(password.length).toBeGreaterThanOrEqual(32);
      expect(lines.join('\n')).not.toContain(password);
      expect(await rawCommand(Number(new URL(local.url).port), 'GET anything')).toMatch(/^-NOAUTH/);
    } finally {
      local.child?.kill('SIGTERM');
    }
    const port = Number(new URL(local.url).port);
    await expect.poll(() => isListening('127.0.0.1', port), { timeout: 5_000 }).toBe(false);
  });
});
