import { resolve } from 'node:path';
import { judgeCombination, type SlackMode } from './config/rules.js';
import {
  DEFAULT_LIMITS,
  envSchema,
  type LimitWindow,
  type LogLevel,
  type RegfishLimits,
  type SyslogTarget,
} from './config/schema.js';
import type { AllowedRange } from './dns/addresses.js';
import type { DnsServer } from './dns/servers.js';
import type { TrustAnchor } from './dns/validator.js';
import type { RedisSettings } from './shared/redis.js';

export type { SlackMode } from './config/rules.js';
export {
  CONFIG_VARIABLES,
  DEFAULT_LIMITS,
  type LimitWindow,
  type RegfishLimits,
  type SyslogTarget,
} from './config/schema.js';

/** The audit trail's settings (contract §2, docs/requirements.md R52). */
export interface AuditSettings {
  /** AUDIT_RETENTION_DAYS: entries older than this are trimmed. */
  retentionDays: number;
  /** AUDIT_WEBHOOK_URL and AUDIT_WEBHOOK_SECRET: every entry POSTed there, signed. */
  webhook?: { url: string; secret: string };
  /** AUDIT_SYSLOG: every entry also one RFC 5424 message. */
  syslog?: SyslogTarget;
}

/**
 * The MCP endpoint's settings (contract §2, §3 "Agents (MCP)"): where Regdesk is reached, and how
 * people sign in with Slack (OpenID Connect) to give an agent a token.
 */
