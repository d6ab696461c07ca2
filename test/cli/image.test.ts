import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../helpers/provided-context.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The production image leaves the playground out (Dockerfile): its build, laid out here the same way
 * (dist without src/playground, beside the package's node_modules), run as the image runs it.
 */
describe('a build without the playground (the production image)', () => {
  let app: string;
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'regdesk-image-'));
    cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
    rmSync(join(app, 'dist/src/playground'), { recursive: true, force: true });
    for (const name of ['node_modules', 'package.json', 'manifest.yml'])
      symlinkSync(join(ROOT, name), join(app, name));
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it('a start that lost its Slack settings stops and says what to set, instead of serving a playground', async () => {
    const started = run(process.execPath, [join(app, 'dist/src/cli.js'), 'start'], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        REDIS_URL: testRedisUrl(),
        REDIS_ALLOW_EPHEMERAL: '1',
        REDIS_KEY_PREFIX: 'timage',
        REGDESK_DATA_DIR: join(app, 'data'),
      },
      timeout: 30_000,
    });
    const failed = await started.then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('REGDESK_PLAYGROUND: this build has no playground');
    expect(failed?.stderr).toContain('SLACK_SIGNING_SECRET');
  });

  it('still runs its other commands', async () => {
    const { stdout } = await run(process.execPath, [join(app, 'dist/src/cli.js'), '--version'], { cwd: app });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
