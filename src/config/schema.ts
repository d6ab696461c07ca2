import { z } from 'zod';
import { parseAllowedRanges } from '../dns/addresses.js';
import { parseDnsServers } from '../dns/servers.js';
import { IANA_ROOT_ANCHORS, parseTrustAnchors } from '../dns/validator.js';
import { parsePorts } from '../served/probe.js';
import type { HostPort } from '../shared/redis.js';

/** Upstream limits Regdesk schedules against (docs/registrar-api.md §8), overridable through REGFISH_LIMITS. */
export interface LimitWindow {
  max: number;
  windowMs: number;
}

export const DEFAULT_LIMITS = {
  availability: { max: 60, windowMs: 60_000 },
  assistantKey: { max: 10, windowMs: 60_000 },
  assistantAccount: { max: 20, windowMs: 600_000 },
  authcodeDomain: { max: 3, windowMs: 86_400_000 },
  authcodeAccount: { max: 10, windowMs: 86_400_000 },
  /** The DNS API's `Ratelimit-Policy: 500; w=60` per key (docs/registrar-api.md §8): change sets pace to it. */
  dnsKey: { max: 500, windowMs: 60_000 },
} as const satisfies Record<string, LimitWindow>;

export type RegfishLimits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: LimitWindow };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Where AUDIT_SYSLOG sends audit entries: a syslog receiver over UDP (RFC 5426) or TCP (RFC 6587). */
export interface SyslogTarget {
  transport: 'udp' | 'tcp';
  host: string;
  port: number;
}

/** AUDIT_SYSLOG: `udp://host:port` or `tcp://host:port` (an IPv6 host in brackets), nothing more. */
export function parseSyslogTarget(value: string): SyslogTarget | { problem: string } {
  const problem = { problem: 'must be udp://host:port or tcp://host:port' };
  const match = /^(udp|tcp):\/\/(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})\/?$/.exec(value);
  const port = Number(match?.[4]);
  if (match === null || !Number.isInteger(port) || port < 1 || port > 65_535) return problem;
  const host = match[2] ?? match[3] ?? '';
  if (host === '' || host.startsWith('.') || host.endsWith('-')) return problem;
  return { transport: match[1] === 'tcp' ? 'tcp' : 'udp', host, port };
}

export const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((value) => (value === undefined ? undefined : value === '1' || value === 'true'));

/**
 * The environment's schema, built each time the environment is read (once at start, and by
 * `regdesk doctor`) and let go after: zod binds its methods on each schema instance, and this
 * one's parts would hold 0.15 MB for the life of the process (issue #49).
 */
