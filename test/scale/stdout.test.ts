import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '../helpers/provided-context.js';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

/** Runs `regdesk <role>` until it is listening, then stops it; stdout and stderr apart. */
async function runUntilListening(role: 'web' | 'worker'): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, role], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      WORKER_PORT: '0',
      REDIS_URL: testRedisUrl(),
      REDIS_ALLOW_EPHEMERAL: '1',
      REDIS_KEY_PREFIX: 'tstdout',
      LOG_LEVEL: 'info',
      REGDESK_PLAYGROUND: '0',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!stderr.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${role} did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return { stdout, stderr };
}

describe('stdout carries only structured JSON log lines', () => {
  it.each(['web', 'worker'] as const)(
    '`regdesk %s`: JSON on stdout, the human-facing lines on stderr',
    async (role) => {
      const { stdout, stderr } = await runUntilListening(role);
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        const entry = JSON.parse(line) as { level?: string; msg?: string; service?: string };
        expect(entry.service, line).toBe('regdesk');
        expect(typeof entry.level, line).toBe('string');
      }
      expect(lines.some((line) => line.includes('"msg":"redis ready"'))).toBe(true);
      expect(stdout).not.toContain('listening on');
      expect(stderr).toContain(
        role === 'web' ? `Regdesk web listening on` : 'worker health and metrics listening on',
      );
    },
  );
});
