import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as wire from 'dns-packet';

/**
 * A small hostile internet for live DNS checks, on loopback and one port: a zone owner may name any
 * nameservers and any addresses, so this world serves what an attacker would write. Two servers answer,
 * both on `port`:
 * - the resolver (RESOLVER_ADDRESS), which knows the TLD `test.` and every host's addresses;
 * - the TLD's server (TLD_ADDRESS), which refers each zone to the nameservers the test gave it, with
 *   glue for the ones inside the zone (over TCP when the referral does not fit UDP).
 * Nameserver addresses given as silent get a UDP socket that takes every question and never answers,
 * and counts them: the test sees exactly which addresses were asked. Regdesk's DnsClient reaches the
 * nameservers through `nameserverPort: port` (the playground does the same).
 */

export const RESOLVER_ADDRESS = '127.54.0.1';
export const TLD_ADDRESS = '127.54.0.2';
/** The ranges this world lives in, for LIVE_CHECK_ALLOW. */
export const HOSTILE_ALLOWED = [
  { network: '127.54.0.0', prefix: 16 },
  { network: '127.55.0.0', prefix: 16 },
];

export interface HostileZone {
  /** Under `test`, e.g. `silent.test`. */
  name: string;
  /** Its nameservers: host name (inside the zone gets glue) and the addresses it is given. */
  nameservers: Array<{ host: string; addresses: string[] }>;
}

export interface HostileWorld {
  port: number;
  /** How many questions each silent address received. */
  asked(): Map<string, number>;
  /** Questions that reached a listener the world keeps on an address Regdesk must never ask. */
  forbiddenHits(): number;
  stop(): Promise<void>;
}

type Question = wire.Question;

function reply(query: wire.Packet, fields: Partial<wire.Packet> & { rcode?: string }): wire.Packet {
  return {
    type: 'response',
    id: query.id ?? 0,
    flags: wire.RECURSION_AVAILABLE | (fields.rcode === 'NXDOMAIN' ? 3 : 0) | (fields.flags ?? 0),
    questions: query.questions ?? [],
    answers: fields.answers ?? [],
    authorities: fields.authorities ?? [],
    additionals: fields.additionals ?? [],
  };
}

const addressRecord = (name: string, address: string): wire.Answer =>
  ({ type: address.includes(':') ? 'AAAA' : 'A', name, ttl: 60, data: address }) as wire.Answer;

function udpServer(address: string, answer: (query: wire.Packet) => wire.Packet | undefined) {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  socket.on('message', (message, peer) => {
    let query: wire.Packet;
    try {
      query = wire.decode(message);
    } catch {
      return;
    }
    const response = answer(query);
    if (response === undefined) return;
    let bytes = wire.encode(response);
    if (bytes.length > 1232) {
      // Too big for UDP: the answer's header with TC set, as a server does, and the whole over TCP.
      bytes = wire.encode({
        ...response,
        flags: (response.flags ?? 0) | wire.TRUNCATED_RESPONSE,
        answers: [],
        authorities: [],
        additionals: [],
      });
    }
    socket.send(bytes, peer.port, peer.address);
  });
  return socket;
}

function tcpServer(answer: (query: wire.Packet) => wire.Packet | undefined): Server {
  return createServer((connection) => {
    let buffered = Buffer.alloc(0);
    connection.on('error', () => undefined);
    connection.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      try {
        const response = answer(wire.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0))));
        if (response !== undefined) connection.end(wire.streamEncode(response));
      } catch {
        connection.destroy();
      }
    });
  });
}

const bind = (socket: Socket, address: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
const listen = (server: Server, address: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });

/**
 * Starts the world. `silent` addresses (in 127.55/16) get counting sockets; `forbidden` addresses are
 * loopback ones outside LIVE_CHECK_ALLOW (127.0.0.1, ::1) that get counting sockets too, so a test can
 * prove no packet reached them.
 */
export async function startHostileWorld(
  zones: HostileZone[],
  options: { silent?: string[]; forbidden?: string[] } = {},
): Promise<HostileWorld> {
  const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');
  const hostAddresses = new Map<string, string[]>();
  for (const zone of zones)
    for (const server of zone.nameservers) hostAddresses.set(lower(server.host), server.addresses);

  const resolver = (query: wire.Packet): wire.Packet => {
    const question: Question | undefined = query.questions?.[0];
    const name = lower(question?.name ?? '');
    if (question?.type === 'NS' && name === 'test')
      return reply(query, { answers: [{ type: 'NS', name: 'test', ttl: 60, data: 'a.nic.test' }] });
    if (name === 'a.nic.test')
      return reply(query, { answers: question?.type === 'A' ? [addressRecord(name, TLD_ADDRESS)] : [] });
    const addresses = hostAddresses.get(name);
    if (addresses !== undefined && (question?.type === 'A' || question?.type === 'AAAA')) {
      const family = question.type === 'A' ? (a: string) => !a.includes(':') : (a: string) => a.includes(':');
      return reply(query, { answers: addresses.filter(family).map((a) => addressRecord(name, a)) });
    }
    if (zones.some((zone) => zone.name === name)) return reply(query, {});
    return reply(query, { rcode: 'NXDOMAIN' });
  };
  const tld = (query: wire.Packet): wire.Packet => {
    const name = lower(query.questions?.[0]?.name ?? '');
    const zone = zones.find((candidate) => name === candidate.name || name.endsWith(`.${candidate.name}`));
    if (zone === undefined) return reply(query, { rcode: 'NXDOMAIN', flags: wire.AUTHORITATIVE_ANSWER });
    return reply(query, {
      authorities: zone.nameservers.map(
        (server) => ({ type: 'NS', name: zone.name, ttl: 60, data: server.host }) as wire.Answer,
      ),
      additionals: zone.nameservers.flatMap((server) =>
        lower(server.host).endsWith(`.${zone.name}`)
          ? server.addresses.map((address) => addressRecord(server.host, address))
          : [],
      ),
    });
  };

  const counts = new Map<string, number>();
  let forbidden = 0;
  for (let attempt = 0; ; attempt++) {
    const closers: Array<() => Promise<void>> = [];
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    try {
      const resolverUdp = udpServer(RESOLVER_ADDRESS, resolver);
      await bind(resolverUdp, RESOLVER_ADDRESS, port);
      closers.push(() => new Promise((resolve) => resolverUdp.close(() => resolve())));
      const tldUdp = udpServer(TLD_ADDRESS, tld);
      await bind(tldUdp, TLD_ADDRESS, port);
      closers.push(() => new Promise((resolve) => tldUdp.close(() => resolve())));
      const tldTcp = tcpServer(tld);
      await listen(tldTcp, TLD_ADDRESS, port);
      closers.push(() => new Promise((resolve) => tldTcp.close(() => resolve())));
      const sink = (address: string, count: () => void) => {
        const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
        socket.on('message', count);
        return bind(socket, address, port).then(() => {
          closers.push(() => new Promise((resolve) => socket.close(() => resolve())));
        });
      };
      for (const address of options.silent ?? [])
        await sink(address, () => counts.set(address, (counts.get(address) ?? 0) + 1));
      for (const address of options.forbidden ?? []) await sink(address, () => forbidden++);
      return {
        port,
        asked: () => new Map(counts),
        forbiddenHits: () => forbidden,
        stop: async () => {
          await Promise.all(closers.map((close) => close()));
        },
      };
    } catch (error) {
      await Promise.all(closers.map((close) => close()));
      if (attempt >= 5) throw error;
    }
  }
}
