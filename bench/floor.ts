/**
 * The memory floor (issue #49): a bare Node process that loads the libraries Regdesk loads at start,
 * through their public entry points, and does nothing else. Started with the same Node flags as
 * `regdesk`, its resident size is what any app built on these libraries pays before its own code;
 * Regdesk's idle rows are judged by what they add above it.
 */
import '@slack/bolt';
import 'bullmq';
import 'ioredis';
import 'pino';
import 'zod';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// Listening, as Regdesk's processes do when they are measured: a server is part of any such process.
const server = createServer((_req, res) => res.writeHead(404).end());

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `library floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
