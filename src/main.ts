import type { Config } from './config.js';
import { ensureLocalRedis, type LocalRedis } from './shared/local-redis.js';
import type { Logger } from './shared/logger.js';
import { createMetrics } from './shared/metrics.js';
import {
  checkRedisServer,
  createRedis,
  KeySpace,
  pingRedis,
  type Redis,
  waitForReady,
} from './shared/redis.js';
import type { Feature } from './slack/app.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { type HealthReport, type HttpFront, startHttpFront } from './slack/http-front.js';

export type Role = 'start' | 'web' | 'worker';

export interface RunOptions {
  role: Role;
  config: Config;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Human-facing lines (start-up notes, next steps); defaults to stdout. */
  say?: (line: string) => void;
  features?: Feature[];
  workers?: WorkerFactory[];
}

/** A feature's queue worker, created against the worker Redis connection. */
export type WorkerFactory = (deps: { connection: Redis; keys: KeySpace; logger: Logger }) => {
  name: string;
  close(): Promise<void>;
};

export interface Running {
  http?: HttpFront;
  slack?: SlackApp;
  redisUrl: string;
  stop(): Promise<void>;
}

/** How long shutdown waits for in-flight jobs before handing them back to the queue. */
const WORKER_CLOSE_TIMEOUT_MS = 8_000;

/**
 * The composition root: config → Redis → Slack app → HTTP front (web) and workers (worker).
 * `start` runs both halves in one process; `web` and `worker` run one each, any number against one
 * Redis (CONTRACT §1). Returns a `stop` that shuts down in reverse order.
 */
export async function runRegdesk(options: RunOptions): Promise<Running> {
  const { role, config, logger } = options;
  const say = options.say ?? ((line: string) => process.stdout.write(`${line}\n`));
  const closers: Array<{ name: string; close: () => Promise<unknown> }> = [];
  const stop = async () => {
    for (const { name, close } of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        logger.warn(
          { component: name, err: error instanceof Error ? error.message : String(error) },
          'close failed',
        );
      }
    }
    closers.length = 0;
  };

  try {
    const local = await resolveRedis(role, config, options.env, say);
    if (local.child !== undefined) {
      const child = local.child;
      closers.push({ name: 'private-redis', close: async () => child.kill('SIGTERM') });
    }
    const keys = new KeySpace(config.redis.keyPrefix);
    const requestRedis = createRedis(local.url, 'request');
    requestRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (request) error'));
    closers.push({ name: 'redis-request', close: () => quit(requestRedis) });
    await waitForReady(requestRedis, 5_000);
    const server = await checkRedisServer(requestRedis);
    logger.info({ redisVersion: server.version, redis: local.note }, 'redis ready');

    const metrics = createMetrics();
    const running: Running = { redisUrl: local.url, stop };

    if (role === 'start' || role === 'web') {
      const slackApp =
        config.slack.mode === 'unconfigured'
          ? undefined
          : createSlackApp({
              slack: config.slack,
              logger,
              metrics,
              redis: requestRedis,
              keys,
              features: options.features ?? [],
            });
      const http = await startHttpFront({
        port: config.port,
        logger,
        metrics,
        health: () => health(requestRedis, config),
        ...(slackApp?.receiver === undefined ? {} : { slack: slackApp.receiver.requestListener }),
        unconfiguredHint: 'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (see README).',
      });
      closers.push({ name: 'http', close: () => http.stop() });
      running.http = http;
      if (slackApp !== undefined) {
        await slackApp.start();
        closers.push({ name: 'slack', close: () => slackApp.stop() });
        running.slack = slackApp;
      }
      say(`Regdesk ${role} listening on http://0.0.0.0:${http.port} (Slack: ${config.slack.mode}).`);
    }

    if (role === 'start' || role === 'worker') {
      const workerRedis = createRedis(local.url, 'worker');
      workerRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (worker) error'));
      closers.push({ name: 'redis-worker', close: () => quit(workerRedis) });
      for (const create of options.workers ?? []) {
        const worker = create({ connection: workerRedis, keys, logger });
        // Each worker closes with a timeout: a job still running then is handed back to BullMQ
        // (it stalls and another worker takes it up), so nothing is lost (RELIABILITY 20).
        closers.push({
          name: `worker:${worker.name}`,
          close: () => withTimeout(worker.close(), WORKER_CLOSE_TIMEOUT_MS),
        });
      }
      say(
        `Regdesk workers (${options.workers?.length ?? 0} queues) running against ${redactUrl(local.url)}.`,
      );
    }

    if (config.slack.mode === 'unconfigured' && role !== 'worker') {
      for (const line of nextSteps(config)) say(line);
    }
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}

async function resolveRedis(
  role: Role,
  config: Config,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<LocalRedis> {
  // Only the all-in-one `start` may start a private Redis: a scaled-out web or worker process with a
  // Redis of its own would silently share nothing with its siblings.
  if (role === 'start') return ensureLocalRedis({ ...env, REDIS_URL: config.redis.url }, say);
  const url = config.redis.url ?? 'redis://127.0.0.1:6379';
  return {
    url,
    note: config.redis.url === undefined ? 'using the Redis on 127.0.0.1:6379' : 'using REDIS_URL',
  };
}

async function health(redis: Redis, config: Config): Promise<HealthReport> {
  const redisStatus = await pingRedis(redis);
  return {
    ok: redisStatus.ok,
    redis: redisStatus,
    slack: { mode: config.slack.mode },
    registrar: { sandbox: config.registrar.sandbox },
  };
}

function nextSteps(config: Config): string[] {
  return [
    '',
    'No Slack app is configured yet. Next steps:',
    '  1. Create a Slack app from manifest.yml (README: "Create the Slack app").',
    '  2. Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (HTTP mode; add SLACK_APP_TOKEN for Socket Mode),',
    '     or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install into many workspaces.',
    `  3. Registrar: ${config.registrar.sandbox ? 'using the built-in sandbox' : config.registrar.apiUrl}. ` +
      'For the real API set REGFISH_API_URL (or leave the default) and REGFISH_SANDBOX=0 with VAULT_MASTER_KEY.',
    '',
  ];
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

async function quit(redis: Redis): Promise<void> {
  try {
    await withTimeout(redis.quit(), 2_000);
  } finally {
    redis.disconnect();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([
    promise,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref()),
  ]);
}
