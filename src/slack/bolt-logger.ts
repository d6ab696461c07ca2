import { format } from 'node:util';
import type { Logger as BoltLogger, LogLevel as BoltLogLevel } from '@slack/bolt';
import { LogLevel } from '@slack/bolt';
import { type Logger, sanitizeLogText } from '../shared/logger.js';

/**
 * Slack's SDKs log free-form arguments (sometimes whole error objects); they are flattened to one
 * sanitised line so no token or user-supplied CR/LF reaches the log (docs/requirements.md R27).
 */
/**
 * Lines in which Slack's SDKs dump payloads: the Web API client's request and response bodies, Socket
 * Mode's raw envelopes and acks, and Bolt's developer-mode body dump. A payload may hold what a
 * person typed into a modal (an API key in `/domain key`) or a secret shown privately (an auth code),
 * so these lines are dropped at every level, never written (docs/requirements.md R35).
 */
const PAYLOAD_LINES = [
  /^http request (body|result)/,
  /^Received a message on the WebSocket/,
  /^Unable to parse an incoming WebSocket message/,
  /^Calling ack\(\)/,
  /^Sending a WebSocket message/,
  /^\s*[[{]/, // a bare JSON dump
];

export function toBoltLogger(logger: Logger, name = 'slack'): BoltLogger {
  const child = logger.child({ component: name });
  const line = (args: unknown[]): string | undefined => {
    const text = format(...args);
    return PAYLOAD_LINES.some((pattern) => pattern.test(text)) ? undefined : sanitizeLogText(text);
  };
  // Bolt logs several debug lines per request: below the configured level they are not even
  // formatted (issue #17, ack latency).
  const write =
    (at: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      if (!child.isLevelEnabled(at)) return;
      const text = line(args);
      if (text !== undefined) child[at](text);
    };
  let level: BoltLogLevel = LogLevel.INFO;
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    setLevel: (next: BoltLogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
