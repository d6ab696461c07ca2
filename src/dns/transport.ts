import { createSocket } from 'node:dgram';
import { isIP, Socket } from 'node:net';
import * as wire from 'dns-packet';
import type { DnsServer } from './servers.js';

/**
 * No answer at all: a timeout, a refused connection, a network error, a packet that is not an answer.
 * The checks say "could not check" for it, never a finding (issue #30): silence is not evidence.
 */
export class DnsUnreachable extends Error {
  constructor(
    readonly server: string,
    /**
     * `timeout`: no answer in time; `network`: the question could not be sent, was refused, or the reply
     * was not a DNS answer; `answered`: an rcode that says nothing (SERVFAIL, REFUSED from a resolver);
     * `limit`: the check's bounds (addresses, deadline) left this question unasked.
     */
    readonly kind: 'timeout' | 'network' | 'answered' | 'limit',
    readonly detail = '',
  ) {
    super(`${server}: ${kind}${detail === '' ? '' : ` ${detail}`}`);
    this.name = 'DnsUnreachable';
  }
}

export const serverLabel = (server: DnsServer) =>
  `${isIP(server.host) === 6 ? `[${server.host}]` : server.host}${server.port === 53 ? '' : `:${server.port}`}`;

const codeOf = (error: unknown) =>
  error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);

/** A DNS message over TCP is at most 65,535 bytes behind its 2-byte length: nothing more is read. */
const TCP_MAX = 2 + 65_535;

/** DNS names compare without case and without the root's trailing dot. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export function sameName(a: string, b: string): boolean {
  return canonicalName(a) === canonicalName(b);
}

/**
 * The reply to our question, or undefined: not DNS, not a response, another id, another question.
 * Never throws, whatever the bytes (test/dns/parser.unit.test.ts feeds it random and cut packets).
 */
export function parseReply(message: Buffer, id: number, name: string, type: string): wire.Packet | undefined {
  try {
    const reply = wire.decode(message);
    // dns-packet reads past the end of a cut packet (undefined bytes become "192.0.undefined…") and
    // reports how far it read: more than was received is a truncated or lying packet, not an answer
    // (bytes left over after a whole message are tolerated, as resolvers tolerate them).
    if (((wire.decode as { bytes?: number }).bytes ?? Number.POSITIVE_INFINITY) > message.length)
      return undefined;
    const question = reply.questions?.[0];
    if (reply.id !== id || reply.type !== 'response' || question === undefined) return undefined;
    if (typeof question.name !== 'string' || !sameName(question.name, name) || question.type !== type)
      return undefined;
    return reply;
  } catch {
    return undefined;
  }
}

/**
 * One exchange's end, exactly once: the timer cleared, the socket closed, the promise settled. Every
 * error path (a connect or send callback's error, an `error` event, a synchronous throw) leads here, so
 * none can escape as an uncaught exception (issue #40: `send` on a socket whose connect failed throws).
 */
function settleOnce<T>(resolve: (value: T) => void, reject: (error: Error) => void, close: () => void) {
  let settled = false;
  return (error: Error | undefined, value?: T) => {
    if (settled) return;
    settled = true;
    try {
      close();
    } catch {
      // Already closed: nothing left to release.
    }
    if (value !== undefined) resolve(value);
    else reject(error ?? new Error('settled without a value'));
  };
}

/**
 * One question to one server over one transport: `accept` picks the reply out of whatever arrives.
 * Rejects with DnsUnreachable only.
 */
type Exchange = (
  server: DnsServer,
  query: Buffer,
  accept: (message: Buffer) => wire.Packet | undefined,
  timeoutMs: number,
) => Promise<wire.Packet>;

/** Over UDP, connected (an ICMP refusal ends the wait at once). */
export const udpExchange: Exchange = (server, query, accept, timeoutMs) =>
  new Promise((resolve, reject) => {
    const label = serverLabel(server);
    const family = isIP(server.host);
    if (family === 0) {
      reject(new DnsUnreachable(label, 'network', 'not an IP address'));
      return;
    }
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    let timer: NodeJS.Timeout | undefined;
    const done = settleOnce<wire.Packet>(resolve, reject, () => {
      clearTimeout(timer);
      socket.close();
    });
    const fail = (error: unknown) => done(new DnsUnreachable(label, 'network', codeOf(error)));
    timer = setTimeout(() => done(new DnsUnreachable(label, 'timeout')), timeoutMs);
    socket.on('error', fail);
    socket.on('message', (message) => {
      const reply = accept(message);
      // Anything else (a late answer to an earlier try, spoofing, garbage) is ignored; the timer still runs.
      if (reply !== undefined) done(undefined, reply);
    });
    try {
      // Connected: only the server's own datagrams arrive, and an ICMP refusal ends the wait at once.
      socket.connect(server.port, server.host, (error?: Error) => {
        if (error) return fail(error);
        try {
          socket.send(query, (sendError) => {
            if (sendError) fail(sendError);
          });
        } catch (sendError) {
          fail(sendError);
        }
      });
    } catch (error) {
      fail(error);
    }
  });

/** Over TCP (after a truncated UDP answer), `query` framed with its length. */
export const tcpExchange: Exchange = (server, query, accept, timeoutMs) =>
  new Promise((resolve, reject) => {
    const label = serverLabel(server);
    const socket = new Socket();
    let buffered = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const done = settleOnce<wire.Packet>(resolve, reject, () => {
      clearTimeout(timer);
      socket.destroy();
    });
    timer = setTimeout(() => done(new DnsUnreachable(label, 'timeout')), timeoutMs);
    socket.on('error', (error) => done(new DnsUnreachable(label, 'network', codeOf(error))));
    socket.on('close', () => done(new DnsUnreachable(label, 'network', 'closed without an answer')));
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]).subarray(0, TCP_MAX);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const reply = accept(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      done(
        reply === undefined ? new DnsUnreachable(label, 'network', 'mismatched answer') : undefined,
        reply,
      );
    });
    try {
      socket.connect(server.port, server.host, () => socket.write(query));
    } catch (error) {
      done(new DnsUnreachable(label, 'network', codeOf(error)));
    }
  });
