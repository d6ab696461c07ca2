import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { getServers } from 'node:dns';
import { isIP, Socket } from 'node:net';
import * as wire from 'dns-packet';
import type { DnsServer } from './servers.js';

/**
 * The record types the checks read. Node's `dns` module has no DS, DNSKEY, RRSIG or CAA, no way to
 * ask one server without recursion, and hides the AA and AD flags, so Regdesk speaks the wire format
 * itself through `dns-packet` (the encoder behind multicast-dns and bonjour: every type here, EDNS0
 * and TCP framing; no transport of its own, which is the small part written here).
 */
export type RecordType =
  | 'A'
  | 'AAAA'
  | 'NS'
  | 'SOA'
  | 'MX'
  | 'TXT'
  | 'CNAME'
  | 'CAA'
  | 'SRV'
  | 'DS'
  | 'DNSKEY'
  | 'RRSIG';

export type DnsRecord = wire.Answer;

export interface DnsAnswer {
  /** As the server said it: NOERROR, NXDOMAIN, SERVFAIL, REFUSED, NOTAUTH … */
  rcode: string;
  /** AA: the server answered from a zone it serves. */
  authoritative: boolean;
  /** AD: a validating resolver validated the answer (DNSSEC "secure"). */
  authenticated: boolean;
  answers: DnsRecord[];
  authorities: DnsRecord[];
  additionals: DnsRecord[];
}

/**
 * No answer at all: a timeout, a refused connection, a network error. The checks say "could not
 * check" for it, never a finding (issue #30): silence is not evidence.
 */
export class DnsUnreachable extends Error {
  constructor(
    readonly server: string,
    /** `timeout`: no answer in time; `network`: the question could not be sent or was refused; `answered`: an rcode that says nothing (SERVFAIL, REFUSED from a resolver). */
    readonly kind: 'timeout' | 'network' | 'answered',
    readonly detail = '',
  ) {
    super(`${server}: ${kind}${detail === '' ? '' : ` ${detail}`}`);
    this.name = 'DnsUnreachable';
  }
}

export interface AskOptions {
  /** RD: ask a resolver to recurse (off when asking a zone's own nameserver). */
  recursion?: boolean;
  /** DO: ask for RRSIGs. */
  dnssec?: boolean;
  /** CD: a validating resolver answers even what does not validate (to tell "bogus" from "broken"). */
  checkingDisabled?: boolean;
}

/** What one UDP try waits; a second try follows, so one question waits at most twice this. */
const UDP_TIMEOUT_MS = 2_000;
const TCP_TIMEOUT_MS = 4_000;
/** EDNS0 buffer size of DNS Flag Day 2020: no fragmentation, TCP beyond it. */
const UDP_PAYLOAD = 1232;

export const serverLabel = (server: DnsServer) =>
  `${isIP(server.host) === 6 ? `[${server.host}]` : server.host}${server.port === 53 ? '' : `:${server.port}`}`;

/** The resolvers of the machine (/etc/resolv.conf), as Node reads them: DNS_RESOLVERS' default. */
export function systemResolvers(): DnsServer[] {
  return getServers().flatMap((entry) => {
    const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
    if (bracketed?.[1] !== undefined) return [{ host: bracketed[1], port: Number(bracketed[2]) }];
    if (isIP(entry) !== 0) return [{ host: entry, port: 53 }];
    const withPort = /^([\d.]+):(\d+)$/.exec(entry);
    return withPort?.[1] === undefined ? [] : [{ host: withPort[1], port: Number(withPort[2]) }];
  });
}

/** Questions over UDP (TCP when the answer is truncated), to one server or through the resolvers. */
export class DnsClient {
  readonly #resolvers: readonly DnsServer[];
  readonly #timeoutMs: number;
  readonly #nameserverPort: number;

  /**
   * `nameserverPort`: where zones' own nameservers listen. 53 on the internet; the playground's DNS
   * (src/playground/dns.ts) runs its nameservers on a port it may bind without privileges.
   */
  constructor(
    options: { resolvers?: readonly DnsServer[]; timeoutMs?: number; nameserverPort?: number } = {},
  ) {
    this.#resolvers = options.resolvers ?? systemResolvers();
    this.#timeoutMs = options.timeoutMs ?? UDP_TIMEOUT_MS;
    this.#nameserverPort = options.nameserverPort ?? 53;
  }

