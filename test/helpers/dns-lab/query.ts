import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as wire from 'dns-packet';

/**
 * A small DNS client (UDP, TCP on truncation) that shows flags, rcodes and RRSIGs as text: node:dns
 * hides the AD flag and DNSSEC records. `dns-packet` (Regdesk's own wire library) reads and writes
 * the messages; this part only prints records the way Knot does.
 */

export interface DnsRecord {
  /** Owner name, absolute, lower case, with the trailing dot. */
  name: string;
  type: string;
  ttl: number;
  /** Presentation format as Knot prints it for the types the lab uses (RRSIG times as YYYYMMDDHHmmSS). */
  data: string;
}

export interface DnsResponse {
  rcode: string;
  flags: { aa: boolean; tc: boolean; ra: boolean; ad: boolean };
  answers: DnsRecord[];
  authority: DnsRecord[];
}

export interface QueryOptions {
  /** Set the DO bit (ask for RRSIGs). Default true. */
  dnssec?: boolean;
  /** Set RD (recursion desired): for resolvers. Default true. */
  recurse?: boolean;
  /** Per attempt; default 2000 ms. */
  timeoutMs?: number;
}

const absolute = (name: string) =>
  name === '' || name === '.' ? '.' : `${name.toLowerCase().replace(/\.$/, '')}.`;
const dnsTime = (seconds: number) =>
  new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
/** A TXT string in presentation format (zone files, knotc). */
export const quote = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
const latin1 = (part: string | Buffer) => (typeof part === 'string' ? part : part.toString('latin1'));

/** Presentation format of one record's data; types the lab does not read come out as RFC 3597 `\#`. */
function presentation(record: wire.Answer): string {
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return record.data;
    case 'NS':
    case 'CNAME':
      return absolute(record.data);
    case 'MX':
      return `${record.data.preference ?? 0} ${absolute(record.data.exchange)}`;
    case 'SOA': {
      const soa = record.data;
      return [
        absolute(soa.mname),
        absolute(soa.rname),
        soa.serial,
        soa.refresh,
        soa.retry,
        soa.expire,
        soa.minimum,
      ].join(' ');
    }
    case 'TXT':
      return (Array.isArray(record.data) ? record.data : [record.data])
        .map((part) => quote(latin1(part)))
        .join(' ');
    case 'CAA':
      return `${record.data.flags ?? 0} ${record.data.tag} ${quote(record.data.value)}`;
    case 'DS':
      return `${record.data.keyTag} ${record.data.algorithm} ${record.data.digestType} ${record.data.digest.toString('hex')}`;
    case 'DNSKEY':
      return `${record.data.flags} 3 ${record.data.algorithm} ${record.data.key.toString('base64')}`;
    case 'RRSIG': {
      const sig = record.data;
      return [
        sig.typeCovered,
        sig.algorithm,
        sig.labels,
        sig.originalTTL,
        dnsTime(sig.expiration),
        dnsTime(sig.inception),
        sig.keyTag,
        absolute(sig.signersName),
        sig.signature.toString('base64'),
      ].join(' ');
    }
    case 'OPT':
      return '';
    default: {
      const raw = Buffer.isBuffer(record.data) ? record.data : Buffer.alloc(0);
      return `\\# ${raw.length} ${raw.toString('hex')}`;
    }
  }
}

function buildQuery(id: number, name: string, type: string, options: QueryOptions): Buffer {
  return wire.encode({
    type: 'query',
    id,
    // RD as asked; AD asks for the AD bit in the answer even without DO (RFC 6840 5.7).
    flags: ((options.recurse ?? true) ? wire.RECURSION_DESIRED : 0) | wire.AUTHENTIC_DATA,
    questions: [{ type: type.toUpperCase() as wire.RecordType, name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 4096,
        flags: (options.dnssec ?? true) ? wire.DNSSEC_OK : 0,
      } as wire.Answer,
    ],
  });
}

function parseResponse(message: Buffer, id: number): DnsResponse {
  const reply = wire.decode(message);
  if (reply.id !== id) throw new Error('queryDns: mismatched response');
  const records = (section: wire.Answer[] | undefined) =>
    (section ?? []).map((record) => ({
      name: absolute(record.name),
      type: record.type,
      ttl: 'ttl' in record ? (record.ttl ?? 0) : 0,
      data: presentation(record),
    }));
  return {
    rcode: (reply as { rcode?: string }).rcode ?? 'NOERROR',
    flags: { aa: reply.flag_aa, tc: reply.flag_tc, ra: reply.flag_ra, ad: reply.flag_ad },
    answers: records(reply.answers),
    authority: records(reply.authorities),
  };
}

function queryUdp(server: string, port: number, query: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(
      () => finish(new Error(`no answer from ${server}:${port} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    let done = false;
    const finish = (error: Error | undefined, message?: Buffer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (message !== undefined) resolve(message);
      else reject(error);
    };
    socket.on('error', (error) => finish(error));
    socket.on('message', (message) => {
      // Ignore strays; only the answer to this query's id counts.
      if (message.length >= 2 && message.readUInt16BE(0) === query.readUInt16BE(0))
        finish(undefined, message);
    });
    socket.send(query, port, server);
  });
}

function queryTcp(server: string, port: number, query: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: server, port });
    let received = Buffer.alloc(0);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no TCP answer from ${server}:${port}`)));
    socket.on('error', reject);
    // Settles nothing after an answer; rejects when the server closed without one.
    socket.on('close', () => reject(new Error(`${server}:${port} closed the TCP connection unanswered`)));
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.end();
        resolve(received.subarray(2, 2 + received.readUInt16BE(0)));
      }
    });
  });
}

/**
 * One DNS query to `server` (an IPv4 address, optionally `:port`), over UDP and again over TCP when the
 * answer is truncated. Resolves with the rcode, flags and records; rejects only when nobody answers.
 */
export async function queryDns(
  server: string,
  name: string,
  type: string,
  options: QueryOptions = {},
): Promise<DnsResponse> {
  const [host = server, portText] = server.split(':');
  const port = portText === undefined ? 53 : Number(portText);
  const id = Math.floor(Math.random() * 0x10000);
  const query = buildQuery(id, name, type, options);
  const timeoutMs = options.timeoutMs ?? 2000;
  const answer = parseResponse(await queryUdp(host, port, query, timeoutMs), id);
  if (!answer.flags.tc) return answer;
  return parseResponse(await queryTcp(host, port, query, timeoutMs), id);
}
