import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUN_DIR = fileURLToPath(new URL('../fixtures/reporter-run/', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs vitest on one folder of fixture files with the suite's own summary reporter. */
function runFixtures(dir: 'passing' | 'broken'): Promise<{ code: number | null; lastLine: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', 'vitest.config.ts', '--dir', dir], {
      cwd: RUN_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', CI: '1' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = out.trim().split('\n');
      resolve({ code, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}

describe('the closing summary line', () => {
  it('counts a file that throws at import and a failing hook as failures, with a non-zero exit', async () => {
    const run = await runFixtures('broken');
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('3 passed, 2 failed, 0 skipped');
  });

  it('reads 0 failed only for a green run', async () => {
    const run = await runFixtures('passing');
    expect(run.code).toBe(0);
    expect(run.lastLine).toBe('2 passed, 0 failed, 0 skipped');
  });
});