  /** A nameserver found by its address (from NS records and glue), to be asked directly. */
  nameserver(address: string): DnsServer {
    return { host: address, port: this.#nameserverPort };
  }

  get resolvers(): readonly DnsServer[] {
    return this.#resolvers;
  }

  /** Through the resolvers, the next one when one does not answer (RD on). */
  async resolve(
    name: string,
    type: RecordType,
    options: Omit<AskOptions, 'recursion'> = {},
  ): Promise<DnsAnswer> {
    let last: DnsUnreachable | undefined;
    for (const server of this.#resolvers) {
      try {
        return await this.ask(server, name, type, { ...options, recursion: true });
      } catch (error) {
        if (!(error instanceof DnsUnreachable)) throw error;
        last = error;
      }
    }
    throw last ?? new DnsUnreachable('resolver', 'network', 'no resolvers');
  }

  /**
   * The answer section through the resolvers, when they answered it: NOERROR, or NXDOMAIN (no such
   * name, so nothing). SERVFAIL, REFUSED and the like throw `DnsUnreachable`: the resolver could not
   * say, which is not "there is none". With `mustExist`, NXDOMAIN throws too: for a domain the
   * registrar holds, "no such name" means the resolvers cannot see it (the delegation check says why
   * when it can), not that it has no records.
   */
  async records(name: string, type: RecordType, options: { mustExist?: boolean } = {}): Promise<DnsRecord[]> {
    const answer = await this.resolve(name, type);
    const known = answer.rcode === 'NOERROR' || (answer.rcode === 'NXDOMAIN' && options.mustExist !== true);
    if (!known) throw new DnsUnreachable(`${name} ${type}`, 'answered', answer.rcode);
    return answer.answers;
  }

  /** The IPv4 and IPv6 addresses of a host, through the resolvers (empty when it has none). */
  async addresses(host: string): Promise<string[]> {
    const [v4, v6] = await Promise.all([this.records(host, 'A'), this.records(host, 'AAAA')]);
    return [...v4, ...v6].flatMap((record) =>
      (record.type === 'A' || record.type === 'AAAA') && sameName(record.name, host) ? [record.data] : [],
    );
  }

  /** One question to one server. */
  async ask(server: DnsServer, name: string, type: RecordType, options: AskOptions = {}): Promise<DnsAnswer> {
    const query = (id: number): wire.Packet => ({
      type: 'query',
      id,
      flags:
        (options.recursion === true ? wire.RECURSION_DESIRED : 0) |
        (options.checkingDisabled === true ? wire.CHECKING_DISABLED : 0),
      questions: [{ type, name, class: 'IN' }],
      additionals: [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: UDP_PAYLOAD,
          flags: options.dnssec === true ? wire.DNSSEC_OK : 0,
        } as wire.Answer,
      ],
    });
    let reply: wire.Packet | undefined;
    for (let attempt = 0; attempt < 2 && reply === undefined; attempt++) {
      const id = randomInt(0, 65_536);
      reply = await this.#udp(server, query(id), id, name, type).catch((error: unknown) => {
        if (error instanceof DnsUnreachable && error.kind === 'timeout' && attempt === 0) return undefined;
        throw error;
      });
    }
    if (reply === undefined) throw new DnsUnreachable(serverLabel(server), 'timeout');
    if (((reply.flags ?? 0) & wire.TRUNCATED_RESPONSE) !== 0) {
      const id = randomInt(0, 65_536);
      reply = await this.#tcp(server, query(id), id, name, type);
    }
    return answerOf(reply);
  }

  #udp(server: DnsServer, query: wire.Packet, id: number, name: string, type: string): Promise<wire.Packet> {
    return new Promise((resolve, reject) => {
      const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
      const label = serverLabel(server);
      const done = (error?: Error, reply?: wire.Packet) => {
        clearTimeout(timer);
        socket.close();
        if (reply !== undefined) resolve(reply);
        else reject(error ?? new DnsUnreachable(label, 'timeout'));
      };
      const timer = setTimeout(() => done(new DnsUnreachable(label, 'timeout')), this.#timeoutMs);
      socket.on('error', (error) => done(new DnsUnreachable(label, 'network', codeOf(error))));
      socket.on('message', (message) => {
        const reply = matching(message, id, name, type);
        // Anything else (a late answer to an earlier try, spoofing) is ignored; the timer still runs.
        if (reply !== undefined) done(undefined, reply);
      });
      // Connected: only the server's own datagrams arrive, and an ICMP refusal ends the wait at once.
      socket.connect(server.port, server.host, () => {
        socket.send(wire.encode(query), (error) => {
          if (error) done(new DnsUnreachable(label, 'network', codeOf(error)));
        });
      });
    });
  }

  #tcp(server: DnsServer, query: wire.Packet, id: number, name: string, type: string): Promise<wire.Packet> {
    return new Promise((resolve, reject) => {
      const label = serverLabel(server);
      const socket = new Socket();
      let buffered = Buffer.alloc(0);
      const done = (error?: Error, reply?: wire.Packet) => {
        clearTimeout(timer);
        socket.destroy();
        if (reply !== undefined) resolve(reply);
        else reject(error ?? new DnsUnreachable(label, 'timeout'));
      };
      const timer = setTimeout(() => done(new DnsUnreachable(label, 'timeout')), TCP_TIMEOUT_MS);
      socket.on('error', (error) => done(new DnsUnreachable(label, 'network', codeOf(error))));
      socket.on('data', (chunk) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
        const reply = matching(buffered.subarray(2, 2 + buffered.readUInt16BE(0)), id, name, type);
        done(
          reply === undefined ? new DnsUnreachable(label, 'network', 'mismatched answer') : undefined,
          reply,
        );
      });
      socket.connect(server.port, server.host, () => socket.write(wire.streamEncode(query)));
    });
  }
}

/** The reply to our question, or undefined (not DNS, another id, another question). */
function matching(message: Buffer, id: number, name: string, type: string): wire.Packet | undefined {
  try {
    const reply = wire.decode(message);
    const question = reply.questions?.[0];
    if (reply.id !== id || question === undefined) return undefined;
    return sameName(question.name, name) && question.type === type ? reply : undefined;
  } catch {
    return undefined;
  }
}

function answerOf(reply: wire.Packet): DnsAnswer {
  const flags = reply.flags ?? 0;
  return {
    rcode: (reply as { rcode?: string }).rcode ?? 'NOERROR',
    authoritative: (flags & wire.AUTHORITATIVE_ANSWER) !== 0,
    authenticated: (flags & wire.AUTHENTIC_DATA) !== 0,
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
    additionals: (reply.additionals ?? []).filter((record) => record.type !== 'OPT'),
  };
}

const codeOf = (error: Error) => (error as NodeJS.ErrnoException).code ?? error.message;

/** DNS names compare without case and without the root's trailing dot. */
export function sameName(a: string, b: string): boolean {
  return canonicalName(a) === canonicalName(b);
}

export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}
