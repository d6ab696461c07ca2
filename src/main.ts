import type { Config } from './config.js';
import { FEATURES } from './features/index.js';
import { FOLLOWERS } from './features/operations.js';
import { createSandbox } from './sandbox/index.js';
import { buildServices, type Services } from './services.js';
import { ensureLocalRedis, type LocalRedis } from './shared/local-redis.js';
import type { Logger } from './shared/logger.js';
import { createMetrics } from './shared/metrics.js';
import type { WorkerFactory } from './shared/queues.js';
import {
  checkRedisServer,
  createRedis,
  KeySpace,
  pingRedis,
  type Redis,
  waitForReady,
} from './shared/redis.js';
import { throwIfStopping } from './shutdown.js';
import { createSlackApp, type Feature, type SlackApp } from './slack/app.js';
import { type HealthReport, type HttpFront, startHttpFront } from './slack/http-front.js';

export type Role = 'start' | 'web' | 'worker';

export interface RunOptions {
  role: Role;
  config: Config;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Human-facing lines (start-up notes, next steps); defaults to stdout. */
  say?: (line: string) => void;
  /** Extra features and workers (tests); the built-in ones are always registered. */
  features?: Feature[];
  workers?: WorkerFactory[];
  now?: () => number;
  /** Aborted by SIGTERM/SIGINT: start-up stops between steps and undoes what it made. */
  signal?: AbortSignal;
}

export interface Running {
  http?: HttpFront;
  slack?: SlackApp;
  services: Services;
  redisUrl: string;
  /** The embedded registrar simulator's URL and demo key, when one runs in this process. */
  sandbox?: { url: string; apiKey: string };
  stop(): Promise<void>;
}

/** How long shutdown waits for in-flight jobs before handing them back to the queue. */
const WORKER_CLOSE_TIMEOUT_MS = 8_000;

/**
 * The composition root: config → Redis → registrar (or embedded sandbox) → services → Slack app and
 * HTTP front (web) → queue workers (worker). `start` runs both halves in one process; `web` and
 * `worker` run one each, any number against one Redis (docs/requirements.md C1). `stop` undoes it in reverse.
 */
export async function runRegdesk(options: RunOptions): Promise<Running> {
  const { role, config, logger } = options;
  // Each step registers what it made in `closers` before the next check, so a stop at any point
  // closes exactly what exists (docs/requirements.md R20).
  const step = (name: string) => {
    throwIfStopping(options.signal);
    logger.debug({ step: name }, 'start-up step');
  };
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
    step('redis');
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
    step('redis-check');
    const server = await checkRedisServer(requestRedis);
    logger.info({ redisVersion: server.version, redis: local.note }, 'redis ready');

    // The demo key stands in for a missing workspace key only in sandbox mode.
    let registrar = {
      baseUrl: config.registrar.apiUrl,
      sandboxKey: config.registrar.sandbox ? config.registrar.sandboxApiKey : undefined,
    };
    let sandbox: Running['sandbox'];
    step('registrar');
    if (config.registrar.kind === 'embedded-sandbox') {
      // Each process embeds its own simulator; scaled-out processes share one via `regdesk sandbox`.
      const embedded = await createSandbox({ logger });
      closers.push({ name: 'sandbox', close: () => embedded.close() });
      registrar = { baseUrl: embedded.url, sandboxKey: embedded.apiKey };
      sandbox = { url: embedded.url, apiKey: embedded.apiKey };
      if (role !== 'start')
        say('Note: this process embeds its own registrar sandbox; for shared state run `regdesk sandbox`.');
    }

    step('services');
    const metrics = createMetrics();
    const services = buildServices({
      config,
      redis: requestRedis,
      keys,
      logger,
      metrics,
      registrar,
      ...(options.now === undefined ? {} : { now: options.now }),
      followers: FOLLOWERS,
    });
    closers.push({ name: 'services', close: () => services.close() });
    const running: Running = {
      services,
      redisUrl: local.url,
      stop,
      ...(sandbox === undefined ? {} : { sandbox }),
    };

    if (role === 'start' || role === 'web') {
      step('http');
      const slackApp =
        config.slack.mode === 'unconfigured'
          ? undefined
          : createSlackApp({
              slack: config.slack,
              logger,
              metrics,
              redis: requestRedis,
              keys,
              vault: services.vault,
              shareable: services.shareable,
              features: [...featureRegistrations(services), ...(options.features ?? [])],
            });
      const http = await startHttpFront({
        port: config.port,
        logger,
        metrics,
        health: () => health(requestRedis),
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        ...(slackApp?.receiver === undefined ? {} : { slack: slackApp.receiver.requestListener }),
        unconfiguredHint: 'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (see README).',
      });
      closers.push({ name: 'http', close: () => http.stop() });
      running.http = http;
      if (slackApp !== undefined) {
        step('slack');
        await slackApp.start();
        closers.push({ name: 'slack', close: () => slackApp.stop() });
        running.slack = slackApp;
      }
      say(`Regdesk ${role} listening on http://0.0.0.0:${http.port} (Slack: ${config.slack.mode}).`);
    }

    if (role === 'start' || role === 'worker') {
      step('workers');
      const workerRedis = createRedis(local.url, 'worker');
      workerRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (worker) error'));
      closers.push({ name: 'redis-worker', close: () => quit(workerRedis) });
      const factories = [
        ...FEATURES.flatMap<WorkerFactory>((feature) =>
          'workers' in feature ? feature.workers(services) : [],
        ),
        ...(options.workers ?? []),
      ];
      const started = factories.map((create) => create({ connection: workerRedis, keys, logger }));
      // All workers close together, each with a timeout: a job still running then is handed back to
      // BullMQ (it stalls and another worker takes it up), so nothing is lost (docs/requirements.md R20).
      closers.push({
        name: 'workers',
        close: () =>
          Promise.all(started.map((worker) => withTimeout(worker.close(), WORKER_CLOSE_TIMEOUT_MS))),
      });
      say(`Regdesk workers (${factories.length} queues) running against ${redactUrl(local.url)}.`);
    }

    if (sandbox !== undefined && role === 'start') {
      say(
        `Registrar: built-in sandbox at ${sandbox.url} (workspaces without a key of their own use its demo key).`,
      );
    }
    if (config.slack.mode === 'unconfigured' && role !== 'worker') {
      for (const line of nextSteps(config)) say(line);
    }
    step('ready');
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Every feature of the table of contents, handed the services (each sees only its own `Deps`). */
function featureRegistrations(services: Services): Feature[] {
  return FEATURES.map(
    (feature): Feature =>
      (app, slackDeps) => {
        if ('register' in feature) feature.register(app, { ...services, ...slackDeps });
      },
  );
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

/** Minimal on purpose: whether this process can serve, not how it is configured or used. */
async function health(redis: Redis): Promise<HealthReport> {
  const redisStatus = await pingRedis(redis);
  return { ok: redisStatus.ok, redis: { ok: redisStatus.ok } };
}

function nextSteps(config: Config): string[] {
  return [
    '',
    'No Slack app is configured yet. Next steps:',
    '  1. Create a Slack app from manifest.yml (README: "Create the Slack app").',
    '  2. Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (HTTP mode; add SLACK_APP_TOKEN for Socket Mode),',
    '     or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install into many workspaces.',
    `  3. Registrar: ${config.registrar.sandbox ? 'using the built-in sandbox' : config.registrar.apiUrl}. ` +
      'For the real API set REGFISH_SANDBOX=0 and VAULT_MASTER_KEY, then add each workspace key with `/domain key`.',
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
