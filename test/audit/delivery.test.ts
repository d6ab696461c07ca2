import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditDelivery } from '../../src/features/audit/delivery.js';
import { AuditOutbox } from '../../src/features/audit/outbox.js';
import { AuditLog } from '../../src/features/audit/service.js';
import type { AuditSink } from '../../src/features/audit/sink.js';
import { syslogSink } from '../../src/features/audit/syslog.js';
import { webhookSignature, webhookSink } from '../../src/features/audit/webhook.js';
import { createLogger } from '../../src/shared/logger.js';
import { createMetrics } from '../../src/shared/metrics.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const SECRET = 'a-test-secret-of-some-length';
/** Short waits, so outages pass quickly; nothing below depends on how fast anything is. */
const FAST = { backoff: { firstMs: 20, maxMs: 200 }, pollMs: 50, leaseMs: 3_000 };
const POLL = { timeout: 60_000, interval: 100 };

interface Received {
  body: Record<string, unknown>;
  raw: string;
  signature: string | undefined;
}

/** docs/requirements.md R52, contract §3 "Audit": at least once, in order per workspace, across outages and restarts. */
describe('audit sinks', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const logger = createLogger({ level: 'silent' });
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    redis.disconnect();
  });

  function deliverer(keys: KeySpace, sinks: AuditSink[], metrics = createMetrics()): AuditDelivery {
    const delivery = new AuditDelivery({ redis, keys, logger, metrics, sinks, ...FAST }).start();
    closers.push(() => delivery.close());
    return delivery;
  }

  it('delivers every entry to a webhook that fails and hangs for a while, in order, signed, across a restart', async () => {
    // The receiver: 500 for its first answers, then one request left without an answer, then 200.
    const received: Received[] = [];
    let requests = 0;
    const hanging: ServerResponse[] = [];
    const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests++;
        const raw = Buffer.concat(chunks).toString('utf8');
        if (requests <= 6) {
          res.writeHead(500).end();
          return;
        }
        if (requests === 7) {
          hanging.push(res);
          return;
        }
        received.push({
          raw,
          body: JSON.parse(raw) as Record<string, unknown>,
          signature: req.headers['x-regdesk-signature'] as string | undefined,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;

    const keys = new KeySpace(`tdl${randomBytes(4).toString('hex')}`);
    const audit = new AuditLog(redis, keys, { webhook: { url, secret: SECRET } });
    const teams = ['TSINKA', 'TSINKB', 'TSINKC'];
    const written = new Map<string, string[]>(teams.map((team) => [team, []]));
    const write = async (round: number) => {
      for (let i = 0; i < 8; i++)
        for (const team of teams) {
          const action = i % 4 === 3 ? 'refuse' : 'approve';
          const id = await audit.append(
            { teamId: team },
            { action, actor: 'U1', requestId: `apr_${round}_${i}` },
          );
          written.get(team)?.push(id);
        }
    };
    const sink = () => webhookSink({ url, secret: SECRET, timeoutMs: 500 });
    const metrics = createMetrics();

    await write(1);
    const first = deliverer(keys, [sink()], metrics);
    await expect.poll(() => received.length, POLL).toBeGreaterThanOrEqual(5);
    // A restart in the middle: the first deliverer stops, entries keep coming, another takes over.
    await first.close();
    await write(2);
    deliverer(keys, [sink()], metrics);
    await write(3);

    const ids = (team: string) =>
      received.filter((got) => got.body.team === team).map((got) => String(got.body.id));
    for (const team of teams)
      await expect.poll(() => new Set(ids(team)).size, POLL).toBe(written.get(team)?.length);

    for (const team of teams) {
      const got = ids(team);
      // Every entry, in the order written; a repeat only ever repeats the entry just delivered.
      expect([...new Set(got)]).toEqual(written.get(team));
      got.forEach((id, i) => {
        if (i > 0 && got.indexOf(id) !== i) expect(got[i - 1]).toBe(id);
      });
    }
    for (const got of received) {
      expect(got.signature).toBe(webhookSignature(SECRET, got.raw));
      expect(got.body).toMatchObject({
        team: expect.stringMatching(/^TSINK/),
        id: expect.stringMatching(/^\d+-\d+$/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        prev: expect.stringMatching(/^[0-9a-f]{64}$/),
        position: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-/),
      });
    }
    expect(await metrics.registry.getSingleMetricAsString('regdesk_audit_delivery_failures_total')).toMatch(
      /^regdesk_audit_delivery_failures_total\{sink="webhook"\} ([7-9]|\d\d+)$/m,
    );
    // Delivered and acknowledged: each outbox is trimmed and nothing is left to deliver.
    const outbox = new AuditOutbox(redis, keys, ['webhook']);
    await expect.poll(async () => (await outbox.backlog()).get('webhook'), POLL).toBe(0);
    for (const team of teams)
      await expect.poll(() => redis.xlen(keys.key(`ws:-:${team}`, 'audit', 'outbox')), POLL).toBe(0);
  });

  /** `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD MSG` (RFC 5424 §6). */
  const RFC5424 =
    /^<(\d{1,3})>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\S+) regdesk (\d+) audit - (\{.*\})$/;

  function parsed(line: string): { pri: number; msg: Record<string, unknown> } {
    const match = RFC5424.exec(line);
    if (match === null) throw new Error(`not RFC 5424: ${line}`);
    return { pri: Number(match[1]), msg: JSON.parse(match[5] ?? '') as Record<string, unknown> };
  }

  it('sends each entry as one RFC 5424 message over UDP', async () => {
    const socket = createSocket('udp4');
    const lines: string[] = [];
    socket.on('message', (message) => lines.push(message.toString('utf8')));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    closers.push(async () => socket.close());
    const port = socket.address().port;
    const keys = new KeySpace(`tds${randomBytes(4).toString('hex')}`);
    const target = { transport: 'udp', host: '127.0.0.1', port } as const;
    const audit = new AuditLog(redis, keys, { syslog: target });
    const ws = { teamId: 'TSYSU', enterpriseId: 'ESYS' };
    const ids = [
      await audit.append(ws, { action: 'policy_change', actor: 'U1', detail: 'Freigabe → 2 Stimmen' }),
      await audit.append(ws, { action: 'refuse', actor: 'U2', outcome: 'no' }),
    ];
    deliverer(keys, [syslogSink(target)]);
    await expect.poll(() => lines.length, POLL).toBeGreaterThanOrEqual(2);
    const messages = lines.map(parsed);
    // local0.info: 16 × 8 + 6.
    expect(messages.map((m) => m.pri)).toEqual([134, 134]);
    expect(messages.map((m) => m.msg.id)).toEqual(ids);
    expect(messages[0]?.msg).toMatchObject({
      team: 'TSYSU',
      enterprise: 'ESYS',
      detail: 'Freigabe → 2 Stimmen',
    });
    // The message itself is ASCII: other characters travel as JSON escapes.
    expect(lines[0]).not.toContain('→');
  });

  it('sends octet-counted RFC 5424 messages over TCP, to a receiver that comes up late', async () => {
    const keys = new KeySpace(`tdt${randomBytes(4).toString('hex')}`);
    const server: Server = createTcpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    // Down at first: the port is closed until entries have been tried.
    await new Promise((resolve) => server.close(resolve));
    const target = { transport: 'tcp', host: '127.0.0.1', port } as const;
    const audit = new AuditLog(redis, keys, { syslog: target });
    const ws = { teamId: 'TSYST' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await audit.append(ws, { action: 'approve', actor: `U${i}` }));
    const metrics = createMetrics();
    deliverer(keys, [syslogSink(target)], metrics);
    await expect
      .poll(() => metrics.registry.getSingleMetricAsString('regdesk_audit_delivery_failures_total'), POLL)
      .toMatch(/sink="syslog"\} [1-9]/);

    const lines: string[] = [];
    const up = createTcpServer((connection) => {
      let buffered = Buffer.alloc(0);
      connection.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        // RFC 6587 §3.4.1: MSG-LEN SP SYSLOG-MSG, repeated.
        for (;;) {
          const space = buffered.indexOf(0x20);
          if (space < 0) return;
          const length = Number(buffered.subarray(0, space).toString('ascii'));
          if (buffered.length < space + 1 + length) return;
          lines.push(buffered.subarray(space + 1, space + 1 + length).toString('utf8'));
          buffered = buffered.subarray(space + 1 + length);
        }
      });
    });
    await new Promise<void>((resolve) => up.listen(port, '127.0.0.1', resolve));
    closers.push(async () => {
      up.close();
    });
    await expect.poll(() => lines.length, POLL).toBeGreaterThanOrEqual(5);
    expect(lines.map((line) => parsed(line).msg.id)).toEqual(ids);
    expect(lines.every((line) => parsed(line).pri === 134)).toBe(true);
  });
});
