import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino blanks before a line is written. Secrets must never reach a log line
 * (docs/requirements.md R27); redaction by path is the last line of defence, the first is not logging them.
 */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'authinfo',
  '*.authinfo',
  'authCode',
  '*.authCode',
  'secret',
  '*.secret',
  'clientSecret',
  '*.clientSecret',
  'password',
  '*.password',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Patterns of secrets that may hide inside free text (error messages, URLs). */
const SECRET_PATTERNS: RegExp[] = [
  /xox[abposr]-[A-Za-z0-9-]+/g, // Slack tokens
  /xapp-[A-Za-z0-9-]+/g, // Slack app-level tokens
];

/** Scrub known secret shapes from free text and strip CR/LF so user text cannot forge log lines. */
export function sanitizeLogText(text: string, extraSecrets: readonly string[] = []): string {
  let out = text.replace(/[\r\n]+/g, ' ');
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, '[REDACTED]');
  for (const secret of extraSecrets) {
    if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}

export interface LoggerOptions {
  level?: string;
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'regdesk' },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        // Strings (messages, interpolations, and an object's top-level string fields) are sanitised;
        // nested secrets are caught by `redact`.
        logMethod(args, method) {
          const cleaned = args.map((arg) => sanitizeArg(arg));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}

function sanitizeArg(arg: unknown): unknown {
  if (typeof arg === 'string') return sanitizeLogText(arg);
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg) || arg instanceof Error) return arg;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arg)) {
    out[key] = typeof value === 'string' ? sanitizeLogText(value) : value;
  }
  return out;
}
