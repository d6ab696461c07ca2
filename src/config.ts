import { resolve } from 'node:path';
import { z } from 'zod';
import type { HostPort, RedisSettings } from './shared/redis.js';

/** Upstream limits Regdesk schedules against (docs/registrar-api.md §8), overridable through REGFISH_LIMITS. */
const LimitWindow = z.object({
  max: z.number().int().positive(),
  windowMs: z.number().int().positive(),
});
export type LimitWindow = z.infer<typeof LimitWindow>;

export const DEFAULT_LIMITS = {
  availability: { max: 60, windowMs: 60_000 },
  assistantKey: { max: 10, windowMs: 60_000 },
  assistantAccount: { max: 20, windowMs: 600_000 },
  authcodeDomain: { max: 3, windowMs: 86_400_000 },
  authcodeAccount: { max: 10, windowMs: 86_400_000 },
} as const satisfies Record<string, LimitWindow>;

const RegfishLimits = z
  .object({
    availability: LimitWindow,
    assistantKey: LimitWindow,
    assistantAccount: LimitWindow,
    authcodeDomain: LimitWindow,
    authcodeAccount: LimitWindow,
  })
  .partial()
  .strict();
export type RegfishLimits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: LimitWindow };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((value) => (value === undefined ? undefined : value === '1' || value === 'true'));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  WORKER_PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
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
  REGFISH_API_URL: optionalUrl,
  REGFISH_SANDBOX: flag,
  REGFISH_SANDBOX_API_KEY: optionalText,
  /** The local playground (README "Playground"): on by default when no Slack app is configured. */
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
  /** Beyond docs/requirements.md C2: how many audit entries a workspace keeps (newest first). */
  AUDIT_RETENTION: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
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
  WATCH_LIMIT: z.coerce.number().int().min(1).max(10_000).default(500),
});

/** Every variable the configuration reads (regdesk.env.example lists them all). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

export type SlackMode = 'http-single' | 'http-oauth' | 'socket' | 'unconfigured';

export interface Config {
  port: number;
  /** `/healthz` and `/metrics` of `regdesk worker`. */
  workerPort: number;
  logLevel: (typeof LOG_LEVELS)[number];
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
  auditRetention: number;
  /** How long an identical assistant question is answered from the cache (0: never). */
  assistantCacheTtlMs: number;
  /** Watches: how often each watched item is read again, and how many a workspace may watch. */
  watch: { intervalMs: number; limit: number };
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /**
   * Whether `regdesk start` serves the playground and runs against its simulated Slack instead of any
   * Slack settings given, and why: `requested` (REGDESK_PLAYGROUND=1) or `no-slack` (the default when
   * no Slack app is configured). It keeps data of its own (README "Playground").
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

/**
 * Validate the whole environment at once so an operator sees every problem in one message
 * (docs/requirements.md C2). Messages name variables, never their values: some of them are secrets.
 */
