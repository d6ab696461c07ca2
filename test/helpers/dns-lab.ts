import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wire from 'dns-packet';
import { findProgram, installDebianPackages, isRoot } from './debian.js';

/**
 * A small, real DNS hierarchy on loopback for tests: a signed root, a signed `de.`, child zones with
 * one fault each, served by Debian's Knot DNS (authoritative, automatic DNSSEC signing), an Unbound
 * validating resolver whose only trust anchor is the lab's root, and a second Unbound that does not
 * validate at all. Nothing leaves the machine.
 *
 * Each lab owns 127.53.N.0/24 (Linux routes all of 127/8 to lo). Every server listens on port 53 of
 * its own address, because NS records and glue cannot carry ports.
 */

export interface DnsLab {
  /** The validating resolver, `host:port` (for Regdesk's DNS_RESOLVERS). */
  resolver: string;
  /** A resolver that does not validate (no trust anchor, no validator module), `host:port`. */
  plainResolver: string;
  /** The lab root's DS, as DNSSEC_TRUST_ANCHOR takes it: `. IN DS <tag> <algorithm> 2 <hex>`. */
  trustAnchor: string;
  /** Addresses: root, tld, primary (two), alt. */
  addresses: { root: string; tld: string; primary: [string, string]; alt: string };
  /** Child zone names without trailing dot, e.g. zones.healthy === 'healthy.de'. */
  zones: {
    healthy: string;
    lame: string;
    serial: string;
    badDs: string;
    expiring: string;
    caa: string;
    spf: string;
    noDmarc: string;
    /**
     * Signed with NSEC3 and opt-out, unlike the others (NSEC), and it delegates `unsigned.<zone>`
     * (unsigned, no DS) to the primary: a denial of DS by an opt-out NSEC3 span, from Knot itself.
     */
    nsec3: string;
  };
  /** The NS host names (no trailing dot) the parent lists for a child zone. */
  nameservers(zone: string): string[];
  /**
   * Replaces the RRset `owner`/`type` of `zone` on the primary with this one record and returns once
   * the primary serves the new zone version. `owner` is relative to the zone (`@`, `_acme-challenge`) or
   * absolute (`www.healthy.de`, with or without the trailing dot); `rdata` is presentation format (a TXT
   * value without surrounding quotes is quoted here).
   */
  setRecord(zone: string, owner: string, type: string, rdata: string, ttl?: number): Promise<void>;
  /** Removes the RRset `owner`/`type` (if any) and returns once the primary serves the change. */
  removeRecord(zone: string, owner: string, type: string): Promise<void>;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Installing knot and unbound
// ---------------------------------------------------------------------------------------------------

/** The programs the lab runs and the Debian packages they come in (kdig is not needed: see queryDns). */
const PROGRAMS = [
  { name: 'knotd', pkg: 'knot' },
  { name: 'knotc', pkg: 'knot' },
  { name: 'keymgr', pkg: 'knot' },
  { name: 'unbound', pkg: 'unbound' },
] as const;
type Program = (typeof PROGRAMS)[number]['name'];

function program(name: Program): string {
  const path = findProgram(name);
  if (path === undefined) throw new Error(`${name} is missing: ensureDnsServers() installs it.`);
  return path;
}

/** The work directories of labs carry this prefix; daemons started by a lab have it in their command line. */
const WORK_DIR_PREFIX = 'regdesk-dns-lab-';

/** knotd and unbound processes running now, pid → command line. */
function runningDaemons(): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Exact comm match: kernel threads such as "kworker/u8:1-events_unbound" must not count.
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'knotd' && comm !== 'unbound') continue;
      found.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * Finds knotd, knotc, keymgr (package knot) and unbound (package unbound) and, when any is missing and
 * we are root, installs them with apt-get (debian.ts, as ensureChromium does for chromium), saying so;
 * any knotd or unbound the install started anyway is stopped. Otherwise it explains how to get them.
 */
