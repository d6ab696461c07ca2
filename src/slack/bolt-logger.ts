import { format } from 'node:util';
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import { type Logger, sanitizeLogText } from '../shared/logger.js';

/**
 * Slack's SDKs log free-form arguments (sometimes whole error objects); they are flattened to one
 * sanitised line so no token or user-supplied CR/LF reaches the log (docs/requirements.md R27).
 */
export function toBoltLogger(logger: Logger, name = 'slack'): BoltLogger {
  const child = logger.child({ component: name });
  const line = (args: unknown[]) => sanitizeLogText(format(...args));
  let level = LogLevel.INFO;
  return {
    // The Web API client logs whole request and response bodies at debug level: message text that
    // may hold a secret shown privately (an auth code). Those lines are dropped, never written.
    debug: (...args: unknown[]) => {
      const text = line(args);
      if (!/^http request (body|result)/.test(text)) child.debug(text);
    },
    info: (...args: unknown[]) => child.info(line(args)),
    warn: (...args: unknown[]) => child.warn(line(args)),
    error: (...args: unknown[]) => child.error(line(args)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
