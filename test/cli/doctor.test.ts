import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  type RedisServerProcess,
  spawnRedisServer,
  stopRedisServer,
  waitUntilAnswering,
} from '../../src/runtime/local-redis.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createRedis, KeySpace, type Redis } from '../../src/shared/redis.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { masterKey } from '../../src/vault/crypto.js';
import { Vault } from '../../src/vault/store.js';
import { runRegdeskCli } from '../helpers/cli.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { LAB_RANGE } from '../helpers/live-check.js';

const BOT_TOKEN = 'xoxb-doctor-test-token';
const VAULT_KEY = randomBytes(32);

/** The line of the report about `subject` (status, subject, what was found). */
function lineAbout(stdout: string, subject: string): string {
  return stdout.split('\n').find((line) => line.includes(`  ${subject}  `)) ?? `(no line about ${subject})`;
}

/**
 * A deployment as an operator runs one: a persistent redis-server (append-only file), the Slack
 * stand-in with the bot token, a registrar sandbox outside the process, the DNS lab's validating
 * resolver, and free ports. Each test breaks one thing and reads what `regdesk doctor` says.
 */
describe('regdesk doctor', () => {
  let lab: DnsLab;
  let slack: FakeSlack;
  let sandbox: Sandbox;
  let server: RedisServerProcess;
  let redis: Redis;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    lab = await startDnsLab();
    slack = await new FakeSlack().start();
    slack.botToken = BOT_TOKEN;
    sandbox = await createSandbox();
    dir = mkdtempSync(join(tmpdir(), 'regdesk-doctor-'));
    const password = randomBytes(16).toString('hex');
    server = spawnRedisServer(await freePort(), password, ['--appendonly', 'yes', '--dir', dir]);
    await waitUntilAnswering(server, password, { say: () => {} });
    const redisUrl = `redis://:${password}@127.0.0.1:${server.port}`;
    const prefix = `tdoc${randomBytes(4).toString('hex')}`;
    env = {
      PATH: process.env.PATH ?? '',
      REGDESK_DATA_DIR: join(dir, 'data'),
      PORT: String(await freePort()),
      WORKER_PORT: String(await freePort()),
      SLACK_SIGNING_SECRET: 'doctor-signing-secret',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      REGFISH_SANDBOX: '1',
      REGFISH_API_URL: sandbox.url,
      REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
      VAULT_MASTER_KEY: VAULT_KEY.toString('base64'),
      DNS_RESOLVERS: lab.resolver,
      LIVE_CHECK_ALLOW: LAB_RANGE,
      DNSSEC_TRUST_ANCHOR: lab.trustAnchor,
    };
    redis = createRedis(redisUrl, 'worker');
    const vault = new Vault(redis, new KeySpace(prefix), masterKey(VAULT_KEY));
    await vault.put({ teamId: 'T0001' }, 'registrar-key', sandbox.apiKey, 'U0ADMIN');
  }, 180_000);
  afterAll(async () => {
    redis?.disconnect();
    if (server !== undefined) await stopRedisServer(server.child, 10_000);
    await slack?.stop();
    await sandbox?.close();
    await lab?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const doctor = (overrides: Record<string, string> = {}, args: string[] = []) =>
    runRegdeskCli(['doctor', ...args], { ...env, ...overrides });

  it('exits 0 with one ok line per check when everything holds', async () => {
    const { code, stdout, stderr } = await doctor();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lineAbout(stdout, 'configuration')).toMatch(
      /^ok .*valid \(Slack: HTTP, one workspace; registrar: the sandbox at/,
    );
    expect(lineAbout(stdout, 'Redis')).toMatch(
      /^ok .*Redis \d+\.\d+\.\d+ at .*persistent \(append-only file\)/,
    );
    expect(lineAbout(stdout, 'Slack T0001')).toMatch(
      new RegExp(`^ok .*works in Acme, with the ${BOT_SCOPES.length} scopes the manifest asks for`),
    );
    expect(lineAbout(stdout, 'registrar key T0001')).toMatch(/^ok .*accepted by http/);
    expect(lineAbout(stdout, 'DNS resolvers')).toMatch(/^ok .*answer and validate DNSSEC/);
    expect(lineAbout(stdout, `PORT ${env.PORT}`)).toMatch(/^ok .*free/);
    expect(lineAbout(stdout, `WORKER_PORT ${env.WORKER_PORT}`)).toMatch(/^ok .*free/);
    expect(stdout.trim().split('\n').at(-1)).toBe('Everything holds.');
  });

  it('speaks German when asked', async () => {
    const { code, stdout } = await doctor({}, ['--lang', 'de']);
    expect(code).toBe(0);
    expect(lineAbout(stdout, 'Konfiguration')).toMatch(/^ok .*gültig/);
    expect(stdout.trim().split('\n').at(-1)).toBe('Alles in Ordnung.');
  });

  it('exits 1 naming the variable of a bad configuration', async () => {
    const { code, stdout } = await doctor({ PORT: 'eighty' });
    expect(code).toBe(1);
    expect(lineAbout(stdout, 'configuration')).toMatch(/^FIX .*PORT/);
    expect(stdout).toContain('One thing to fix');
  });

  it('exits 1 when Redis does not answer, and says where it looked', async () => {
    const closed = await freePort();
    const { code, stdout } = await doctor({ REDIS_URL: `redis://127.0.0.1:${closed}` });
    expect(code).toBe(1);
    expect(lineAbout(stdout, 'Redis')).toMatch(
      new RegExp(`^FIX .*not reachable at redis://127\\.0\\.0\\.1:${closed} \\(.*ECONNREFUSED`),
    );
    // What lives in Redis is said to be unchecked, not passed off as fine.
    expect(lineAbout(stdout, 'registrar')).toMatch(/^note .*not checked/);
  });

  it('exits 1 when Slack has revoked the bot token, or it lacks a scope the manifest asks for', async () => {
    slack.override('auth.test', () => ({ body: { ok: false, error: 'token_revoked' } }));
    const revoked = await doctor();
    expect(revoked.code).toBe(1);
    expect(lineAbout(revoked.stdout, 'Slack')).toMatch(
      /^FIX .*refuses the bot token \(token_revoked\): reinstall/,
    );

    slack.scopes = BOT_SCOPES.filter((scope) => scope !== 'commands' && scope !== 'users:read');
    try {
      const narrow = await doctor();
      expect(narrow.code).toBe(1);
      expect(lineAbout(narrow.stdout, 'Slack T0001')).toMatch(
        /^FIX .*lacks scopes .*: commands, users:read\./,
      );
    } finally {
      slack.scopes = BOT_SCOPES;
    }
  });

  it('exits 1 for a workspace whose registrar key the registrar rejects', async () => {
    const vault = new Vault(redis, new KeySpace(env.REDIS_KEY_PREFIX ?? ''), masterKey(VAULT_KEY));
    await vault.put({ teamId: 'T0BAD' }, 'registrar-key', 'not-a-key-the-registrar-knows', 'U0ADMIN');
    try {
      const { code, stdout } = await doctor();
      expect(code).toBe(1);
      expect(lineAbout(stdout, 'registrar key T0BAD')).toMatch(/^FIX .*rejected .*\(401\).*\/domain key/);
      expect(lineAbout(stdout, 'registrar key T0001')).toMatch(/^ok /);
    } finally {
      await vault.delete({ teamId: 'T0BAD' }, 'registrar-key');
    }
  });

  it('exits 1 when another program holds the port, and when the resolvers do not answer', async () => {
    const sockets = new Set<Socket>();
    const squatter: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.end('not http\r\n');
    });
    await new Promise<void>((resolve) => squatter.listen(Number(env.PORT), '127.0.0.1', resolve));
    try {
      const { code, stdout } = await doctor({ DNS_RESOLVERS: `127.0.0.1:${await freePort()}` });
      expect(code).toBe(1);
      expect(lineAbout(stdout, `PORT ${env.PORT}`)).toMatch(/^FIX .*another program.*another PORT/);
      expect(lineAbout(stdout, 'DNS resolvers')).toMatch(/^FIX .*did not answer/);
      expect(stdout).toContain('2 things to fix');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('in OAuth mode checks each installed workspace’s own token: one revoked is named, the others pass', async () => {
    const vault = new Vault(redis, new KeySpace(env.REDIS_KEY_PREFIX ?? ''), masterKey(VAULT_KEY));
    const install = (team: string, token: string) =>
      vault.put(
        { teamId: team },
        'slack-installation',
        JSON.stringify({ team: { id: team }, bot: { token } }),
        'oauth:U1',
      );
    await install('T0GOOD', BOT_TOKEN);
    await install('T0GONE', 'xoxb-uninstalled-long-ago');
    try {
      const { code, stdout } = await doctor({
        SLACK_BOT_TOKEN: '',
        SLACK_CLIENT_ID: '1.2',
        SLACK_CLIENT_SECRET: 'doctor-client-secret',
        SLACK_STATE_SECRET: 'doctor-state-secret',
        // OAuth installs never share the sandbox's demo key: the sandbox stands in for the registrar.
        REGFISH_SANDBOX: '0',
      });
      expect(code).toBe(1);
      expect(lineAbout(stdout, 'configuration')).toContain('HTTP, installed by OAuth');
      expect(lineAbout(stdout, 'Slack T0GOOD')).toMatch(/^ok .*the bot token works/);
      expect(lineAbout(stdout, 'Slack T0GONE')).toMatch(/^FIX .*refuses the bot token \(invalid_auth\)/);
    } finally {
      await vault.delete({ teamId: 'T0GOOD' }, 'slack-installation');
      await vault.delete({ teamId: 'T0GONE' }, 'slack-installation');
    }
  });

  it('exits 2 when it cannot run as asked', async () => {
    const { code, stderr } = await doctor({}, ['--lang', 'fr']);
    expect(code).toBe(2);
    expect(stderr).toContain('--lang');
  });
});
