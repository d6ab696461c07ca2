import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../helpers/provided-context.js';
import { SlackDriver } from '../helpers/slack-driver.js';

// `npm test` builds first: these tests run the real CLI as an operator would.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
/** What `npx regdesk`, `npm start` and the image run: Node with Regdesk's launch flags. */
const LAUNCHER = fileURLToPath(new URL('../../bin/regdesk', import.meta.url));

interface Proc {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The CLI under this test's node; `asExecutable` runs it as `npx regdesk` does, through bin/regdesk:
 * node from PATH with the launch flags chosen there (the CI's PATH leads to the Node under test).
 */
function run(args: string[], env: Record<string, string>, asExecutable = false): Proc {
  const [command, commandArgs] = asExecutable ? [LAUNCHER, args] : [process.execPath, [CLI, ...args]];
  const child = spawn(command, commandArgs, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A spawn that fails (EAGAIN on a crowded machine) emits 'error' and never 'close': fail with the
  // reason instead of waiting out the test's timeout.
  const exited = new Promise<number | null>((resolve, reject) => {
    // 'close', not 'exit': the output is complete by then.
    child.on('close', (code) => resolve(code));
    child.on('error', reject);
  });
  return { child, output: () => output, exited };
}

async function listeningPort(proc: Proc): Promise<number> {
  await expect
    .poll(() => /listening on http:\/\/0\.0\.0\.0:(\d+)/.test(proc.output()), { timeout: 10_000 })
    .toBe(true);
  return Number(/listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(proc.output())?.[1]);
}

describe('regdesk CLI', () => {
  it('lists its commands in --help', async () => {
    const proc = run(['--help'], {});
    expect(await proc.exited).toBe(0);
    for (const command of ['start', 'web', 'worker']) expect(proc.output()).toContain(command);
    expect(proc.output()).toContain('--env-file <path>');
  });

  it('exits non-zero naming VAULT_MASTER_KEY when it is not base64 outside the sandbox', async () => {
    const proc = run(['start'], {
      VAULT_MASTER_KEY: 'not-base64',
      REGFISH_SANDBOX: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
    });
    expect(await proc.exited).not.toBe(0);
    expect(proc.output()).toContain('VAULT_MASTER_KEY');
    expect(proc.output()).not.toContain('not-base64');
  });

  it('starts with no settings, says what to configure, and stops on SIGTERM with exit 0; a restart is quick', async () => {
    const env = {
      PORT: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: 'tcli',
    };
    const first = run(['start'], env);
    const port = await listeningPort(first);
    await expect.poll(() => first.output(), { timeout: 10_000 }).toContain('No Slack app is configured yet');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    const restartStarted = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = run(['start'], env);
    await listeningPort(second);
    expect(Date.now() - restartStarted).toBeLessThan(10_000);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('prints its version', async () => {
    const proc = run(['--version'], {});
    expect(await proc.exited).toBe(0);
    expect(proc.output().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs as its own executable, with the launch flags of its #! line (as npx and the image run it)', async () => {
    // An unknown flag or a missing `env -S` would make node refuse to start.
    const child = spawn(CLI, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, output: output.trim() }).toMatchObject({
      code: 0,
      output: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
  });

  // A signal at any moment of start-up takes the graceful path (docs/requirements.md R20): every step
  // logs its name at debug level, and each run is signalled right as one step begins.
  it.each([
    ['redis', 'SIGTERM'],
    ['redis-check', 'SIGINT'],
    ['registrar', 'SIGTERM'],
    ['services', 'SIGINT'],
    ['http', 'SIGTERM'],
    ['workers', 'SIGINT'],
    ['ready', 'SIGTERM'],
  ] as const)('a %s during start-up step "%s" shuts down gracefully with exit 0', async (step, signal) => {
    const proc = run(['start'], {
      PORT: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: 'tclisig',
      LOG_LEVEL: 'debug',
    });
    await expect.poll(() => proc.output(), { timeout: 15_000 }).toContain(`"step":"${step}"`);
    proc.child.kill(signal);
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain(`${signal}: shutting down`);
    expect(proc.output()).not.toMatch(/\n\s+at /);
  });

  it('a signal while its modules are still loading also exits 0', async () => {
    // The entry installs signal handling before importing the program. A signal before Node runs the
    // entry at all ends the process the default way (no exit code), which says nothing about Regdesk:
    // then again, a little later, so the test holds on a busy machine, where booting Node takes longer.
    for (const delay of [150, 300, 600, 1_200, 2_400]) {
      const proc = run(['start'], {
        PORT: '0',
        REDIS_URL: testRedisUrl(),
        REDIS_ALLOW_EPHEMERAL: '1',
        REDIS_KEY_PREFIX: 'tclisig',
      });
      await new Promise((resolve) => setTimeout(resolve, delay));
      proc.child.kill('SIGTERM');
      const code = await proc.exited;
      if (code === null) continue;
      expect(code).toBe(0);
      expect(proc.output()).toContain('SIGTERM: shutting down');
      return;
    }
    throw new Error('Node never ran the entry within 2.4 s of starting');
  });

  it('`sandbox` serves the registrar API with the given demo key', async () => {
    const proc = run(['sandbox', '--port', '0', '--api-key', 'cli-demo-key'], {});
    try {
      await expect
        .poll(() => /listening on (http:\/\/\S+)/.test(proc.output()), { timeout: 10_000 })
        .toBe(true);
      const url = /listening on (http:\/\/\S+)/.exec(proc.output())?.[1] ?? '';
      const ok = await fetch(`${url}/domains/example.com`, { headers: { 'x-api-key': 'cli-demo-key' } });
      expect(await ok.json()).toMatchObject({ success: true, response: { domain: 'example.com' } });
      const denied = await fetch(`${url}/domains/example.com`);
      expect(denied.status).toBe(401);
    } finally {
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    }
  });

  it('`web` answers a signed /domain help as a separate process', async () => {
    const secret = 'cli-test-signing-secret';
    const proc = run(['web'], {
      PORT: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: 'tcliweb',
      SLACK_SIGNING_SECRET: secret,
      SLACK_BOT_TOKEN: 'xoxb-cli-test',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      REGFISH_SANDBOX: '1',
    });
    try {
      const port = await listeningPort(proc);
      const driver = new SlackDriver(`http://127.0.0.1:${port}`, secret, 'http://127.0.0.1:9');
      const res = await driver.command('/domain', 'help');
      expect(res.status).toBe(200);
      expect(res.elapsedMs).toBeLessThan(3_000);
      expect((res.json() as { response_type: string }).response_type).toBe('ephemeral');
    } finally {
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    }
  });
});

// `--env-file` is run through the executable, as operators run it: its #! line ends Node's own options
// with `--`, without which Node itself would act on an `--env-file` among the script's arguments.
describe('regdesk --env-file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'regdesk-env-file-'));
  afterAll(async () => {
    await run(['--env-file', file, 'vault', 'delete', '--team', 'T0ENVF1'], {}, true).exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const prefix = `tenv${randomBytes(4).toString('hex')}`;
  const file = join(dir, 'regdesk.env');
  writeFileSync(
    file,
    [
      '# Like regdesk.env.example: comments, quotes, and empty values that take their defaults.',
      `REDIS_URL=${testRedisUrl()}`,
      'REDIS_ALLOW_EPHEMERAL=1',
      `REDIS_KEY_PREFIX=${prefix}`,
      `VAULT_MASTER_KEY="${randomBytes(32).toString('base64')}"`,
      'REGFISH_SANDBOX=1',
      'SLACK_BOT_TOKEN=',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );

  it('reads the settings from the file before the configuration, for every command', async () => {
    // Nothing but PATH and HOME in the environment: Redis, prefix and master key come from the file.
    const set = run(['--env-file', file, 'vault', 'set', '--team', 'T0ENVF1'], {}, true);
    set.child.stdin.end('rf_env_file_key_5678\n');
    expect(await set.exited).toBe(0);
    // The option may also follow the command, as for any global option.
    const list = run(['vault', 'list', '--env-file', file], {}, true);
    expect(await list.exited).toBe(0);
    expect(list.output()).toMatch(/-:T0ENVF1\tregistrar-key\t••••5678\t/);
  });

  it('lets variables already set in the environment win over the file', async () => {
    const list = run(['--env-file', file, 'vault', 'list'], { REDIS_KEY_PREFIX: `${prefix}other` }, true);
    expect(await list.exited).toBe(0);
    expect(list.output()).toContain('The vault is empty');
    expect(list.output()).not.toContain('T0ENVF1');
  });

  it('exits 1 with one line naming a file that is missing or not a file', async () => {
    const missing = join(dir, 'missing.env');
    for (const [path, why] of [
      [missing, 'no such file'],
      [dir, 'it is a directory'],
    ] as const) {
      const proc = run(['--env-file', path, 'vault', 'list'], {}, true);
      expect(await proc.exited).toBe(1);
      expect(proc.output()).toBe(`regdesk: cannot read the env file ${path}: ${why}\n`);
    }
  });
});
