import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as wire from 'dns-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DnsClient, DnsUnreachable, NotPublicAddress } from '../../src/dns/client.js';

/** What a question ended with: the error's class and kind, or 'answered'. */
async function outcome(question: Promise<unknown>): Promise<string> {
  try {
    await question;
    return 'answered';
  } catch (error) {
    if (error instanceof DnsUnreachable) return `unreachable:${error.kind}`;
    if (error instanceof NotPublicAddress) return `notPublic:${error.kind}`;
    throw error;
  }
}

/** A UDP (and TCP) server on loopback that answers each question as `respond` says. */
async function hostileServer(
  respond: (query: wire.Packet, raw: Buffer) => Buffer | Buffer[] | undefined,
  tcp?: (connection: import('node:net').Socket) => void,
): Promise<{ port: number; questions: () => number; stop: () => Promise<void> }> {
  const udp: Socket = createSocket('udp4');
  let questions = 0;
  udp.on('message', (message, peer) => {
    questions++;
    const query = wire.decode(message);
    const replies = respond(query, message);
    for (const reply of [replies ?? []].flat()) udp.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const port = udp.address().port;
  let server: Server | undefined;
  if (tcp !== undefined) {
    server = createServer(tcp);
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
  }
  return {
    port,
    questions: () => questions,
    stop: async () => {
      udp.close();
      await new Promise<void>((resolve) =>
        server === undefined ? resolve() : server.close(() => resolve()),
      );
    },
  };
}

const answerTo = (query: wire.Packet, fields: Partial<wire.Packet> = {}) =>
  wire.encode({
    type: 'response',
    id: query.id ?? 0,
    flags: wire.RECURSION_AVAILABLE | (fields.flags ?? 0),
    questions: query.questions ?? [],
    answers: fields.answers ?? [],
  });

describe('the DNS client against addresses and servers that would crash or stall it', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  beforeAll(() => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  });
  afterEach(() => expect(uncaught).toEqual([]));
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  });

  it.each(['255.255.255.255', 'fe80::1', 'ff02::1', '0.0.0.0'])(
    'a resolver at %s ends as "could not check", never as an uncaught exception',
    async (host) => {
      const client = new DnsClient({ resolvers: [{ host, port: 53 }], timeoutMs: 300 });
      expect(await outcome(client.resolve('example.de', 'SOA'))).toMatch(/^unreachable:(network|timeout)$/);
      // Give a late socket error the chance to surface: none may.
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
  );

  it('asks no nameserver outside the public internet, and sends nothing there', async () => {
    const watcher = createSocket('udp4');
    let received = 0;
    watcher.on('message', () => received++);
    await new Promise<void>((resolve) => watcher.bind(0, '127.0.0.1', resolve));
    const client = new DnsClient({ resolvers: [], nameserverPort: watcher.address().port });
    try {
      for (const [address, kind] of [
        ['127.0.0.1', 'loopback'],
        ['::ffff:127.0.0.1', 'loopback'],
        ['10.0.0.1', 'private'],
        ['169.254.169.253', 'link-local'],
        ['255.255.255.255', 'broadcast'],
        ['ff02::1', 'multicast'],
        ['fe80::1', 'link-local'],
      ] as const) {
        expect(await outcome(client.ask(client.nameserver(address), 'example.de', 'SOA'))).toBe(
          `notPublic:${kind}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toBe(0);
    } finally {
      watcher.close();
    }
  });

  it('ignores garbage, wrong ids and cut packets, and waits no longer than its timeout', async () => {
    const server = await hostileServer((query, raw) => {
      const good = answerTo(query, {
        answers: [{ type: 'A', name: 'example.de', ttl: 60, data: '192.0.2.1' }],
      });
      return [
        Buffer.from('not dns at all'),
        raw, // the question itself, echoed
        answerTo({ ...query, id: ((query.id ?? 0) + 1) % 65_536 }),
        good.subarray(0, good.length - 2),
      ];
    });
    try {
      const client = new DnsClient({ resolvers: [{ host: '127.0.0.1', port: server.port }], timeoutMs: 300 });
      expect(await outcome(client.resolve('example.de', 'A'))).toBe('unreachable:timeout');
      // Two tries, then "could not check".
      expect(server.questions()).toBe(2);
    } finally {
      await server.stop();
    }
  });

  it('follows truncation to TCP once, and takes a truncated TCP answer as it is (no loop)', async () => {
    let connections = 0;
    const server = await hostileServer(
      (query) => answerTo(query, { flags: wire.TRUNCATED_RESPONSE }),
      (connection) => {
        connections++;
        connection.on('error', () => undefined);
        connection.on('data', (chunk) => {
          const query = wire.decode(chunk.subarray(2));
          connection.end(
            wire.streamEncode({
              type: 'response',
              id: query.id ?? 0,
              flags: wire.TRUNCATED_RESPONSE,
              questions: query.questions ?? [],
            }),
          );
        });
      },
    );
    try {
      const client = new DnsClient({ resolvers: [{ host: '127.0.0.1', port: server.port }], timeoutMs: 500 });
      const answer = await client.resolve('example.de', 'TXT');
      expect(answer.answers).toEqual([]);
      expect(connections).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('gives up on a TCP server that announces a huge answer and drips it', async () => {
    const server = await hostileServer(
      (query) => answerTo(query, { flags: wire.TRUNCATED_RESPONSE }),
      (connection) => {
        connection.on('error', () => undefined);
        connection.write(Buffer.from([0xff, 0xff]));
        const drip = setInterval(() => connection.write(Buffer.alloc(16)), 50);
        connection.on('close', () => clearInterval(drip));
      },
    );
    try {
      const client = new DnsClient({
        resolvers: [{ host: '127.0.0.1', port: server.port }],
        timeoutMs: 300,
        limits: { perHost: 4, direct: 16, concurrent: 8, deadlineMs: 1_500 },
      });
      const started = Date.now();
      expect(await outcome(client.forCheck().resolve('example.de', 'TXT'))).toBe('unreachable:timeout');
      // The check's deadline bounds the TCP wait too (the transport's own limit is 4 s).
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      await server.stop();
    }
  });

  it('asks at most `direct` addresses in one check, and the same address again freely', async () => {
    const server = await hostileServer((query) => answerTo(query));
    try {
      const client = new DnsClient({
        resolvers: [],
        nameserverPort: server.port,
        allowed: [{ network: '127.0.0.0', prefix: 8 }],
        limits: { perHost: 4, direct: 2, concurrent: 8, deadlineMs: 20_000 },
      }).forCheck();
      expect(await outcome(client.ask(client.nameserver('127.0.0.1'), 'a.de', 'SOA'))).toBe('answered');
      expect(await outcome(client.ask(client.nameserver('127.0.0.1'), 'b.de', 'SOA'))).toBe('answered');
      // 127.0.0.2 is the second address; nothing listens on it there, which is "could not check".
      expect(await outcome(client.ask(client.nameserver('127.0.0.2'), 'a.de', 'SOA'))).toMatch(
        /^unreachable:/,
      );
      expect(await outcome(client.ask(client.nameserver('127.0.0.3'), 'a.de', 'SOA'))).toBe(
        'unreachable:limit',
      );
    } finally {
      await server.stop();
    }
  });
});
