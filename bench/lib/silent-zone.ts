import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as wire from 'dns-packet';

/** Where the world's resolver and the TLD `test.`'s server listen, each on the world's one port. */
export const RESOLVER_ADDRESS = '127.54.0.1';
const TLD_ADDRESS = '127.54.0.2';
/** LIVE_CHECK_ALLOW of the check: the world lives on loopback, which live checks otherwise never ask. */
export const SILENT_ALLOWED = [
  { network: '127.54.0.0', prefix: 16 },
  { network: '127.55.0.0', prefix: 16 },
];
/** The zone of issue #49's row: 10 nameservers inside it, 50 glue addresses each, 500 in all. */
export const SILENT_ZONE = 'silent.test';
const HOSTS = 10;
const PER_HOST = 50;
export const SILENT_ADDRESSES = HOSTS * PER_HOST;
const hostOf = (host: number) => `ns${host + 1}.${SILENT_ZONE}`;
const addressOf = (host: number, index: number) => `127.55.${host + 1}.${index + 1}`;

const record = (name: string, address: string): wire.Answer => ({ type: 'A', name, ttl: 60, data: address });

function reply(query: wire.Packet, fields: Partial<wire.Packet>, nxdomain = false): wire.Packet {
  return {
    type: 'response',
    id: query.id ?? 0,
    flags: wire.RECURSION_AVAILABLE | (nxdomain ? 3 : 0),
    questions: query.questions ?? [],
    answers: [],
    authorities: [],
    additionals: [],
    ...fields,
  };
}

/**
 * A zone whose owner named 500 nameserver addresses that never answer, on loopback and one port (the
 * bench's own copy of the hostile world of the live-DNS tests): the resolver knows the TLD `test.` and
 * every host's addresses; the TLD's server refers `silent.test` to its ten nameservers with all their
 * glue (over TCP: it does not fit UDP); each of the 500 addresses has a socket that takes every
 * question and never answers. A check of it therefore waits out each asked address, within its bounds.
 */
export async function startSilentZone(): Promise<{ port: number; stop(): Promise<void> }> {
  const glue = Array.from({ length: HOSTS }, (_, host) =>
    Array.from({ length: PER_HOST }, (_, index) => addressOf(host, index)),
  );
  const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');
  const resolver = (query: wire.Packet): wire.Packet => {
    const question = query.questions?.[0];
    const name = lower(question?.name ?? '');
    if (question?.type === 'NS' && name === 'test')
      return reply(query, { answers: [{ type: 'NS', name: 'test', ttl: 60, data: 'a.nic.test' }] });
    if (name === 'a.nic.test')
      return reply(query, { answers: question?.type === 'A' ? [record(name, TLD_ADDRESS)] : [] });
    const host = Array.from({ length: HOSTS }, (_, i) => i).find((i) => hostOf(i) === name);
    if (host !== undefined)
      return reply(query, {
        answers: question?.type === 'A' ? (glue[host] ?? []).map((address) => record(name, address)) : [],
      });
    return name === SILENT_ZONE ? reply(query, {}) : reply(query, {}, true);
  };
  const tld = (query: wire.Packet): wire.Packet => {
    const name = lower(query.questions?.[0]?.name ?? '');
    if (name !== SILENT_ZONE && !name.endsWith(`.${SILENT_ZONE}`)) return reply(query, {}, true);
    return reply(query, {
      authorities: glue.map((_, host) => ({ type: 'NS', name: SILENT_ZONE, ttl: 60, data: hostOf(host) })),
      additionals: glue.flatMap((addresses, host) =>
        addresses.map((address) => record(hostOf(host), address)),
      ),
    });
  };

  for (let attempt = 0; ; attempt++) {
    const closers: Array<() => Promise<void>> = [];
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    try {
      closers.push(await udp(RESOLVER_ADDRESS, port, resolver));
      closers.push(await udp(TLD_ADDRESS, port, tld));
      closers.push(await tcp(TLD_ADDRESS, port, tld));
      for (const address of glue.flat()) closers.push(await udp(address, port, () => undefined));
      return { port, stop: async () => void (await Promise.all(closers.map((close) => close()))) };
    } catch (error) {
      await Promise.all(closers.map((close) => close()));
      if (attempt >= 5) throw error;
    }
  }
}

/** A UDP server; an answer too big for UDP goes out truncated (TC), as a server sends it. */
async function udp(
  address: string,
  port: number,
  answer: (query: wire.Packet) => wire.Packet | undefined,
): Promise<() => Promise<void>> {
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let response: wire.Packet | undefined;
    try {
      response = answer(wire.decode(message));
    } catch {
      return;
    }
    if (response === undefined) return;
    let bytes = wire.encode(response);
    if (bytes.length > 1232)
      bytes = wire.encode({
        ...response,
        flags: (response.flags ?? 0) | wire.TRUNCATED_RESPONSE,
        answers: [],
        authorities: [],
        additionals: [],
      });
    socket.send(bytes, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return () => new Promise<void>((resolve) => socket.close(() => resolve()));
}

async function tcp(
  address: string,
  port: number,
  answer: (query: wire.Packet) => wire.Packet,
): Promise<() => Promise<void>> {
  const server: Server = createServer((connection) => {
    let buffered = Buffer.alloc(0);
    connection.on('error', () => undefined);
    connection.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      try {
        connection.end(
          wire.streamEncode(answer(wire.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0))))),
        );
      } catch {
        connection.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
