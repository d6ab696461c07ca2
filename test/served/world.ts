import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { type HostileWorld, RESOLVER_ADDRESS, startHostileWorld } from '../helpers/hostile-dns.js';
import type { TestCertificate } from './certificates.js';

/**
 * A small served world on loopback: a resolver (test/helpers/hostile-dns.ts) that gives each name the
 * addresses the test chose, and at each address a node:tls server on one common port (TLS_CHECK_PORTS
 * names one port for every address) whose certificate the test swaps between looks. An address may
 * instead be `silent`: it accepts connections and never answers a byte (the handshake timeout).
 */

/** Where this world's servers live: loopback, outside the DNS lab's and the hostile world's ranges. */
export const SERVED_RANGE = '127.56.0.0/16';

export interface ServedWorld {
  /** The resolver, as DNS_RESOLVERS takes it. */
  resolver: string;
  port: number;
  /** Serves `cert` at `address` from the next handshake on. */
  serve(address: string, cert: TestCertificate): void;
  /** How many connections each address accepted. */
  connections(address: string): number;
  stop(): Promise<void>;
}

export async function startServedWorld(options: {
  names: Record<string, string[]>;
  serving: Record<string, TestCertificate>;
  silent?: string[];
}): Promise<ServedWorld> {
  const dns: HostileWorld = await startHostileWorld([
    {
      name: 'served.test',
      nameservers: Object.entries(options.names).map(([host, addresses]) => ({ host, addresses })),
    },
  ]);
  const servers = new Map<string, Server>();
  const silent: NetServer[] = [];
  const held: Socket[] = [];
  const counts = new Map<string, number>();
  const count = (address: string) => counts.set(address, (counts.get(address) ?? 0) + 1);
  let port = 0;
  const listen = (server: NetServer, address: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  for (const [address, cert] of Object.entries(options.serving)) {
    const server = createServer({ cert: cert.pem, key: cert.keyPem });
    server.on('connection', () => count(address));
    server.on('tlsClientError', () => undefined);
    await listen(server, address);
    servers.set(address, server);
  }
  for (const address of options.silent ?? []) {
    const server = createNetServer((socket) => {
      count(address);
      socket.on('error', () => undefined);
      held.push(socket);
    });
    await listen(server, address);
    silent.push(server);
  }
  return {
    resolver: `${RESOLVER_ADDRESS}:${dns.port}`,
    port,
    serve: (address, cert) => servers.get(address)?.setSecureContext({ cert: cert.pem, key: cert.keyPem }),
    connections: (address) => counts.get(address) ?? 0,
    stop: async () => {
      for (const socket of held) socket.destroy();
      await Promise.all(
        [...servers.values(), ...silent].map(
          (server) => new Promise<void>((resolve) => server.close(() => resolve())),
        ),
      );
      await dns.stop();
    },
  };
}
