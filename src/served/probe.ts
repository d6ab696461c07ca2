import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { DnsClient } from '../dns/client.js';
import { type LeafIdentity, leafFromDer } from './leaf.js';

/**
 * Which certificate a name serves (contract §3 "What is served and what is issued"): its addresses
 * through the resolvers, then a TLS handshake with SNI on each configured port. The address rules of
 * live DNS apply (docs/requirements.md R49): only public addresses or LIVE_CHECK_ALLOW are shaken
 * hands with; any other is reported and nothing is sent there. Every failure is a value ("could not
 * check"), never a throw and never "fine" (R45, R54).
 */

export interface ServedLimits {
  /** Addresses asked per name (the resolvers may give dozens). */
  addressesPerName: number;
  /** Handshakes in one look: names × addresses × ports beyond this are "could not check". */
  handshakes: number;
  /** Handshakes in flight at once. */
  concurrent: number;
  /** Connect plus handshake, per address and port. */
  timeoutMs: number;
  /** Bytes read from one server before its handshake ends. */
  maxBytes: number;
  /** The whole look; what is left unasked then is "could not check". */
  deadlineMs: number;
}

/**
 * A look asks at most 32 handshakes, 8 at a time, 5 s each, within 30 s: a certificate with 8 names on
 * 2 addresses and 2 ports fits whole; OpenSSL stops a certificate list at 100 KiB by itself, and 64 KiB
 * leaves every real chain room.
 */
export const SERVED_LIMITS: ServedLimits = {
  addressesPerName: 4,
  handshakes: 32,
  concurrent: 8,
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
  deadlineMs: 30_000,
};

export type ServedFailure = 'timeout' | 'refused' | 'handshake' | 'too-large' | 'no-certificate' | 'limit';

/** One name's answer at one address and port, or why there is none. */
export type ServedCheck =
  | { name: string; address: string; port: number; kind: 'served'; leaf: LeafIdentity }
  | { name: string; address: string; port: number; kind: 'unchecked'; reason: ServedFailure }
  | { name: string; address: string; kind: 'not-public'; addressKind: string }
  | { name: string; kind: 'unresolved'; reason: 'no-address' | 'dns' | 'limit' };

/** Where the handshake goes: `address` is dialled, `name` is sent as SNI. */
interface Target {
  name: string;
  address: string;
  port: number;
}

export class ServedProbe {
  readonly ports: readonly number[];
  readonly limits: ServedLimits;

  constructor(options: { ports: readonly number[]; limits?: ServedLimits }) {
    this.ports = options.ports;
    this.limits = options.limits ?? SERVED_LIMITS;
  }

