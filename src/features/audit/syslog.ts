import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, isIPv6, type Socket } from 'node:net';
import { hostname } from 'node:os';
import type { SyslogTarget } from '../../config.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { StoredAuditEntry } from './entry.js';
import { type AuditSink, type Delivery, entryJson, failureReason } from './sink.js';

/**
 * RFC 5424 written by hand: the format is one line of fixed fields, and no Node library for it is kept
 * up to date (the syslog packages on npm are unmaintained, or RFC 3164 only).
 *
 * PRI (§6.2.1): facility local0 (16), which operators route as they choose (facility 13, "log audit",
 * has no name in common syslog daemons, so it would be hard to route), severity informational (6).
 */
const PRI = 16 * 8 + 6;

/** Connecting and writing one message over TCP: no longer than a webhook may take. */
const TCP_TIMEOUT_MS = 10_000;

/** HOSTNAME (§6.2.4): printable US-ASCII without spaces, at most 255 characters; `-` when unknown. */
function syslogHostname(name: string): string {
  const clean = name.replace(/[^\x21-\x7e]/g, '').slice(0, 255);
  return clean === '' ? '-' : clean;
}

/**
 * One audit entry as an RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME regdesk PROCID audit - MSG`.
 * TIMESTAMP is the entry's time (§6.2.3, UTC with milliseconds), MSGID `audit`, no structured data,
 * MSG the entry's JSON. The JSON is pure ASCII (other characters as \u escapes, still the same
 * JSON), so MSG needs no byte-order mark (§6.4) and reads the same in any receiver's charset.
 */
export function syslogMessage(
  workspace: WorkspaceRef,
  entry: StoredAuditEntry,
  host = hostname(),
  pid = process.pid,
): string {
  const json = entryJson(workspace, entry).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const time = new Date(entry.at).toISOString();
  return `<${PRI}>1 ${time} ${syslogHostname(host)} regdesk ${pid} audit - ${json}`;
}

/**
 * AUDIT_SYSLOG: every entry also one syslog message. Over UDP (RFC 5426) a message is sent and not
 * acknowledged: delivered means handed to the network. Over TCP (RFC 6587) one connection is kept and
 * each message framed by octet counting (`MSG-LEN SP SYSLOG-MSG`, §3.4.1), since MSG may hold any
 * character; delivered means written to the connection, and a failed write or connection is retried
 * on a new one.
 */
export function syslogSink(target: SyslogTarget): AuditSink {
  const transport = target.transport === 'udp' ? udpTransport(target) : tcpTransport(target);
  return {
    name: 'syslog',
    async send(workspace, entry, signal) {
      if (signal.aborted) return { ok: false, reason: 'stopped' };
      return transport.send(Buffer.from(syslogMessage(workspace, entry), 'utf8'), signal);
    },
    close: () => transport.close(),
  };
}

interface Transport {
  /** `signal` aborts a connection or write under way (the deliverer stops). */
  send(message: Buffer, signal: AbortSignal): Promise<Delivery>;
  close(): Promise<void>;
}

function udpTransport(target: SyslogTarget): Transport {
  let socket: UdpSocket | undefined;
  return {
    send: (message) =>
      new Promise((resolve) => {
        if (socket === undefined) {
          socket = createSocket(isIPv6(target.host) ? 'udp6' : 'udp4');
          // A send's failure reaches its callback; the socket's own errors must not crash the process.
          socket.on('error', () => {});
          socket.unref();
        }
        socket.send(message, target.port, target.host, (error) =>
          resolve(error ? { ok: false, reason: failureReason(error) } : { ok: true }),
        );
      }),
    close: async () => {
      socket?.close();
      socket = undefined;
    },
  };
}

const timeoutError = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });

function tcpTransport(target: SyslogTarget): Transport {
  let socket: Socket | undefined;
  /** A connection, within TCP_TIMEOUT_MS; one opened under `signal` is destroyed when it aborts. */
  const open = (signal: AbortSignal) =>
    new Promise<Socket>((resolve, reject) => {
      const fresh = connect({ host: target.host, port: target.port, signal });
      fresh.setTimeout(TCP_TIMEOUT_MS, () => fresh.destroy(timeoutError()));
      fresh.once('connect', () => {
        fresh.setTimeout(0);
        resolve(fresh);
      });
      fresh.once('error', reject);
      // Whatever ends the connection later ends its use: the next message opens a new one.
      fresh.on('close', () => {
        if (socket === fresh) socket = undefined;
      });
      fresh.on('error', () => {});
    });
  /** Resolves once `framed` is handed to the kernel; rejects on an error, after TCP_TIMEOUT_MS, or on abort. */
  const write = (to: Socket, framed: Buffer, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const settle = (error?: Error | null) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        if (error) reject(error);
        else resolve();
      };
      const aborted = () => settle(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      const timer = setTimeout(() => settle(timeoutError()), TCP_TIMEOUT_MS);
      signal.addEventListener('abort', aborted, { once: true });
      to.write(framed, settle);
    });
  return {
    async send(message, signal) {
      try {
        socket ??= await open(signal);
        await write(socket, Buffer.concat([Buffer.from(`${message.length} `, 'ascii'), message]), signal);
        return { ok: true };
      } catch (error) {
        socket?.destroy();
        socket = undefined;
        return { ok: false, reason: failureReason(error) };
      }
    },
    close: async () => {
      socket?.end();
      socket = undefined;
    },
  };
}