export function ensureDnsServers(
  log: (line: string) => void = (line) => console.log(`[test] ${line}`),
): void {
  const missing = PROGRAMS.filter((candidate) => findProgram(candidate.name) === undefined);
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((candidate) => candidate.pkg))];
  if (!isRoot()) {
    throw new Error(
      `The DNS lab tests need Debian's knot and unbound packages (${missing.map((m) => m.name).join(', ')} ` +
        'missing). Install them with `sudo apt-get install -y knot unbound`.',
    );
  }
  const names = missing.map((candidate) => candidate.name).join(', ');
  log(
    `${names} ${missing.length === 1 ? 'is' : 'are'} missing: installing Debian's ${packages.join(' and ')} ` +
      `package${packages.length === 1 ? '' : 's'} (apt-get) ...`,
  );
  const before = runningDaemons();
  installDebianPackages(packages);
  // Without systemd nothing else should start them, but a package-started daemon on 127.0.0.1:53 or
  // 0.0.0.0:53 would outlive the tests: stop any that appeared and is not a lab's own.
  for (const [pid, command] of runningDaemons()) {
    if (before.has(pid) || command.includes(WORK_DIR_PREFIX)) continue;
    log(`stopping ${command} (pid ${pid}), started by the package install`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const stillMissing = PROGRAMS.filter((candidate) => findProgram(candidate.name) === undefined);
  if (stillMissing.length > 0) {
    throw new Error(
      `apt-get installed ${packages.join(', ')}, but ${stillMissing.map((m) => m.name).join(', ')} is missing.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// A small DNS client (UDP, TCP on truncation) that shows flags, rcodes and RRSIGs as text: node:dns
// hides the AD flag and DNSSEC records. `dns-packet` (Regdesk's own wire library) reads and writes
// the messages; this part only prints records the way Knot does.
// ---------------------------------------------------------------------------------------------------

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
const quote = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
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

// ---------------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------------

interface Daemon {
  name: string;
  child: ChildProcess;
  /** The daemon's own log and its stdout/stderr (config errors land there before any log is open). */
  logs: string[];
  exited: Promise<void>;
  /** How it ended ('code 1', 'SIGKILL'), or undefined while it runs. */
  exitStatus(): string | undefined;
}

/** Every daemon of every lab in this process, so they die with it even when nobody calls stop(). */
const liveDaemons = new Set<Daemon>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const daemon of liveDaemons) daemon.child.kill('SIGKILL');
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** setpriv(1) from util-linux: lets the kernel kill a daemon when this process dies, even by SIGKILL. */
const SETPRIV = findProgram('setpriv');

function startDaemon(name: string, dir: string, command: string, args: string[], log: string): Daemon {
  const output = join(dir, `${name}.out`);
  const fd = openSync(output, 'a');
  // Foreground processes (knotd without -d, unbound -d), so the child is the daemon itself.
  const child =
    SETPRIV === undefined
      ? spawn(command, args, { stdio: ['ignore', fd, fd] })
      : spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let status: string | undefined;
  const daemon: Daemon = {
    name,
    child,
    logs: [log, output],
    exited: new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        status = signal ?? `code ${code}`;
        liveDaemons.delete(daemon);
        resolve();
      });
      child.once('error', (error) => {
        status = error.message;
        liveDaemons.delete(daemon);
        resolve();
      });
    }),
    exitStatus: () => status,
  };
  liveDaemons.add(daemon);
  return daemon;
}

function tail(path: string, lines = 25): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

function describeLogs(daemon: Daemon): string {
  return daemon.logs.map((path) => `--- ${path}\n${tail(path)}`).join('\n');
}

async function stopDaemon(daemon: Daemon): Promise<void> {
  if (daemon.exitStatus() !== undefined) return;
  daemon.child.kill('SIGTERM');
  const timer = setTimeout(() => daemon.child.kill('SIGKILL'), 5000);
  await daemon.exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Generous, so a slow or loaded machine is never the reason a lab fails to start. */
const DEADLINE_MS = 30_000;
/**
 * One polling query's wait. Short, because a query sent before the daemon listens is simply lost (no
 * ICMP error reaches an unconnected UDP socket); a slow answer only costs another attempt.
 */
const ATTEMPT_MS = 250;

/**
 * Polls `check` until it returns true. Fails early, with the log tails, when a daemon dies; fails at the
 * deadline with the last error and the log tails.
 */
async function waitFor(what: string, daemons: Daemon[], check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  let last = '';
  for (;;) {
    const dead = daemons.find((daemon) => daemon.exitStatus() !== undefined);
    if (dead !== undefined) {
      throw new Error(
        `DNS lab: ${dead.name} exited (${dead.exitStatus()}) while waiting for ${what}.\n${describeLogs(dead)}`,
      );
    }
    try {
      if (await check()) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      const logs = daemons.map(describeLogs).join('\n');
      throw new Error(
        `DNS lab: timed out after ${DEADLINE_MS} ms waiting for ${what}${last ? ` (${last})` : ''}.\n${logs}`,
      );
    }
    await sleep(50);
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: DEADLINE_MS }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed: ${`${stderr}${stdout}`.trim() || error.message}`),
        );
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// Claiming a /24 of loopback
// ---------------------------------------------------------------------------------------------------

/** Host parts of a lab's addresses: root, TLD, primary (two), alt, the two resolvers. */
const HOSTS = {
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
async function claimSubnet(): Promise<{ prefix: string; claim: Socket }> {
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

// ---------------------------------------------------------------------------------------------------
// Zones
// ---------------------------------------------------------------------------------------------------

const TTL = 60;
const PRIMARY_SERIAL = 2026112701;
const ALT_SERIAL = 2026112601;

type ChildKey = keyof DnsLab['zones'];

interface ChildZone {
  name: string;
  signed: boolean;
  /** Knot DNSSEC policy id (for signed zones). */
  policy: 'lab' | 'expiring' | 'nsec3';
  /** What `de.` says about the DS: the real one, one with a wrong digest, or none (unsigned). */
  ds: 'correct' | 'wrong-digest' | 'none';
  /** Host part of ns2's address: 11 (primary), or 12 (alt) for the lame and serial zones. */
  ns2Host: number;
  caa: string;
  spf: readonly string[];
  dmarc: boolean;
  /** Whether the zone delegates `unsigned.<zone>` (no DS) to the primary, which serves it unsigned. */
  unsignedChild: boolean;
}

function childZones(): Record<ChildKey, ChildZone> {
  const base = {
    signed: true,
    policy: 'lab',
    ds: 'correct',
    ns2Host: HOSTS.primary2,
    caa: '0 issue "digicert.com"',
    spf: ['v=spf1 mx -all'],
    dmarc: true,
    unsignedChild: false,
  } as const;
  return {
    healthy: { ...base, name: 'healthy.de' },
    lame: { ...base, name: 'lame.de', signed: false, ds: 'none', ns2Host: HOSTS.alt },
    serial: { ...base, name: 'serial.de', signed: false, ds: 'none', ns2Host: HOSTS.alt },
    badDs: { ...base, name: 'badds.de', ds: 'wrong-digest' },
    expiring: { ...base, name: 'expiring.de', policy: 'expiring' },
    caa: { ...base, name: 'caa.de', caa: '0 issue "letsencrypt.org"' },
    spf: { ...base, name: 'spf.de', spf: ['v=spf1 mx -all', 'v=spf1 include:_spf.example.net ~all'] },
    noDmarc: { ...base, name: 'nodmarc.de', dmarc: false },
    nsec3: { ...base, name: 'nsec3.de', policy: 'nsec3', unsignedChild: true },
  };
}

function childZoneText(zone: ChildZone, prefix: string, serial: number): string {
  const origin = `${zone.name}.`;
  return [
    `$ORIGIN ${origin}`,
    `$TTL ${TTL}`,
    `@ SOA ns1.${origin} hostmaster.${origin} ${serial} 3600 600 86400 ${TTL}`,
    '@ NS ns1',
    '@ NS ns2',
    `ns1 A ${prefix}.${HOSTS.primary1}`,
    `ns2 A ${prefix}.${zone.ns2Host}`,
    '@ A 192.0.2.1',
    'www A 192.0.2.1',
    `@ MX 10 mail.${origin}`,
    'mail A 192.0.2.25',
    ...zone.spf.map((spf) => `@ TXT ${quote(spf)}`),
    ...(zone.dmarc ? [`_dmarc TXT ${quote(`v=DMARC1; p=reject; rua=mailto:dmarc@${zone.name}`)}`] : []),
    `@ CAA ${zone.caa}`,
    ...(zone.unsignedChild ? ['unsigned NS ns1.unsigned', `ns1.unsigned A ${prefix}.${HOSTS.primary1}`] : []),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Knot and Unbound configuration
// ---------------------------------------------------------------------------------------------------

interface KnotServer {
  name: string;
  dir: string;
  conf: string;
  addresses: string[];
  daemon: Daemon;
}

interface KnotZone {
  domain: string;
  file: string;
  signed: boolean;
  policy?: ChildZone['policy'];
}

function knotConfig(dir: string, addresses: string[], zones: KnotZone[]): string {
  return `# Generated by test/helpers/dns-lab.ts
server:
  rundir: "${dir}"
  # Root stays root: the lab runs as root, and the files are root's.
  user: root:root
  listen: [ ${addresses.map((address) => `${address}@53`).join(', ')} ]
  # Tiny zones: one worker each keeps four servers per lab light.
  udp-workers: 1
  tcp-workers: 1
  background-workers: 1

database:
  storage: "${dir}"

control:
  listen: "${join(dir, 'knot.sock')}"

log:
  - target: "${join(dir, 'knot.log')}"
    any: info

policy:
  # CSK (single-type signing) with NSEC. Signatures live 30 days and are renewed 10 days before they
  # expire, so none ever expires within 7 days.
  - id: lab
    algorithm: ecdsap256sha256
    single-type-signing: on
    rrsig-lifetime: 30d
    rrsig-refresh: 10d
  # Signatures that expire within 7 days (5 days from signing, renewed 1 day before expiry).
  - id: expiring
    algorithm: ecdsap256sha256
    single-type-signing: on
    rrsig-lifetime: 5d
    rrsig-refresh: 1d
  # NSEC3 with opt-out (as de. and most TLDs), no salt and no extra iterations (RFC 9276).
  - id: nsec3
    algorithm: ecdsap256sha256
    single-type-signing: on
    rrsig-lifetime: 30d
    rrsig-refresh: 10d
    nsec3: on
    nsec3-opt-out: on
    nsec3-iterations: 0
    nsec3-salt-length: 0

template:
  - id: default
    # The zone files are ours; changes made with knotc live in memory and the journal only.
    zonefile-sync: -1

zone:
${zones
  .map((zone) =>
    [
      `  - domain: "${zone.domain}"`,
      `    file: "${zone.file}"`,
      ...(zone.signed ? ['    dnssec-signing: on', `    dnssec-policy: ${zone.policy ?? 'lab'}`] : []),
    ].join('\n'),
  )
  .join('\n')}
`;
}

/** Unbound's configuration: validating with `trustAnchor`, or a plain iterating resolver without one. */
function unboundConfig(dir: string, address: string, trustAnchor: string | undefined): string {
  return `# Generated by test/helpers/dns-lab.ts
server:
  interface: ${address}
  port: 53
  do-ip6: no
  # The lab's servers are all on 127/8, which unbound refuses to query by default.
  do-not-query-localhost: no
  access-control: 127.0.0.0/8 allow
  # A stale unbound on this address must make the bind fail, not share the port.
  so-reuseport: no
  num-threads: 1
  # No privilege drop, no chroot: the files live in a root-owned temporary directory.
  username: ""
  chroot: ""
  directory: "${dir}"
  pidfile: "${join(dir, 'unbound.pid')}"
  use-syslog: no
  logfile: "${join(dir, 'unbound.log')}"
  log-time-ascii: yes
  verbosity: 1
  val-log-level: 2
  root-hints: "${join(dir, 'root.hints')}"
${
  trustAnchor === undefined
    ? '  module-config: "iterator"'
    : `  module-config: "validator iterator"\n  trust-anchor: "${trustAnchor}"`
}
  # No RFC 8145 key-tag queries to the lab root: noise in its log and unbound's.
  trust-anchor-signaling: no
  # Tests change records and expect to see the change within seconds: cache almost nothing.
  cache-max-ttl: 2
  cache-max-negative-ttl: 1
  infra-host-ttl: 2
  infra-keep-probing: yes
  val-bogus-ttl: 1
  aggressive-nsec: no
  prefetch: no

remote-control:
  control-enable: no
`;
}

/** The DS of a signed zone's key (SHA-256 digest), as `<tag> <algorithm> 2 <hex>`. */
async function readDs(server: KnotServer, zone: string): Promise<string> {
  const output = await run(program('keymgr'), ['-c', server.conf, zone, 'ds']);
  const match = /\sDS\s+(\d+\s+\d+\s+2\s+[0-9a-f]+)\s*$/im.exec(output);
  if (match?.[1] === undefined)
    throw new Error(`DNS lab: no SHA-256 DS for ${zone} in keymgr output:\n${output}`);
  return match[1].toLowerCase();
}

/** Same key tag and algorithm, every digest nibble flipped: a DS that matches no DNSKEY. */
function wrongDigest(ds: string): string {
  const [tag, algorithm, digestType, digest = ''] = ds.split(/\s+/);
  const flipped = [...digest].map((nibble) => (Number.parseInt(nibble, 16) ^ 0xf).toString(16)).join('');
  return `${tag} ${algorithm} ${digestType} ${flipped}`;
}

// ---------------------------------------------------------------------------------------------------
// The lab
// ---------------------------------------------------------------------------------------------------

/** The pid of the process that owns a work directory. */
const OWNER_FILE = 'owner.pid';

/**
 * Removes the work directories of labs whose process died without stopping them (killed with SIGKILL:
 * no exit hook ran; setpriv's death signal took their daemons). A directory without an owner file may be
 * one being created right now, so it stays.
 */
function removeStaleWorkDirs(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(WORK_DIR_PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner))
      rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether `pid` runs; a zombie (dead, not yet reaped by a lazy init) counts as dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Absolute owner name with trailing dot; see DnsLab.setRecord. */
function absoluteOwner(zone: string, owner: string): string {
  const apex = zone.replace(/\.$/, '').toLowerCase();
  const name = owner.toLowerCase();
  if (name === '@' || name === '') return `${apex}.`;
  if (name.endsWith('.')) return name;
  if (name === apex || name.endsWith(`.${apex}`)) return `${name}.`;
  return `${name}.${apex}.`;
}

/**
 * Starts a lab: claims 127.53.N.0/24, starts the zone servers, signs bottom-up (each parent carries
 * its children's DS), starts the resolver with the lab root's DS as trust anchor, and returns once the
 * resolver answers healthy.de SOA as secure (AD). Needs root (port 53) and knot + unbound installed.
 */
export async function startDnsLab(): Promise<DnsLab> {
  ensureDnsServers();
  if (process.getuid?.() !== 0) throw new Error('The DNS lab binds port 53 on loopback: it needs root.');
  installExitHook();
  removeStaleWorkDirs();
  const { prefix, claim } = await claimSubnet();
  const workDir = mkdtempSync(join(tmpdir(), WORK_DIR_PREFIX));
  liveDirs.add(workDir);
  writeFileSync(join(workDir, OWNER_FILE), String(process.pid));
  const daemons: Daemon[] = [];
  const at = (host: number) => `${prefix}.${host}`;
  const addresses: DnsLab['addresses'] = {
    root: at(HOSTS.root),
    tld: at(HOSTS.tld),
    primary: [at(HOSTS.primary1), at(HOSTS.primary2)],
    alt: at(HOSTS.alt),
  };
  const resolverAddress = at(HOSTS.resolver);
  const plainResolverAddress = at(HOSTS.plainResolver);
  const children = childZones();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await Promise.all(daemons.map(stopDaemon));
      rmSync(workDir, { recursive: true, force: true });
      liveDirs.delete(workDir);
      // Only now, with the daemons gone, may another lab take the addresses.
      claim.close();
    })();
    return stopped;
  };

  /** Writes a knotd config and its zone files and starts it. */
  const startKnot = (name: string, listen: string[], zones: (KnotZone & { text: string })[]): KnotServer => {
    const dir = join(workDir, name);
    mkdirSync(dir);
    for (const zone of zones) writeFileSync(zone.file, zone.text);
    const conf = join(dir, 'knot.conf');
    writeFileSync(conf, knotConfig(dir, listen, zones));
    const daemon = startDaemon(name, dir, program('knotd'), ['-c', conf], join(dir, 'knot.log'));
    daemons.push(daemon);
    return { name, dir, conf, addresses: listen, daemon };
  };

  /**
   * Waits until `server` serves every zone (signed ones with their DNSKEY: Knot signs before it
   * serves), then confirms each signed zone's KSK as submitted: the parent now carries its DS. Knot
   * signs with the new key at once either way, but until then it waits for that confirmation and
   * publishes CDS/CDNSKEY, which would look like a pending rollover.
   */
  const served = async (server: KnotServer, zones: KnotZone[]) => {
    await Promise.all(
      server.addresses.flatMap((address) =>
        zones.map((zone) => {
          const type = zone.signed ? 'DNSKEY' : 'SOA';
          return waitFor(
            `${server.name} to serve ${zone.domain} ${type} on ${address}`,
            [server.daemon],
            async () => {
              const answer = await queryDns(address, zone.domain, type, {
                recurse: false,
                timeoutMs: ATTEMPT_MS,
              });
              return (
                answer.rcode === 'NOERROR' && answer.flags.aa && answer.answers.some((r) => r.type === type)
              );
            },
          );
        }),
      ),
    );
    const signed = zones.filter((zone) => zone.signed).map((zone) => zone.domain);
    if (signed.length === 0) return;
    // -b: returns once the re-signing this triggers is done.
    await run(program('knotc'), ['-c', server.conf, '-b', 'zone-ksk-submitted', ...signed]);
    await Promise.all(
      signed.map((zone) =>
        waitFor(`${server.name} to drop the CDS of ${zone}`, [server.daemon], async () => {
          const address = server.addresses[0] ?? '';
          const answer = await queryDns(address, zone, 'CDS', { recurse: false, timeoutMs: ATTEMPT_MS });
          return answer.rcode === 'NOERROR' && !answer.answers.some((r) => r.type === 'CDS');
        }),
      ),
    );
  };

  try {
    // 1. The child zones: primary (on two addresses) and alt.
    const primaryDir = join(workDir, 'primary');
    // With the unsigned zones some of them delegate to (no DS: the primary serves them unsigned).
    const unsignedChildren = Object.values(children).flatMap((zone) =>
      zone.unsignedChild
        ? [
            {
              ...zone,
              name: `unsigned.${zone.name}`,
              signed: false,
              ds: 'none' as const,
              unsignedChild: false,
            },
          ]
        : [],
    );
    const primaryZones = [...Object.values(children), ...unsignedChildren].map((zone) => ({
      domain: zone.name,
      file: join(primaryDir, `${zone.name}.zone`),
      signed: zone.signed,
      policy: zone.policy,
      text: childZoneText(zone, prefix, PRIMARY_SERIAL),
    }));
    const primary = startKnot('primary', [...addresses.primary], primaryZones);
    const altZones = [
      {
        domain: children.serial.name,
        file: join(workDir, 'alt', `${children.serial.name}.zone`),
        signed: false,
        text: childZoneText(children.serial, prefix, ALT_SERIAL),
      },
    ];
    const alt = startKnot('alt', [addresses.alt], altZones);
    await Promise.all([served(primary, primaryZones), served(alt, altZones)]);

    // 2. de.: delegations with glue, and the DS of each signed child.
    const delegations = await Promise.all(
      Object.values(children).map(async (zone) => {
        const origin = `${zone.name}.`;
        const ds = zone.ds === 'none' ? undefined : await readDs(primary, zone.name);
        return [
          `${origin} NS ns1.${origin}`,
          `${origin} NS ns2.${origin}`,
          `ns1.${origin} A ${at(HOSTS.primary1)}`,
          `ns2.${origin} A ${at(zone.ns2Host)}`,
          ...(ds === undefined ? [] : [`${origin} DS ${zone.ds === 'correct' ? ds : wrongDigest(ds)}`]),
        ];
      }),
    );
    const tldDir = join(workDir, 'tld');
    const tldZones = [
      {
        domain: 'de.',
        file: join(tldDir, 'de.zone'),
        signed: true,
        text: [
          '$ORIGIN de.',
          `$TTL ${TTL}`,
          `@ SOA a.nic.de. hostmaster.nic.de. ${PRIMARY_SERIAL} 3600 600 86400 ${TTL}`,
          '@ NS a.nic.de.',
          `a.nic.de. A ${addresses.tld}`,
          ...delegations.flat(),
          '',
        ].join('\n'),
      },
    ];
    const tld = startKnot('tld', [addresses.tld], tldZones);
    await served(tld, tldZones);

    // 3. The root: de. with its glue and DS; the root's own server name is data in the root zone.
    const rootDir = join(workDir, 'root');
    const rootZones = [
      {
        domain: '.',
        file: join(rootDir, 'root.zone'),
        signed: true,
        text: [
          '$ORIGIN .',
          `$TTL ${TTL}`,
          `@ SOA a.root-servers.lab. hostmaster.root-servers.lab. ${PRIMARY_SERIAL} 3600 600 86400 ${TTL}`,
          '@ NS a.root-servers.lab.',
          `a.root-servers.lab. A ${addresses.root}`,
          'de. NS a.nic.de.',
          `a.nic.de. A ${addresses.tld}`,
          `de. DS ${await readDs(tld, 'de.')}`,
          '',
        ].join('\n'),
      },
    ];
    const root = startKnot('root', [addresses.root], rootZones);
    await served(root, rootZones);

    // 4. The resolvers, the lab root their only root server: one validating with the lab root's DS as
    // its only trust anchor, one that validates nothing and only iterates.
    const rootDs = await readDs(root, '.');
    const startUnbound = (name: string, address: string, trustAnchor: string | undefined) => {
      const dir = join(workDir, name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'root.hints'),
        `. 3600000 NS a.root-servers.lab.\na.root-servers.lab. 3600000 A ${addresses.root}\n`,
      );
      const conf = join(dir, 'unbound.conf');
      writeFileSync(conf, unboundConfig(dir, address, trustAnchor));
      const daemon = startDaemon(name, dir, program('unbound'), ['-d', '-c', conf], join(dir, 'unbound.log'));
      daemons.push(daemon);
    };
    startUnbound('unbound', resolverAddress, `. DS ${rootDs}`);
    startUnbound('unbound-plain', plainResolverAddress, undefined);
    await Promise.all([
      waitFor('unbound to answer healthy.de SOA as secure (AD)', daemons, async () => {
        const answer = await queryDns(resolverAddress, children.healthy.name, 'SOA', {
          timeoutMs: ATTEMPT_MS,
        });
        return answer.rcode === 'NOERROR' && answer.flags.ad && answer.answers.some((r) => r.type === 'SOA');
      }),
      waitFor('the plain unbound to answer healthy.de SOA', daemons, async () => {
        const answer = await queryDns(plainResolverAddress, children.healthy.name, 'SOA', {
          timeoutMs: ATTEMPT_MS,
        });
        return answer.rcode === 'NOERROR' && answer.answers.some((r) => r.type === 'SOA');
      }),
    ]);

    // Record changes go through knotc transactions on the primary, one at a time (Knot allows one
    // open transaction per zone).
    let changes: Promise<unknown> = Promise.resolve();
    const knotc = (...args: string[]) => run(program('knotc'), ['-c', primary.conf, ...args]);
    const change = (zone: string, owner: string, type: string, set?: { ttl: number; rdata: string }) => {
      const next = changes.then(async () => {
        const domain = `${zone.replace(/\.$/, '')}.`;
        const name = absoluteOwner(zone, owner);
        // zone-unset fails for an RRset that is not there; nothing to remove is not an error here.
        const exists = await knotc('zone-read', domain, name, type).then(
          (output) => output.trim() !== '',
          () => false,
        );
        if (!exists && set === undefined) return;
        await knotc('zone-begin', domain);
        try {
          if (exists) await knotc('zone-unset', domain, name, type);
          if (set !== undefined) await knotc('zone-set', domain, name, String(set.ttl), type, set.rdata);
          await knotc('zone-commit', domain);
        } catch (error) {
          await knotc('zone-abort', domain).catch(() => undefined);
          throw error;
        }
        // zone-commit returns once the new (re-signed) version is live; see it over the wire anyway.
        const serial = (await knotc('zone-read', domain, '@', 'SOA')).trim().split(/\s+/)[6];
        for (const address of addresses.primary) {
          await waitFor(
            `primary ${address} to serve ${domain} serial ${serial}`,
            [primary.daemon],
            async () => {
              const answer = await queryDns(address, domain, 'SOA', {
                recurse: false,
                timeoutMs: ATTEMPT_MS,
              });
              return answer.answers.some((r) => r.type === 'SOA' && r.data.split(' ')[2] === serial);
            },
          );
        }
      });
      // A failed change must not block the ones after it.
      changes = next.catch(() => undefined);
      return next;
    };

    return {
      resolver: `${resolverAddress}:53`,
      plainResolver: `${plainResolverAddress}:53`,
      trustAnchor: `. IN DS ${rootDs}`,
      addresses,
      zones: {
        healthy: children.healthy.name,
        lame: children.lame.name,
        serial: children.serial.name,
        badDs: children.badDs.name,
        expiring: children.expiring.name,
        caa: children.caa.name,
        spf: children.spf.name,
        noDmarc: children.noDmarc.name,
        nsec3: children.nsec3.name,
      },
      nameservers(zone: string): string[] {
        const name = zone.replace(/\.$/, '').toLowerCase();
        if (name === '') return ['a.root-servers.lab'];
        if (name === 'de') return ['a.nic.de'];
        if (!Object.values(children).some((child) => child.name === name)) {
          throw new Error(`DNS lab: no zone ${zone}`);
        }
        return [`ns1.${name}`, `ns2.${name}`];
      },
      setRecord(zone, owner, type, rdata, ttl = TTL) {
        const upper = type.toUpperCase();
        return change(zone, owner, upper, {
          ttl,
          rdata: upper === 'TXT' && !rdata.startsWith('"') ? quote(rdata) : rdata,
        });
      },
      removeRecord(zone, owner, type) {
        return change(zone, owner, type.toUpperCase());
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
