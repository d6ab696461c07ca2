import { CONFIG_VARIABLES, type RegfishLimits } from '../../src/config.js';
import { type SlackStandIn, WORKSPACE } from '../../src/playground/slack-standin.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { Runtime } from './children.js';

/** The one workspace every bench request comes from. */
export const TEAM = WORKSPACE;

/** What every scenario shares: one Redis, one Slack stand-in (paced like Slack), one signing secret. */
export interface BenchContext {
  runId: string;
  /** The Node.js the children of this pass run on. */
  runtime: Runtime;
  redisUrl: string;
  secret: string;
  /** One vault master key for every child, as processes of one deployment share it. */
  masterKey: string;
  slack: SlackStandIn;
  /** Key prefixes handed out, deleted from Redis at the end. */
  prefixes: string[];
  /** Sandboxes started, closed at the end. */
  sandboxes: Sandbox[];
}

export interface StampedCall {
  operation: string;
  status: number;
  at: number;
}

/**
 * A registrar sandbox in this process, its call log stamped with arrival times: the log itself has
 * none, and the figures (reads over time, last call of a window) need them. Each scenario gets its own
 * sandbox, so its limits, delays and log are its own.
 */
export async function startSandbox(
  ctx: BenchContext,
  options: SandboxOptions,
): Promise<{ sandbox: Sandbox; log: StampedCall[] }> {
  const sandbox = await createSandbox({ host: '127.0.0.1', ...options });
  ctx.sandboxes.push(sandbox);
  const log: StampedCall[] = [];
  const calls = sandbox.calls as Array<Sandbox['calls'][number]>;
  const push = calls.push.bind(calls);
  calls.push = (...items) => {
    const at = Date.now();
    for (const item of items) log.push({ operation: item.operation, status: item.status, at });
    return push(...items);
  };
  return { sandbox, log };
}

/** A Redis key prefix of its own for one scenario (Regdesk allows 1–32 of [A-Za-z0-9_-]). */
export function keyPrefix(ctx: BenchContext, name: string): string {
  const prefix = `bench-${ctx.runId}-${name}`.slice(0, 32);
  ctx.prefixes.push(prefix);
  return prefix;
}

/**
 * The environment of a Regdesk child: HTTP single-workspace mode against the Slack stand-in, the shared
 * sandbox as a remote registrar, and nothing inherited that could change its mode (any Regdesk variable
 * of the caller's shell is dropped first).
 */
export function regdeskEnv(
  ctx: BenchContext,
  sandbox: Sandbox,
  prefix: string,
  limits: Partial<RegfishLimits> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return {
    ...env,
    PORT: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    REDIS_URL: ctx.redisUrl,
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: prefix,
    SLACK_SIGNING_SECRET: ctx.secret,
    VAULT_MASTER_KEY: ctx.masterKey,
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    SLACK_API_URL: ctx.slack.apiUrl,
    REGFISH_SANDBOX: '1',
    REGFISH_API_URL: sandbox.url,
    REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
    ...(Object.keys(limits).length === 0 ? {} : { REGFISH_LIMITS: JSON.stringify(limits) }),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 10 ms until it returns a value; every wait in the bench has a deadline. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => T | undefined | false,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(10);
  }
}