export function envSchema() {
  /** Upstream limits Regdesk schedules against (docs/registrar-api.md §8), overridable through REGFISH_LIMITS. */
  const LimitWindow = z.object({
    max: z.number().int().positive(),
    windowMs: z.number().int().positive(),
  });

  const RegfishLimits = z
    .object({
      availability: LimitWindow,
      assistantKey: LimitWindow,
      assistantAccount: LimitWindow,
      authcodeDomain: LimitWindow,
      authcodeAccount: LimitWindow,
      dnsKey: LimitWindow,
    })
    .partial()
    .strict();

  const optionalText = z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

  const optionalUrl = optionalText.pipe(z.url({ protocol: /^https?$/ }).optional());

  const masterKey = optionalText.pipe(
    z
      .string()
      .refine(
        (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
        'must be base64 of exactly 32 random bytes (e.g. `openssl rand -base64 32`)',
      )
      .optional(),
  );

  /**
   * `host:port,host:port,…` (REDIS_CLUSTER_NODES, REDIS_SENTINELS). An entry may be written
   * `rediss://host:port` to use TLS; then every entry must, since one topology has one transport.
   */
  const nodeList = optionalText.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const nodes: HostPort[] = [];
    const schemes = new Set<string>();
    for (const entry of value.split(',').map((part) => part.trim())) {
      const match = /^(?:(rediss?):\/\/)?\[?([A-Za-z0-9.:-]+?)\]?:(\d{1,5})\/?$/.exec(entry);
      const port = Number(match?.[3]);
      if (match === null || port < 1 || port > 65_535) {
        ctx.addIssue({ code: 'custom', message: 'must be host:port entries separated by commas' });
        return z.NEVER;
      }
      schemes.add(match[1] ?? 'redis');
      nodes.push({ host: match[2] ?? '', port });
    }
    if (schemes.size > 1) {
      ctx.addIssue({ code: 'custom', message: 'mixes rediss:// (TLS) and plain entries; use one for all' });
      return z.NEVER;
    }
    return { nodes, tls: schemes.has('rediss') };
  });

  /**
   * An optional variable read by a parser that returns what it read or the problem as a sentence (the
   * DNS variables' parsers live beside the code that uses them); `fallback` is read when it is unset.
   */
  function parsedBy<T>(
    parse: (value: string) => T | { problem: string },
    fallback: string,
  ): z.ZodType<T, string | undefined>;
  function parsedBy<T>(
    parse: (value: string) => T | { problem: string },
  ): z.ZodType<T | undefined, string | undefined>;
  function parsedBy<T>(parse: (value: string) => T | { problem: string }, fallback?: string) {
    return optionalText.transform((value, ctx) => {
      const given = value ?? fallback;
      if (given === undefined) return undefined;
      const parsed = parse(given);
      if (typeof parsed === 'object' && parsed !== null && 'problem' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.problem });
        return z.NEVER;
      }
      return parsed as T;
    });
  }

  /** DNS_RESOLVERS: `host[:port],…` of IP addresses (dns/servers.ts says why addresses). */
  const dnsServers = parsedBy((value) => {
    const parsed = parseDnsServers(value);
    return 'problem' in parsed ? parsed : parsed.servers;
  });

  /** DNSSEC_TRUST_ANCHOR: root DS records, `;`-separated (dns/validator.ts); IANA's when unset. */
  const trustAnchors = parsedBy((value) => {
    const parsed = parseTrustAnchors(value);
    if ('problem' in parsed) return parsed;
    return parsed.anchors.length === 0 ? { problem: 'names no DS record' } : parsed.anchors;
  }, IANA_ROOT_ANCHORS);

  /** LIVE_CHECK_ALLOW: `cidr,…` outside the public internet that live checks may still reach (dns/addresses.ts). */
  const allowedRanges = parsedBy((value) => {
    const parsed = parseAllowedRanges(value);
    return 'problem' in parsed ? parsed : parsed.ranges;
  });

  /** TLS_CHECK_PORTS: `port,…` where watched certificates' names are asked what they serve (served/probe.ts). */
  const tlsPorts = parsedBy((value) => {
    const parsed = parsePorts(value);
    return 'problem' in parsed ? parsed : parsed.ports;
  }, '443');

  return z.object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    WORKER_PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
    /** Contract §2: a listener of its own for `/metrics` of `start` and `web`, without a token. */
    METRICS_PORT: optionalText.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(65_535).optional(),
    ),
    SLACK_SIGNING_SECRET: optionalText,
    SLACK_BOT_TOKEN: optionalText.pipe(
      z.string().startsWith('xoxb-', 'must be a bot token (xoxb-…)').optional(),
    ),
    SLACK_APP_TOKEN: optionalText.pipe(
      z.string().startsWith('xapp-', 'must be an app-level token (xapp-…)').optional(),
    ),
    SLACK_CLIENT_ID: optionalText,
    SLACK_CLIENT_SECRET: optionalText,
    SLACK_STATE_SECRET: optionalText,
    SLACK_API_URL: optionalUrl,
    /** Contract §2: Regdesk's public base URL, for the MCP endpoint's OAuth (features/mcp). */
    REGDESK_PUBLIC_URL: optionalUrl,
    /** Contract §2: Slack's OpenID Connect authorize page (Sign in with Slack). */
    SLACK_AUTHORIZE_URL: optionalUrl.default('https://slack.com/openid/connect/authorize'),
    REGFISH_API_URL: optionalUrl,
    REGFISH_SANDBOX: flag,
    REGFISH_SANDBOX_API_KEY: optionalText,
    /** The local playground (docs/playground.md): on by default when no Slack app is configured. */
    REGDESK_PLAYGROUND: flag,
    REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    REDIS_CLUSTER_NODES: nodeList,
    REDIS_SENTINELS: nodeList,
    REDIS_SENTINEL_MASTER: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ., _ and - only')
        .optional(),
    ),
    REDIS_USERNAME: optionalText,
    REDIS_PASSWORD: optionalText,
    /** docs/requirements.md R37: `1` accepts a Redis that persists nothing (start-up warns instead of refusing). */
    REDIS_ALLOW_EPHEMERAL: flag,
    /** Where `regdesk start`'s private Redis keeps its data and password, and where claims are journalled. */
    REGDESK_DATA_DIR: optionalText,
    REDIS_KEY_PREFIX: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,32}$/, 'letters, digits, _ and - only')
        .optional(),
    ),
    VAULT_MASTER_KEY: masterKey,
    VAULT_MASTER_KEY_PREVIOUS: masterKey,
    REGFISH_LIMITS: optionalText.transform((value, ctx) => {
      if (value === undefined) return undefined;
      try {
        return RegfishLimits.parse(JSON.parse(value));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be JSON like {"availability":{"max":60,"windowMs":60000}} (${
            error instanceof z.ZodError ? z.prettifyError(error).replace(/\s+/g, ' ') : 'not JSON'
          })`,
        });
        return z.NEVER;
      }
    }),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    METRICS_TOKEN: optionalText.pipe(
      z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 16`)').optional(),
    ),
    /** The commit the image was built from (the Dockerfile's build argument), for `regdesk_build_info`. */
    REGDESK_COMMIT: optionalText.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{7,40}$/, 'must be a git commit id')
        .optional(),
    ),
    /** Contract §2: audit entries older than this many days are trimmed (docs/requirements.md R52). */
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
    /** Contract §2: every audit entry is POSTed there, signed with AUDIT_WEBHOOK_SECRET (rules.ts: both or none). */
    AUDIT_WEBHOOK_URL: optionalUrl,
    AUDIT_WEBHOOK_SECRET: optionalText.pipe(
      z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)').optional(),
    ),
    /** Contract §2: every audit entry also goes to syslog (RFC 5424), `udp://host:port` or `tcp://host:port`. */
    AUDIT_SYSLOG: parsedBy(parseSyslogTarget),
    /** docs/requirements.md C3: how long an identical question is answered from the cache; `0` turns it off. */
    ASSISTANT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
    /** docs/requirements.md R37: every watched item is looked at again at least this often (1 min … 7 days). */
    WATCH_INTERVAL_MS: z.coerce.number().int().min(60_000).max(604_800_000).default(21_600_000),
    /** docs/requirements.md R37: watched domains and certificates per workspace. */
    /**
     * Beyond docs/requirements.md C2: how often each process checks Redis for lost or rolled-back data
     * (R39 asks for 60 s at most).
     */
    REGDESK_INTEGRITY_CHECK_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
    /** Contract §2: the recursive resolvers of live DNS checks; the system's when unset. */
    DNS_RESOLVERS: dnsServers,
    /** Contract §2: ranges outside the public internet that live checks may still ask (a lab, the playground). */
    LIVE_CHECK_ALLOW: allowedRanges,
    /** Contract §2: the root's DS records DNSSEC is validated from (a lab or the playground has its own root). */
    DNSSEC_TRUST_ANCHOR: trustAnchors,
    /** Contract §2: IANA's RDAP bootstrap file (RFC 9224), for watched domains held at other registrars. */
    RDAP_BOOTSTRAP_URL: optionalUrl.default('https://data.iana.org/rdap/dns.json'),
    // Up to the size the bench measures (50,000: bytes and CPU per item flat, the interval kept).
    WATCH_LIMIT: z.coerce.number().int().min(1).max(50_000).default(500),
    /** Contract §2: ports where watched certificates' names are asked which certificate they serve. */
    TLS_CHECK_PORTS: tlsPorts,
    /** Contract §2: Certificate Transparency search (Cert Spotter's issuances API, v1) for watched zones (config.ts: its default). */
    CT_API_URL: optionalUrl,
    /** Contract §2: Cert Spotter's API key, sent as a Bearer token (without one, its free limits apply). */
    CT_API_TOKEN: optionalText,
  });
}

/** Every variable the configuration reads (regdesk.env.example lists them all). */
export const CONFIG_VARIABLES = Object.keys(envSchema().shape);

export type LogLevel = (typeof LOG_LEVELS)[number];