export interface McpSettings {
  /** REGDESK_PUBLIC_URL without a trailing slash: the issuer and the resource's base. */
  publicUrl: string;
  /** SLACK_AUTHORIZE_URL: Slack's authorize page. */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  port: number;
  /** `/healthz` and `/metrics` of `regdesk worker`. */
  workerPort: number;
  /** METRICS_PORT: `/metrics` of `start` and `web` on a listener of its own, without a token. */
  metricsPort?: number;
  logLevel: LogLevel;
  slack: {
    mode: SlackMode;
    signingSecret?: string;
    botToken?: string;
    appToken?: string;
    oauth?: { clientId: string; clientSecret: string; stateSecret: string };
    apiUrl?: string;
  };
  registrar: {
    /** `embedded`: the simulator runs in this process; `remote`: REGFISH_API_URL (real or `regdesk sandbox`). */
    kind: 'embedded-sandbox' | 'remote';
    sandbox: boolean;
    apiUrl: string;
    sandboxApiKey?: string;
  };
  redis: {
    /** REDIS_URL; kept apart because `regdesk start` may start a private Redis when nothing is set. */
    url?: string;
    keyPrefix: string;
    /** The configured topology and credentials; absent when no Redis variable is set. */
    connection?: RedisSettings;
    /** REDIS_ALLOW_EPHEMERAL=1: a Redis that persists nothing is accepted with a warning (R37). */
    allowEphemeral: boolean;
  };
  /** REGDESK_DATA_DIR, absolute: the private Redis's data and password, the local claim journal. */
  dataDir: string;
  /** How often each process checks Redis for lost or rolled-back data (R39). */
  integrityIntervalMs: number;
  vault: { masterKey?: Buffer; previousMasterKey?: Buffer };
  limits: RegfishLimits;
  audit: AuditSettings;
  /** How long an identical assistant question is answered from the cache (0: never). */
  assistantCacheTtlMs: number;
  /** Watches: how often each watched item is read again, and how many a workspace may watch. */
  watch: {
    intervalMs: number;
    limit: number;
    /** TLS_CHECK_PORTS: where watched certificates' names are asked what they serve. */
    tlsCheckPorts: number[];
    /**
     * CT_API_URL and CT_API_TOKEN: Certificate Transparency search for watched zones. Absent with the
     * sandbox registrar unless CT_API_URL is given: its certificates are simulated, so every real
     * issuance for its zones would look foreign.
     */
    ct?: { url: string; token?: string };
  };
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** REGDESK_PUBLIC_URL with the app's client ID and secret: `/mcp` and its OAuth are served. */
  mcp?: McpSettings;
  /** REGDESK_COMMIT: the commit the image was built from (set by its build), for `regdesk_build_info`. */
  commit?: string;
  /** DNS_RESOLVERS: the resolvers of live DNS checks; unset means the system's (/etc/resolv.conf). */
  dnsResolvers?: DnsServer[];
  /** DNSSEC_TRUST_ANCHOR (IANA's root anchors by default), or the playground's own root. */
  dnssecTrustAnchors: TrustAnchor[];
  /** LIVE_CHECK_ALLOW, and the playground's own range: where live checks may ask outside the public internet. */
  liveCheckAllow?: AllowedRange[];
  /** RDAP_BOOTSTRAP_URL: where the RDAP servers of domains held at other registrars are found (src/rdap). */
  rdapBootstrapUrl: string;
  /** Where zones' nameservers listen when not on 53: set only by the playground's DNS (no variable). */
  dnsNameserverPort?: number;
  /**
   * Whether `regdesk start` serves the playground and runs against its simulated Slack instead of any
   * Slack settings given, and why: `requested` (REGDESK_PLAYGROUND=1) or `no-slack` (the default when
   * no Slack app is configured). It keeps data of its own (docs/playground.md).
   */
  playground: false | 'requested' | 'no-slack';
  /**
   * docs/requirements.md R42: set when no Slack app is configured (so `regdesk start` would serve the
   * playground) but a real registrar is: `regdesk start` refuses to start with it. Only there: the
   * other commands (`web`, `worker`, `vault …`) need no Slack settings and serve no playground.
   */
  playgroundRefusal?: string;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export const DEFAULT_REGFISH_API_URL = 'https://api.regfish.com';
/** Cert Spotter's issuances API, v1 (contract §2 CT_API_URL). */
export const DEFAULT_CT_API_URL = 'https://api.certspotter.com/v1';

/**
 * Validate the whole environment at once so an operator sees every problem in one message
 * (docs/requirements.md C2). Messages name variables, never their values: some of them are secrets.
 */
export function loadConfig(rawEnv: NodeJS.ProcessEnv): Config {
  // An empty variable (`PORT=` in an env file) means "unset": it takes the default.
  const env = Object.fromEntries(
    Object.entries(rawEnv).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = envSchema().safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  const { mode, sandbox, playgroundRefusal, ...rules } = judgeCombination(
    env,
    parsed.success ? parsed.data.REGFISH_SANDBOX : undefined,
  );
  problems.push(...rules.problems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;

  const slack: Config['slack'] = { mode };
  if (e.SLACK_SIGNING_SECRET !== undefined) slack.signingSecret = e.SLACK_SIGNING_SECRET;
  if (e.SLACK_BOT_TOKEN !== undefined) slack.botToken = e.SLACK_BOT_TOKEN;
  if (e.SLACK_APP_TOKEN !== undefined) slack.appToken = e.SLACK_APP_TOKEN;
  if (e.SLACK_API_URL !== undefined) slack.apiUrl = withTrailingSlash(e.SLACK_API_URL);
  if (e.SLACK_CLIENT_ID !== undefined && e.SLACK_CLIENT_SECRET !== undefined && e.SLACK_STATE_SECRET) {
    slack.oauth = {
      clientId: e.SLACK_CLIENT_ID,
      clientSecret: e.SLACK_CLIENT_SECRET,
      stateSecret: e.SLACK_STATE_SECRET,
    };
  }

  const registrar: Config['registrar'] = {
    kind: sandbox && e.REGFISH_API_URL === undefined ? 'embedded-sandbox' : 'remote',
    sandbox,
    apiUrl: (e.REGFISH_API_URL ?? DEFAULT_REGFISH_API_URL).replace(/\/+$/, ''),
  };
  if (e.REGFISH_SANDBOX_API_KEY !== undefined) registrar.sandboxApiKey = e.REGFISH_SANDBOX_API_KEY;

  const redis: Config['redis'] = {
    keyPrefix: e.REDIS_KEY_PREFIX ?? 'regdesk',
    allowEphemeral: e.REDIS_ALLOW_EPHEMERAL ?? false,
  };
  if (e.REDIS_URL !== undefined) redis.url = e.REDIS_URL;
  const target: RedisSettings['target'] | undefined =
    e.REDIS_CLUSTER_NODES !== undefined
      ? { mode: 'cluster', nodes: e.REDIS_CLUSTER_NODES.nodes }
      : e.REDIS_SENTINELS !== undefined && e.REDIS_SENTINEL_MASTER !== undefined
        ? { mode: 'sentinel', sentinels: e.REDIS_SENTINELS.nodes, masterName: e.REDIS_SENTINEL_MASTER }
        : e.REDIS_URL !== undefined
          ? { mode: 'single', url: e.REDIS_URL }
          : // Credentials alone mean the default node: they are not for a private Redis of our own.
            e.REDIS_USERNAME !== undefined || e.REDIS_PASSWORD !== undefined
            ? { mode: 'single', url: 'redis://127.0.0.1:6379' }
            : undefined;
  if (target !== undefined) {
    redis.connection = {
      target,
      ...(e.REDIS_USERNAME === undefined ? {} : { username: e.REDIS_USERNAME }),
      ...(e.REDIS_PASSWORD === undefined ? {} : { password: e.REDIS_PASSWORD }),
      ...((e.REDIS_CLUSTER_NODES ?? e.REDIS_SENTINELS)?.tls === true ? { tls: true } : {}),
    };
  }

  const audit: AuditSettings = {
    retentionDays: e.AUDIT_RETENTION_DAYS,
    ...(e.AUDIT_WEBHOOK_URL === undefined || e.AUDIT_WEBHOOK_SECRET === undefined
      ? {}
      : { webhook: { url: e.AUDIT_WEBHOOK_URL, secret: e.AUDIT_WEBHOOK_SECRET } }),
    ...(e.AUDIT_SYSLOG === undefined ? {} : { syslog: e.AUDIT_SYSLOG }),
  };

  const vault: Config['vault'] = {};
  if (e.VAULT_MASTER_KEY !== undefined) vault.masterKey = Buffer.from(e.VAULT_MASTER_KEY, 'base64');
  if (e.VAULT_MASTER_KEY_PREVIOUS !== undefined) {
    vault.previousMasterKey = Buffer.from(e.VAULT_MASTER_KEY_PREVIOUS, 'base64');
  }

  return {
    port: e.PORT,
    workerPort: e.WORKER_PORT,
    ...(e.METRICS_PORT === undefined ? {} : { metricsPort: e.METRICS_PORT }),
    logLevel: e.LOG_LEVEL,
    slack,
    registrar,
    redis,
    dataDir: resolve(e.REGDESK_DATA_DIR ?? '.regdesk'),
    integrityIntervalMs: e.REGDESK_INTEGRITY_CHECK_MS,
    vault,
    limits: mergeLimits(e.REGFISH_LIMITS),
    audit,
    assistantCacheTtlMs: e.ASSISTANT_CACHE_TTL_MS,
    watch: {
      intervalMs: e.WATCH_INTERVAL_MS,
      limit: e.WATCH_LIMIT,
      tlsCheckPorts: e.TLS_CHECK_PORTS,
      ...(sandbox && e.CT_API_URL === undefined
        ? {}
        : {
            ct: {
              url: e.CT_API_URL ?? DEFAULT_CT_API_URL,
              ...(e.CT_API_TOKEN === undefined ? {} : { token: e.CT_API_TOKEN }),
            },
          }),
    },
    ...(e.METRICS_TOKEN === undefined ? {} : { metricsToken: e.METRICS_TOKEN }),
    ...(e.REGDESK_PUBLIC_URL === undefined ||
    e.SLACK_CLIENT_ID === undefined ||
    e.SLACK_CLIENT_SECRET === undefined
      ? {}
      : {
          mcp: {
            publicUrl: e.REGDESK_PUBLIC_URL.replace(/\/+$/, ''),
            authorizeUrl: e.SLACK_AUTHORIZE_URL,
            clientId: e.SLACK_CLIENT_ID,
            clientSecret: e.SLACK_CLIENT_SECRET,
          },
        }),
    ...(e.REGDESK_COMMIT === undefined ? {} : { commit: e.REGDESK_COMMIT }),
    ...(e.DNS_RESOLVERS === undefined ? {} : { dnsResolvers: e.DNS_RESOLVERS }),
    ...(e.LIVE_CHECK_ALLOW === undefined ? {} : { liveCheckAllow: e.LIVE_CHECK_ALLOW }),
    dnssecTrustAnchors: e.DNSSEC_TRUST_ANCHOR,
    rdapBootstrapUrl: e.RDAP_BOOTSTRAP_URL,
    playground:
      e.REGDESK_PLAYGROUND === true
        ? 'requested'
        : e.REGDESK_PLAYGROUND === undefined && mode === 'unconfigured' && playgroundRefusal === undefined
          ? 'no-slack'
          : false,
    ...(playgroundRefusal === undefined ? {} : { playgroundRefusal }),
  };
}

function withTrailingSlash(url: string): string {
  // @slack/web-api joins method names onto slackApiUrl, so it must end with a slash.
  return url.endsWith('/') ? url : `${url}/`;
}

function mergeLimits(
  overrides: Partial<Record<keyof RegfishLimits, LimitWindow | undefined>> = {},
): RegfishLimits {
  const limits: RegfishLimits = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(limits) as (keyof RegfishLimits)[]) {
    const override = overrides[name];
    if (override !== undefined) limits[name] = override;
  }
  return limits;
}