export function loadConfig(rawEnv: NodeJS.ProcessEnv): Config {
  // An empty variable (`PORT=` in an env file) means "unset": it takes the default.
  const env = Object.fromEntries(
    Object.entries(rawEnv).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  // The combination rules look at which variables are set, so they are judged even when some value
  // is malformed: one start-up shows every problem.
  const given = (name: string) => (env[name] ?? '').trim() !== '';
  const oauthNames = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  const oauthGiven = oauthNames.some(given);
  const anySlack = oauthGiven || given('SLACK_BOT_TOKEN') || given('SLACK_APP_TOKEN');

  let mode: SlackMode = 'unconfigured';
  if (given('SLACK_APP_TOKEN')) mode = 'socket';
  else if (oauthGiven) mode = 'http-oauth';
  else if (given('SLACK_BOT_TOKEN')) mode = 'http-single';

  if (oauthGiven && !oauthNames.every(given)) {
    problems.push(`${oauthNames.join(', ')}: OAuth install mode needs all three`);
  }
  if (mode === 'socket' && !given('SLACK_BOT_TOKEN')) {
    problems.push('SLACK_BOT_TOKEN: required with SLACK_APP_TOKEN (Socket Mode)');
  }
  if ((mode === 'http-single' || mode === 'http-oauth') && !given('SLACK_SIGNING_SECRET')) {
    problems.push(
      'SLACK_SIGNING_SECRET: required in HTTP mode; every request from Slack is verified with it',
    );
  }

  // docs/requirements.md C2: the simulator is the default only when nothing points at Slack or a registrar.
  const sandboxFlag = parsed.success ? parsed.data.REGFISH_SANDBOX : undefined;
  const sandbox = sandboxFlag ?? (!anySlack && !given('REGFISH_API_URL'));
  // The sandbox's demo key stands in for a workspace's own key: one key for everybody. That is fine
  // for a local trial, never for an app many workspaces install or a registrar on another host.
  if (sandbox && mode === 'http-oauth') {
    problems.push(
      'REGFISH_SANDBOX: not allowed with OAuth install mode (every installing workspace would share the demo key); set REGFISH_SANDBOX=0',
    );
  }
  const registrarUrl = (env.REGFISH_API_URL ?? '').trim();
  if (
    sandbox &&
    registrarUrl !== '' &&
    URL.canParse(registrarUrl) &&
    !isLoopback(new URL(registrarUrl).hostname)
  ) {
    problems.push(
      'REGFISH_SANDBOX: the sandbox must run on this machine (REGFISH_API_URL on loopback); for a registrar elsewhere set REGFISH_SANDBOX=0',
    );
  }
  // docs/requirements.md C2: one Redis topology at a time, named in one message.
  const redisModes = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'].filter(given);
  if (redisModes.length > 1) {
    problems.push(
      `${redisModes.join(', ')}: set only one (REDIS_URL for one node, REDIS_CLUSTER_NODES for Redis Cluster, REDIS_SENTINELS with REDIS_SENTINEL_MASTER for Sentinel)`,
    );
  }
  if (given('REDIS_SENTINELS') !== given('REDIS_SENTINEL_MASTER')) {
    problems.push('REDIS_SENTINELS, REDIS_SENTINEL_MASTER: Sentinel mode needs both (nodes and master name)');
  }
  // docs/requirements.md R42: the playground acts as any member, so it never meets a real registrar.
  // Read on their own, so the rule is judged even when another value is malformed.
  const playgroundFlag = flag.safeParse(env.REGDESK_PLAYGROUND).data;
  const realRegistrar = [
    ...(flag.safeParse(env.REGFISH_SANDBOX).data === false ? ['REGFISH_SANDBOX=0'] : []),
    ...(given('REGFISH_API_URL') ? ['REGFISH_API_URL'] : []),
  ];
  // With Slack settings, the registrar defaults to the real API (C2).
  if (realRegistrar.length === 0 && !sandbox) realRegistrar.push('Slack settings without REGFISH_SANDBOX=1');
  const playgroundRefusal =
    realRegistrar.length === 0 || playgroundFlag === false
      ? undefined
      : playgroundFlag === true
        ? `REGDESK_PLAYGROUND: the playground never runs against a real registrar, but ${realRegistrar.join(' and ')} select${realRegistrar.length > 1 ? '' : 's'} one; use the built-in sandbox (REGFISH_SANDBOX=1 and no REGFISH_API_URL) or unset REGDESK_PLAYGROUND`
        : mode === 'unconfigured'
          ? `REGDESK_PLAYGROUND: no Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set, so \`regdesk start\` would serve the local playground, which never runs against a real registrar (${realRegistrar.join(', ')}); set the Slack settings, or REGDESK_PLAYGROUND=0 to start without Slack and without the playground`
          : undefined;
  if (playgroundFlag === true && playgroundRefusal !== undefined) problems.push(playgroundRefusal);
  if (!sandbox && !given('VAULT_MASTER_KEY')) {
    problems.push('VAULT_MASTER_KEY: required outside sandbox mode (base64 of 32 random bytes)');
  }
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

  const vault: Config['vault'] = {};
  if (e.VAULT_MASTER_KEY !== undefined) vault.masterKey = Buffer.from(e.VAULT_MASTER_KEY, 'base64');
  if (e.VAULT_MASTER_KEY_PREVIOUS !== undefined) {
    vault.previousMasterKey = Buffer.from(e.VAULT_MASTER_KEY_PREVIOUS, 'base64');
  }

  return {
    port: e.PORT,
    workerPort: e.WORKER_PORT,
    logLevel: e.LOG_LEVEL,
    slack,
    registrar,
    redis,
    dataDir: resolve(e.REGDESK_DATA_DIR ?? '.regdesk'),
    integrityIntervalMs: e.REGDESK_INTEGRITY_CHECK_MS,
    vault,
    limits: mergeLimits(e.REGFISH_LIMITS),
    auditRetention: e.AUDIT_RETENTION,
    assistantCacheTtlMs: e.ASSISTANT_CACHE_TTL_MS,
    watch: { intervalMs: e.WATCH_INTERVAL_MS, limit: e.WATCH_LIMIT },
    ...(e.METRICS_TOKEN === undefined ? {} : { metricsToken: e.METRICS_TOKEN }),
    playground:
      e.REGDESK_PLAYGROUND === true
        ? 'requested'
        : e.REGDESK_PLAYGROUND === undefined && mode === 'unconfigured' && playgroundRefusal === undefined
          ? 'no-slack'
          : false,
    ...(playgroundRefusal === undefined ? {} : { playgroundRefusal }),
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
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
