import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

// `npm test` builds first: these tests run the real CLI as an operator scales it out.
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

export interface Proc {
  role: 'web' | 'worker';
  child: ChildProcessWithoutNullStreams;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns `regdesk web|worker` and waits for its HTTP port (stderr carries the human-facing line). */
export async function startProcess(role: 'web' | 'worker', env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, [CLI, role], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const pattern = /listening on http:\/\/0\.0\.0\.0:(\d+)/;
  const deadline = Date.now() + 30_000;
  while (!pattern.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`regdesk ${role} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { role, child, port: Number(pattern.exec(output)?.[1]), output: () => output, exited };
}

export async function stopProcess(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const code = await Promise.race([
    proc.exited,
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 15_000).unref()),
  ]);
  if (code === 'hung') proc.child.kill('SIGKILL');
}

/**
 * Stands between Regdesk and the sandbox registrar and records how many assistant calls were in
 * flight at once (docs/requirements.md R13: never more than one per account, across all processes).
 */
export class RegistrarProxy {
  #server?: Server;
  inFlight = 0;
  maxInFlight = 0;
  questions = 0;
  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const target = new URL(this.target);
    this.#server = createServer((req, res) => {
      const assistant = (req.url ?? '').startsWith('/help/search');
      if (assistant) {
        this.questions++;
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      }
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => {
            if (assistant) this.inFlight--;
          });
        },
      );
      upstream.on('error', () => {
        if (assistant) this.inFlight--;
        res.writeHead(502).end();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.#server?.closeAllConnections();
      this.#server?.close(() => resolve());
    });
  }
}
