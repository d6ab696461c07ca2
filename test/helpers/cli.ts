import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `npm test` builds first: these helpers run the real CLI as an operator does.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

/** `regdesk ARGS…` with `env` (and `stdin`), once it has exited: its exit code and both outputs. */
export function runRegdeskCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
