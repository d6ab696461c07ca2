import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAUNCHER = join(ROOT, 'bin', 'regdesk');
const scratch = mkdtempSync(join(tmpdir(), 'regdesk-launcher-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A `node` on PATH that prints how it was called, one argument per line, instead of running. */
function fakeNode(version: string): string {
  const dir = join(scratch, `node-${version}`);
  mkdirSync(dir, { recursive: true });
  const node = join(dir, 'node');
  writeFileSync(
    node,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v${version}; exit 0; fi\nfor a in "$@"; do echo "$a"; done\n`,
  );
  chmodSync(node, 0o755);
  return dir;
}

const env = (nodeDir: string) => ({ PATH: `${nodeDir}:/usr/bin:/bin`, HOME: scratch });

/**
 * bin/regdesk is where Node's launch flags live (docs/architecture.md "Memory"): `npx regdesk`,
 * `npm start` and the Docker image all start Regdesk through it.
 */
describe('the launcher', () => {
  it("gives every runtime the small-heap flags and size-over-speed, the image's Node 26 included", async () => {
    const flags = async (version: string) =>
      (await run('sh', [LAUNCHER, '--node-flags'], { env: { ...env(fakeNode(version)) } })).stdout.trim();
    for (const version of ['20.20.2', '25.1.0', '26.10.0']) {
      expect(await flags(version)).toBe('--max-semi-space-size=1 --v8-pool-size=1 --optimize-for-size');
    }
  });

  it('execs node with the flags, `--`, the CLI and every argument, also through npm’s bin link', async () => {
    const bin = join(scratch, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(LAUNCHER, join(bin, 'regdesk'));
    const { stdout } = await run(join(bin, 'regdesk'), ['--env-file', 'my file.env', 'start'], {
      env: env(fakeNode('26.10.0')),
    });
    expect(stdout.split('\n').filter((line) => line !== '')).toEqual([
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '--optimize-for-size',
      '--',
      join(ROOT, 'dist', 'src', 'cli.js'),
      '--env-file',
      'my file.env',
      'start',
    ]);
  });

  it('runs the built CLI', async () => {
    const { stdout } = await run(LAUNCHER, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
