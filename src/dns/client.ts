import { randomInt } from 'node:crypto';
import { getServers } from 'node:dns';
import { isIP } from 'node:net';
import * as wire from 'dns-packet';
import { AddressPolicy, type AllowedRange } from './addresses.js';
import { CHECK_LIMITS, CheckBounds, type CheckLimits } from './bounds.js';
import type { DnsServer } from './servers.js';
import {
  canonicalName,
  DnsUnreachable,
  parseReply,
  sameName,
  serverLabel,
  tcpExchange,
  udpExchange,
} from './transport.js';

export { canonicalName, DnsUnreachable, sameName, serverLabel };

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

/**
 * A nameserver address a check may not ask (loopback, private, link-local …, contract §3): the checks
 * report it as a finding and send nothing there.
 */
export class NotPublicAddress extends Error {
  constructor(
    readonly address: string,
    readonly kind: string,
  ) {
    super(`${address}: not a public address (${kind})`);
    this.name = 'NotPublicAddress';
  }
}

export interface DnsClientOptions {
  resolvers?: readonly DnsServer[];
  timeoutMs?: number;
  /**
   * Where zones' own nameservers listen. 53 on the internet; the playground's DNS
   * (src/playground/dns.ts) runs its nameservers on a port it may bind without privileges.
   */
  nameserverPort?: number;
  /** LIVE_CHECK_ALLOW: ranges outside the public internet that nameservers may still be asked at. */
  allowed?: readonly AllowedRange[];
  /** The bounds of one check (`forCheck`); the contract's unless a test shrinks them. */
  limits?: CheckLimits;
}

/**
 * Questions over UDP (TCP when the answer is truncated), to one server or through the resolvers. No
 * answer, however hostile, rejects with anything but DnsUnreachable (or NotPublicAddress, before any
 * packet): the transport (transport.ts) settles every socket error into the promise.
 */
export class DnsClient {
  readonly #resolvers: readonly DnsServer[];
  readonly #timeoutMs: number;
  readonly #nameserverPort: number;
  readonly #options: DnsClientOptions;
  readonly policy: AddressPolicy;
  /** Set on a client made by `forCheck`: that check's deadline, address budget and queue. */
  readonly #bounds: CheckBounds | undefined;

  /** `check`: set by `forCheck` — that check's bounds, and its parent's resolvers and policy, read once. */
  constructor(
    options: DnsClientOptions = {},
    check?: { bounds: CheckBounds; resolvers: readonly DnsServer[]; policy: AddressPolicy },
  ) {
    this.#options = options;
    this.#resolvers = check?.resolvers ?? options.resolvers ?? systemResolvers();
    this.#timeoutMs = options.timeoutMs ?? UDP_TIMEOUT_MS;
    this.#nameserverPort = options.nameserverPort ?? 53;
    this.policy = check?.policy ?? new AddressPolicy(options.allowed);
    this.#bounds = check?.bounds;
  }

  /**
   * A client for one check (a `/dns check`, a watch's look, one confirmation of published records):
   * at most `perHost` addresses per nameserver, `direct` addresses in all, `concurrent` questions at
   * once, and nothing asked after the deadline (contract §3).
   */
  forCheck(): DnsClient {
    return new DnsClient(this.#options, {
      bounds: new CheckBounds(this.#options.limits ?? CHECK_LIMITS),
      resolvers: this.#resolvers,
      policy: this.policy,
    });
  }

  /** This check's bounds (the contract's for a client that is not one check's). */
  get limits(): CheckLimits {
    return this.#bounds?.limits ?? this.#options.limits ?? CHECK_LIMITS;
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
        return await this.#exchange(server, name, type, { ...options, recursion: true });
      } catch (error) {
        if (!(error instanceof DnsUnreachable)) throw error;
        last = error;
        if (error.kind === 'limit') break;
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

  /**
   * One question to one nameserver, directly (RD off unless asked). Throws NotPublicAddress, sending
   * nothing, for an address outside the public internet and LIVE_CHECK_ALLOW, and DnsUnreachable
   * with kind `limit` once the check's budget of addresses is spent.
   */
  async ask(server: DnsServer, name: string, type: RecordType, options: AskOptions = {}): Promise<DnsAnswer> {
    if (!this.#isResolver(server)) {
      const verdict = this.policy.judge(server.host);
      if (verdict !== 'public' && verdict !== 'allowed') throw new NotPublicAddress(server.host, verdict);
      if (this.#bounds?.takeAddress(server.host) === false)
        throw new DnsUnreachable(serverLabel(server), 'limit', 'addresses');
    }
    return this.#exchange(server, name, type, options);
  }

  #isResolver(server: DnsServer): boolean {
    return this.#resolvers.some((resolver) => resolver.host === server.host && resolver.port === server.port);
  }

  /** UDP (a second try after a timeout), TCP after truncation; within the check's queue and deadline. */
  async #exchange(
    server: DnsServer,
    name: string,
    type: RecordType,
    options: AskOptions,
  ): Promise<DnsAnswer> {
    const message = (id: number) => encodeQuery(id, name, type, options);
    const accept = (id: number) => (reply: Buffer) => parseReply(reply, id, name, type);
    const exchange = async (remainingMs: number) => {
      const started = Date.now();
      const left = () => remainingMs - (Date.now() - started);
      let reply: wire.Packet | undefined;
      for (let attempt = 0; attempt < 2 && reply === undefined && left() > 0; attempt++) {
        const id = randomInt(0, 65_536);
        reply = await udpExchange(
          server,
          wire.encode(message(id)),
          accept(id),
          Math.min(this.#timeoutMs, left()),
        ).catch((error: unknown) => {
          if (error instanceof DnsUnreachable && error.kind === 'timeout' && attempt === 0) return undefined;
          throw error;
        });
      }
      if (reply === undefined) throw new DnsUnreachable(serverLabel(server), 'timeout');
      // Truncated: once over TCP, whose answer is taken as it comes (no second round, no loop).
      if (((reply.flags ?? 0) & wire.TRUNCATED_RESPONSE) !== 0 && left() > 0) {
        const id = randomInt(0, 65_536);
        reply = await tcpExchange(
          server,
          wire.streamEncode(message(id)),
          accept(id),
          Math.min(TCP_TIMEOUT_MS, left()),
        );
      }
      return answerOf(reply);
    };
    if (this.#bounds === undefined) return exchange(Number.POSITIVE_INFINITY);
    const answer = await this.#bounds.run(exchange);
    if (answer === undefined) throw new DnsUnreachable(serverLabel(server), 'limit', 'deadline');
    return answer;
  }
}

function encodeQuery(id: number, name: string, type: RecordType, options: AskOptions): wire.Packet {
  return {
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
  };
}

/** The answer as the checks read it; sections a hostile server left out or malformed are empty. */
function answerOf(reply: wire.Packet): DnsAnswer {
  const flags = reply.flags ?? 0;
  const section = (records: wire.Answer[] | undefined) => (Array.isArray(records) ? records : []);
  return {
    rcode: (reply as { rcode?: string }).rcode ?? 'NOERROR',
    authoritative: (flags & wire.AUTHORITATIVE_ANSWER) !== 0,
    authenticated: (flags & wire.AUTHENTIC_DATA) !== 0,
    answers: section(reply.answers),
    authorities: section(reply.authorities),
    additionals: section(reply.additionals).filter((record) => record.type !== 'OPT'),
  };
}
