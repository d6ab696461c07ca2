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

/**
 * A resolver that gives every name one IPv4 address (and no IPv6): where the served bench's names
 * live, so each look shakes hands with the bench's own TLS server on loopback.
 */
export async function startAddressResolver(address: string): Promise<{
  address: string;
  stop(): Promise<void>;
}> {
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: wire.DecodedPacket;
    try {
      query = wire.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    const answers: wire.Answer[] =
      question?.type === 'A' ? [{ type: 'A', name: question.name, ttl: 60, data: address }] : [];
    const reply = wire.encode({
      type: 'response',
      id: query.id,
      flags: (query.flags ?? 0) | wire.RECURSION_AVAILABLE,
      questions: query.questions ?? [],
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
