import { createSocket } from 'node:dgram';
import * as wire from 'dns-packet';

/**
 * A resolver for the bench's made-up names: it answers every question at once with NXDOMAIN, as a
 * real resolver answers for names that do not exist, so a watch's live DNS check does its questions
 * without waiting on the machine's network (DNS_RESOLVERS of the children).
 */
export async function startNxdomainResolver(): Promise<{
  address: string;
  questions(): number;
  stop(): Promise<void>;
}> {
  const socket = createSocket('udp4');
  let questions = 0;
  socket.on('message', (message, peer) => {
    let query: wire.DecodedPacket;
    try {
      query = wire.decode(message);
    } catch {
      return;
    }
    questions++;
    const reply = wire.encode({
      type: 'response',
      id: query.id,
      // RD echoed, RA set, rcode 3 (NXDOMAIN) in the low bits.
      flags: (query.flags ?? 0) | wire.RECURSION_AVAILABLE | 3,
      questions: query.questions ?? [],
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions: () => questions,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
