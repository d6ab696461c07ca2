import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findProgram } from '../helpers/debian.js';

// `npm test` builds first: the child process runs the built client, in a network namespace of its own.
const CLIENT = fileURLToPath(new URL('../../dist/src/dns/client.js', import.meta.url));
const UNSHARE = findProgram('unshare');
const canIsolate = process.getuid?.() === 0 && UNSHARE !== undefined;

/**
 * In a fresh network namespace nothing has a route, not even loopback (it is down): every address is
 * unreachable, as an IPv6-only nameserver is from an IPv4-only pod. Each question must end as "could
 * not check" (ENETUNREACH), the process must not die, and no packet can leave this machine.
 */
const SCRIPT = `
const { DnsClient, DnsUnreachable } = await import(${JSON.stringify(CLIENT)});
let uncaught = 0;
process.on('uncaughtException', () => uncaught++);
const results = [];
for (const host of ['192.0.2.53', '2001:db8::53', '127.0.0.1']) {
  const client = new DnsClient({ resolvers: [{ host, port: 53 }], timeoutMs: 500 });
  try {
    await client.resolve('example.de', 'SOA');
    results.push(host + ' answered');
  } catch (error) {
    results.push(host + ' ' + (error instanceof DnsUnreachable ? error.kind + ' ' + error.detail : 'threw ' + error));
  }
}
await new Promise((resolve) => setTimeout(resolve, 100));
console.log(JSON.stringify({ results, uncaught }));
`;

describe('the DNS client on a host without a route', () => {
  it.skipIf(!canIsolate)(
    'ends every question as "could not check" (unshare -n: needs root and util-linux)',
    async () => {
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          UNSHARE ?? 'unshare',
          ['-n', process.execPath, '--input-type=module', '-e', SCRIPT],
          { timeout: 30_000 },
          (error, stdout, stderr) =>
            error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`)),
        );
      });
      const { results, uncaught } = JSON.parse(output) as { results: string[]; uncaught: number };
      expect(uncaught).toBe(0);
      // IPv6 has no source address at all there (EADDRNOTAVAIL); either way: sent nowhere, said so.
      expect(results).toHaveLength(3);
      for (const result of results) expect(result).toMatch(/^\S+ network (ENETUNREACH|EADDRNOTAVAIL)$/);
    },
  );
});
