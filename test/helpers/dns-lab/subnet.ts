import { createSocket, type Socket } from 'node:dgram';
import { createServer } from 'node:net';

/** Claiming a /24 of loopback: each lab owns 127.53.N.0/24, its servers on port 53 of their own addresses. */

/** Host parts of a lab's addresses: root, TLD, primary (two), alt, the two resolvers. */
export const HOSTS = {
  root: 1,
  tld: 2,
  primary1: 10,
  primary2: 11,
  alt: 12,
  plainResolver: 252,
  resolver: 254,
} as const;
/** Held, bound, for the lab's whole life: the kernel makes the claim exclusive and frees it when we die. */
const CLAIM_HOST = 253;

function bindUdp(address: string): Promise<Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.close();
      if (error.code === 'EADDRINUSE') resolve(undefined);
      else reject(error);
    });
    socket.bind({ address, port: 53, exclusive: true }, () => resolve(socket));
  });
}

function tcpFree(address: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
    );
    server.listen({ host: address, port: 53, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** True when nothing (say a daemon some killed run left behind) holds UDP or TCP port 53 there. */
async function addressFree(address: string): Promise<boolean> {
  const socket = await bindUdp(address);
  if (socket === undefined) return false;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return tcpFree(address);
}

/**
 * Claims 127.53.N.0/24 for one lab: binds UDP 127.53.N.253:53 and keeps it bound (another lab's bind
 * then fails with EADDRINUSE), then checks that the lab's server addresses are really free. Starts at a
 * random N so that labs starting together rarely contend.
 */
export async function claimSubnet(): Promise<{ prefix: string; claim: Socket }> {
  const start = Math.floor(Math.random() * 250);
  for (let i = 0; i < 250; i++) {
    const prefix = `127.53.${((start + i) % 250) + 1}`;
    const claim = await bindUdp(`${prefix}.${CLAIM_HOST}`);
    if (claim === undefined) continue;
    const free = await Promise.all(Object.values(HOSTS).map((host) => addressFree(`${prefix}.${host}`)));
    if (free.every(Boolean)) {
      // The claim must not keep a test process alive on its own.
      claim.unref();
      return { prefix, claim };
    }
    claim.close();
  }
  throw new Error('DNS lab: no free 127.53.N.0/24 (N = 1..250) for another lab.');
}
