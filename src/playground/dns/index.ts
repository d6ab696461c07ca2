import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as wire from 'dns-packet';
import type { AllowedRange } from '../../dns/addresses.js';
import type { DnsServer } from '../../dns/servers.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { Logger } from '../../shared/logger.js';
import { answer } from './answers.js';
import { ADDRESS, PLAYGROUND_RANGE, type Role, World } from './world.js';

export { completeDemoZones } from './world.js';

/**
 * The playground's internet for DNS (docs/playground.md): without it `/dns check`, publishing
 * validation records and record changes would ask the real DNS about zones that exist only in the
 * sandbox. One small server plays every part, each on its own loopback address and one port:
 * - a root, delegating each TLD the sandbox's domains are in, and the TLDs' servers (`a.nic.<tld>`),
 *   delegating each sandbox domain to its nameservers with glue, and a DS for zones the sandbox signs;
 * - the registrar's nameservers (the standard pair and the vanity sets' names), answering with
 *   authority from the sandbox's records as they are at that moment;
 * - a recursive resolver for the rest, which validates (AD) the zones the sandbox signs.
 * The root and the TLDs are signed, and so are the zones the sandbox signs (signer.ts), each with a
 * key of its own made per process: Regdesk validates the chain from `trustAnchor` as it would the
 * internet's from IANA's.
 * Domains delegated to external nameservers are served by nobody: lame, as they would be here.
 * Written here rather than taken from a library: it answers from the sandbox's live state, which no
 * DNS server package does, and dns-packet does the wire format.
 */

export interface PlaygroundDns {
  /** For DNS_RESOLVERS: the playground's resolver. */
  resolvers: DnsServer[];
  /** The port every nameserver of the playground listens on (the real DNS's is 53). */
  nameserverPort: number;
  /** The loopback range its servers live in, for LIVE_CHECK_ALLOW: loopback is never asked otherwise. */
  allowed: AllowedRange[];
  /** For DNSSEC_TRUST_ANCHOR: the DS of this process's root key, `. IN DS <tag> 13 2 <hex>`. */
  trustAnchor: string;
  close(): Promise<void>;
}

function decode(message: Buffer): wire.Packet | undefined {
  try {
    return wire.decode(message);
  } catch {
    return undefined;
  }
}

async function listen(
  world: World,
  role: Role,
  port: number,
): Promise<{ udp: UdpSocket; tcp: Server; port: number }> {
  const address = ADDRESS[role];
  const udp = createSocket('udp4');
  udp.on('message', (message, peer) => {
    const query = decode(message);
    if (query !== undefined) udp.send(answer(world, role, query, 0), peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, address, () => {
      udp.off('error', reject);
      resolve();
    });
  });
  const bound = udp.address().port;
  const tcp = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const query = decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
        buffered = buffered.subarray(2 + buffered.readUInt16BE(0));
        if (query === undefined) continue;
        const reply = answer(world, role, query, 65_535);
        const length = Buffer.alloc(2);
        length.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([length, reply]));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', (error) => {
      udp.close();
      reject(error);
    });
    tcp.listen(bound, address, () => resolve());
  });
  return { udp, tcp, port: bound };
}

/**
 * Starts the playground's DNS on 127.53.0.0/24 (every address of 127/8 is loopback on Linux); where
 * those addresses cannot be bound (macOS has only 127.0.0.1), it says so and returns undefined: the
 * playground then asks the machine's resolvers, as before.
 */
export async function startPlaygroundDns(
  sandbox: Pick<Sandbox, 'state'>,
  logger: Logger,
): Promise<PlaygroundDns | undefined> {
  const world = new World(sandbox);
  for (let attempt = 0; attempt < 5; attempt++) {
    const started: Array<{ udp: UdpSocket; tcp: Server }> = [];
    try {
      const first = await listen(world, 'resolver', 0);
      started.push(first);
      for (const role of ['tld', 'ns1', 'ns2'] as const) started.push(await listen(world, role, first.port));
      return {
        resolvers: [{ host: ADDRESS.resolver, port: first.port }],
        nameserverPort: first.port,
        allowed: [{ network: PLAYGROUND_RANGE.network, prefix: PLAYGROUND_RANGE.prefix }],
        trustAnchor: world.trustAnchor,
        close: async () => {
          await Promise.all(
            started.map(
              (server) =>
                new Promise<void>((resolve) => {
                  server.udp.close();
                  server.tcp.close(() => resolve());
                }),
            ),
          );
        },
      };
    } catch (error) {
      for (const server of started) {
        server.udp.close();
        server.tcp.close();
      }
      // Another process took the port on one of the addresses: try another port.
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      logger.warn(
        { err: (error as Error).message },
        "playground DNS not started: DNS checks ask the machine's resolvers",
      );
      return undefined;
    }
  }
  logger.warn({}, "playground DNS not started (no free port): DNS checks ask the machine's resolvers");
  return undefined;
}