  /**
   * Asks each name (wildcards are skipped: no host answers for `*`) through `dns`, whose address
   * policy (LIVE_CHECK_ALLOW) and bounded resolution are live DNS's own.
   */
  async look(dns: DnsClient, names: readonly string[]): Promise<ServedCheck[]> {
    const deadline = Date.now() + this.limits.deadlineMs;
    const check = dns.forCheck();
    const hosts = [...new Set(names.map((n) => n.toLowerCase().replace(/\.$/, '')))].filter(
      (n) => n !== '' && !n.startsWith('*.'),
    );
    const results: ServedCheck[] = [];
    const targets: Target[] = [];
    // No more names are resolved than a look may shake hands with: a certificate may name hundreds.
    for (const name of hosts.slice(this.limits.handshakes))
      results.push({ name, kind: 'unresolved', reason: 'limit' });
    hosts.splice(this.limits.handshakes);
    const resolved = await Promise.all(hosts.map((name) => this.#addresses(check, name)));
    for (const [index, name] of hosts.entries()) {
      const addresses = resolved[index];
      if (addresses === undefined) {
        results.push({ name, kind: 'unresolved', reason: 'dns' });
        continue;
      }
      if (addresses.length === 0) results.push({ name, kind: 'unresolved', reason: 'no-address' });
      for (const address of addresses.slice(0, this.limits.addressesPerName)) {
        const verdict = dns.policy.judge(address);
        if (verdict !== 'public' && verdict !== 'allowed') {
          results.push({ name, address, kind: 'not-public', addressKind: verdict });
          continue;
        }
        for (const port of this.ports) targets.push({ name, address, port });
      }
    }
    const asked = targets.slice(0, this.limits.handshakes);
    for (const target of targets.slice(this.limits.handshakes))
      results.push({ ...target, kind: 'unchecked', reason: 'limit' });
    let next = 0;
    const worker = async () => {
      while (next < asked.length) {
        const target = asked[next++] as Target;
        const left = deadline - Date.now();
        results.push(
          left <= 0
            ? { ...target, kind: 'unchecked', reason: 'limit' }
            : await this.#handshake(target, Math.min(this.limits.timeoutMs, left)),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.concurrent, asked.length) }, worker));
    return results;
  }

  /** The name's addresses, or undefined when the resolvers could not say (not "it has none"). */
  async #addresses(dns: DnsClient, name: string): Promise<string[] | undefined> {
    try {
      return await dns.addresses(name);
    } catch {
      return undefined;
    }
  }

  /**
   * One handshake. `rejectUnauthorized: false` on purpose: the question is which certificate is
   * served, not whether this machine trusts it. Private CAs and self-signed servers exist, and an
   * expired or wrongly named certificate is exactly what must be seen, not refused before it is read.
   * Nothing is sent after the handshake; the socket is destroyed at once.
   */
  #handshake(target: Target, timeoutMs: number): Promise<ServedCheck> {
    return new Promise((resolve) => {
      const raw = netConnect({ host: target.address, port: target.port });
      const socket = tlsConnect({
        socket: raw,
        servername: target.name,
        rejectUnauthorized: false,
      });
      let settled = false;
      const finish = (check: ServedCheck) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(meter);
        socket.destroy();
        raw.destroy();
        resolve(check);
      };
      const failed = (reason: ServedFailure) => finish({ ...target, kind: 'unchecked', reason });
      const timer = setTimeout(() => failed('timeout'), timeoutMs);
      // A server that streams bytes without ever finishing the handshake is cut off.
      const meter = setInterval(() => {
        if (raw.bytesRead > this.limits.maxBytes) failed('too-large');
      }, 50);
      // The raw socket's error reaches the TLS socket too: whichever comes first names it.
      const onError = (error: NodeJS.ErrnoException) =>
        failed(error.code === 'ECONNREFUSED' ? 'refused' : 'handshake');
      raw.on('error', onError);
      socket.on('error', onError);
      socket.on('close', () => failed('handshake'));
      socket.once('secureConnect', () => {
        if (raw.bytesRead > this.limits.maxBytes) return failed('too-large');
        const der = socket.getPeerCertificate(false)?.raw;
        const leaf = der === undefined ? undefined : leafFromDer(der);
        finish(
          leaf === undefined
            ? { ...target, kind: 'unchecked', reason: 'no-certificate' }
            : { ...target, kind: 'served', leaf },
        );
      });
    });
  }
}

/** TLS_CHECK_PORTS (contract §2): `port,…`, each 1–65535, at most 4; the problem as a sentence, or the ports. */
export function parsePorts(value: string): { ports: number[] } | { problem: string } {
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const ports: number[] = [];
  for (const entry of entries) {
    const port = Number(entry);
    if (!/^\d{1,5}$/.test(entry) || port < 1 || port > 65_535)
      return { problem: `"${entry}" is not a port (1–65535)` };
    if (!ports.includes(port)) ports.push(port);
  }
  if (ports.length === 0) return { problem: 'names no port' };
  if (ports.length > 4)
    return { problem: 'names more than 4 ports (each is a handshake per name and address)' };
  return { ports };
}
