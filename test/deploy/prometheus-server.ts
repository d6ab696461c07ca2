import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { findProgram, installDebianPackages, isRoot } from '../helpers/debian.js';

/**
 * A real Prometheus server (Debian's `prometheus` package, the same one that brings promtool) for the
 * deployment test: started on a config file, asked through its HTTP API, stopped.
 */

/** Finds the prometheus binary, installing Debian's package when it is missing and we are root. */
export function ensurePrometheus(
  log: (line: string) => void = (line) => console.log(`[test] ${line}`),
): string {
  const found = findProgram('prometheus');
  if (found !== undefined) return found;
  if (!isRoot()) {
    throw new Error(
      "The deployment test needs Debian's prometheus package. Install it with `sudo apt-get install -y prometheus`.",
    );
  }
  log("prometheus is missing: installing Debian's prometheus package (apt-get) ...");
  installDebianPackages(['prometheus']);
  const installed = findProgram('prometheus');
  if (installed === undefined) throw new Error('apt-get installed prometheus, but the binary is missing.');
  return installed;
}

/** A TCP port free on 127.0.0.1 right now (Prometheus takes no port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PrometheusServer {
  url: string;
  /** GET an API path (`/api/v1/targets`), its `data` once Prometheus answers `success`. */
  api<T>(path: string): Promise<T>;
  output(): string;
  stop(): Promise<void>;
}

export async function startPrometheus(configFile: string, dataDir: string): Promise<PrometheusServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    ensurePrometheus(),
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${dataDir}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const hung = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(hung);
  };
  // Ready once /-/ready answers 200 (the TSDB opened, the config and the rule files loaded).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited:\n${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async api<T>(path: string): Promise<T> {
      const body = (await (await fetch(`${url}${path}`)).json()) as {
        status: string;
        data: T;
        error?: string;
      };
      if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? body.status}`);
      return body.data;
    },
    output: () => output,
    stop,
  };
}
