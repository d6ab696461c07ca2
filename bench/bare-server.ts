/**
 * The ack-latency baseline, run as a child process like Regdesk: a bare `node:http` server that only
 * verifies Slack's signature (HMAC-SHA256 over `v0:{timestamp}:{body}`, compared in constant time) and
 * answers 200. Whatever Regdesk adds on top of this is framework and feature cost.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const secret = process.env.SLACK_SIGNING_SECRET ?? '';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const timestamp = String(req.headers['x-slack-request-timestamp'] ?? '');
    const given = Buffer.from(String(req.headers['x-slack-signature'] ?? ''));
    const hmac = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(Buffer.concat(chunks));
    const expected = Buffer.from(`v0=${hmac.digest('hex')}`);
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    res.writeHead(ok ? 200 : 401).end();
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(
    `bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
