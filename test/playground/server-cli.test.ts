import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlaygroundSnapshot } from '../../src/playground/web/protocol.js';
import { testRedisUrl } from '../helpers/provided-context.js';

// `npm test` builds first: this runs the real CLI as a new user would after `npm start`.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

function start(extra: Record<string, string> = {}): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
} {
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: `t${randomBytes(5).toString('hex')}`,
      ...extra,
    },
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return { child, output: () => output };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

const LISTENING = /listening on http:\/\/0\.0\.0\.0:(\d+)/;

describe('regdesk start with no Slack settings', () => {
  it('prints the playground URL as the first next step, redirects / there and serves its API', async () => {
    const proc = start();
    try {
      await expect
        .poll(() => proc.output(), { timeout: 20_000 })
        .toMatch(/No Slack app is configured yet[\s\S]*\n\s*3\./);
      const port = Number(LISTENING.exec(proc.output())?.[1]);
      const steps = proc.output().slice(proc.output().indexOf('Next steps:'));
      const first = steps.split('\n').find((line) => /^\s+1\./.test(line)) ?? '';
      // docs/requirements.md R42: the printed URL carries this process's token; without it, 403.
      const url = new RegExp(`http://localhost:${port}/playground\\?token=[A-Za-z0-9_-]{43}`).exec(
        first,
      )?.[0];
      expect(url).toBeDefined();
      expect(proc.output()).toContain('(Slack: playground)');
      expect(proc.output()).toContain(
        "No Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set: serving the local playground with data of its own; the bot's data is untouched.",
      );

      const root = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/playground');
      expect((await fetch(`http://localhost:${port}/playground/api/state`)).status).toBe(403);
      const login = await fetch(url ?? '', { redirect: 'manual' });
      expect(login.status).toBe(302);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const state = (await (
        await fetch(`http://localhost:${port}/playground/api/state`, { headers: { cookie } })
      ).json()) as PlaygroundSnapshot;
      expect(state.workspace.name).toBe('Playground');
      expect(state.commands.map((command) => command.command)).toContain('/domain');
      // Regdesk's own Slack endpoint stays where Slack expects it, and refuses unsigned requests.
      const unsigned = await fetch(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(unsigned.status).toBe(401);
    } finally {
      expect(await stop(proc.child)).toBe(0);
    }
  });

  it('refuses to start with a real registrar, naming REGDESK_PLAYGROUND and the missing Slack settings', async () => {
    const proc = start({ REGFISH_SANDBOX: '0', VAULT_MASTER_KEY: randomBytes(32).toString('base64') });
    const exited = new Promise<number | null>((resolve) => proc.child.on('exit', (code) => resolve(code)));
    expect(await exited).not.toBe(0);
    expect(proc.output()).toContain('REGDESK_PLAYGROUND');
    expect(proc.output()).toContain('no Slack settings');
    expect(proc.output()).not.toMatch(LISTENING);
  });

  it('REGDESK_PLAYGROUND=0 keeps the playground off', async () => {
    const proc = start({ REGDESK_PLAYGROUND: '0' });
    try {
      await expect
        .poll(() => proc.output(), { timeout: 20_000 })
        .toMatch(/No Slack app is configured yet[\s\S]*\n\s*3\./);
      const port = Number(LISTENING.exec(proc.output())?.[1]);
      expect(proc.output()).not.toContain('/playground');
      expect((await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/playground/api/state`)).status).toBe(404);
    } finally {
      expect(await stop(proc.child)).toBe(0);
    }
  });
});
