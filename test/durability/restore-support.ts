import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { runRegdesk } from '../../src/main.js';
import { type Harness, SIGNING_SECRET } from '../helpers/app-harness.js';
import { SlackDriver } from '../helpers/slack-driver.js';

// `npm run build` first: the commands run as an operator runs them, the built CLI in a process of its own.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

/** `regdesk ARGS` with `env` (and only it, beside PATH and HOME): exit code and everything it printed. */
export function regdesk(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, LOG_LEVEL: 'error' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/**
 * The app started again on the same world (the fake Slack, the registrar sandbox and their records)
 * and environment, as after a restart; stop the first with `h.running.stop()`, which keeps the world.
 */
export async function startAgain(h: Harness): Promise<Harness> {
  const running = await runRegdesk({
    role: 'start',
    config: loadConfig(h.env),
    logger: h.logger,
    env: h.env,
    say: () => {},
  });
  const url = running.http?.url ?? '';
  return {
    ...h,
    running,
    url,
    driver: new SlackDriver(url, SIGNING_SECRET, h.slack.url),
    stop: async () => {
      await running.stop();
      await h.slack.stop();
      await h.sandbox.close();
    },
  };
}

/** `/readyz` once: the data incident of a start is recorded before the start returns. */
export async function readyz(h: Harness): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${h.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls `/readyz` until it answers `status`; its body. */
export async function readyzBecomes(h: Harness, status: number): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const res = await fetch(`${h.url}/readyz`).catch(() => undefined);
    if (res?.status === status) return (await res.json()) as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}`);
  }
}

/** Transfer auth codes the registrar sandbox issued: each is one execution of an approved request. */
export const issued = (h: Harness): number =>
  h.sandbox.calls.filter((call) => call.operation === 'domains.authinfo').length;

/** Waits until Slack showed `user` an ephemeral message containing `words`. */
export async function toldEphemerally(h: Harness, user: string, words: string): Promise<void> {
  await h.slack.waitFor((calls) =>
    calls.some(
      (c) => c.method === 'chat.postEphemeral' && c.args.user === user && String(c.args.text).includes(words),
    ),
  );
}
