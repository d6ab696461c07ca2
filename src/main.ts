import { type Config, ConfigError } from './config.js';
import { ASSISTANT_QUEUE } from './features/assistant/service.js';
import { FOLLOW_QUEUE } from './features/follow/jobs.js';
import { FEATURES } from './features/index.js';
import { FOLLOWERS } from './features/operations.js';
import type { Playground, PlaygroundSlack } from './playground/index.js';
import type { SlackStandIn } from './playground/slack-standin.js';
import type { Sandbox } from './sandbox/index.js';
import { buildServices, type Services } from './services.js';
import type { Logger } from './shared/logger.js';
import { createMetrics, observeWorker, queuesAmong, workersAmong } from './shared/metrics.js';
import type { WorkerFactory } from './shared/queues.js';
import { Readiness } from './shared/readiness.js';
import { checkRedisServer, createRedis, KeySpace, type Redis, waitForReady } from './shared/redis.js';
import { resolveRedis } from './shared/redis-connect.js';
import { checkPersistence } from './shared/redis-persistence.js';
import { throwIfStopping } from './shutdown.js';
import { createSlackApp, type Feature, type SlackApp } from './slack/app.js';
import { type HttpFront, startHttpFront } from './slack/http-front.js';
import { localVaultKey } from './vault/local-key.js';

export type Role = 'start' | 'web' | 'worker';

export interface RunOptions {
  role: Role;
  config: Config;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Human-facing lines (start-up notes, next steps); defaults to stderr, so stdout holds only JSON logs. */
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
  /** `/healthz` and `/metrics` of a `worker` process, on WORKER_PORT. */
  workerHttp?: HttpFront;
  slack?: SlackApp;
  services: Services;
  /** Where Redis is (passwords masked). */
  redisUrl: string;
  /** The embedded registrar simulator's URL and demo key, when one runs in this process. */
  sandbox?: { url: string; apiKey: string };
  /** The playground's page and the Slack stand-in this process runs against, in playground mode. */
  playground?: { url: string; slack: SlackStandIn };
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
  const { role, logger } = options;
  let config = options.config;
  // docs/requirements.md R42: no Slack settings would make `start` a playground, never beside a real registrar.
  if (role === 'start' && config.playgroundRefusal !== undefined) {
    throw new ConfigError([config.playgroundRefusal]);
  }
  // Each step registers what it made in `closers` before the next check, so a stop at any point
  // closes exactly what exists (docs/requirements.md R20).
  const step = (name: string) => {
    throwIfStopping(options.signal);
    logger.debug({ step: name }, 'start-up step');
  };
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const closers: Array<{ name: string; close: () => Promise<unknown> }> = [];
  let readiness: Readiness | undefined;
  const stop = async () => {
    // Not ready from the first moment of shutdown: a balancer stops sending before the front closes.
    readiness?.stopping();
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
    const local = await resolveRedis(
      config.redis,
      { mayStartPrivate: role === 'start', dataDir: config.dataDir },
      say,
    );
    if (local.stop !== undefined) closers.push({ name: 'private-redis', close: local.stop });
    let keys = new KeySpace(config.redis.keyPrefix);
    const requestRedis = createRedis(local.settings, 'request');
    requestRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (request) error'));
    closers.push({ name: 'redis-request', close: () => quit(requestRedis) });
    await waitForReady(requestRedis, 5_000);
    step('redis-check');
    const server = await checkRedisServer(requestRedis);
    logger.info({ redisVersion: server.version, redis: local.shown }, 'redis ready');
    for (const warning of await checkPersistence(requestRedis, config.redis.allowEphemeral)) {
      logger.warn({ redis: local.shown }, warning);
    }
    if (local.child !== undefined && config.vault.masterKey === undefined && config.registrar.sandbox) {
      // The private Redis keeps the sealed registrar keys; its sealing key stays beside it (R38).
      config = { ...config, vault: { ...config.vault, masterKey: localVaultKey(config.dataDir) } };
    }

    // The demo key stands in for a missing workspace key only in sandbox mode.
    let registrar = {
      baseUrl: config.registrar.apiUrl,
      sandboxKey: config.registrar.sandbox ? config.registrar.sandboxApiKey : undefined,
    };
    let sandbox: Running['sandbox'];
    let embeddedSandbox: Sandbox | undefined;
    step('registrar');
    if (config.registrar.kind === 'embedded-sandbox') {
      // Each process embeds its own simulator; scaled-out processes share one via `regdesk sandbox`.
      // Imported here: processes against a real registrar never load the simulator.
      const { createSandbox } = await import('./sandbox/index.js');
      const embedded = await createSandbox({ logger });
      closers.push({ name: 'sandbox', close: () => embedded.close() });
      registrar = { baseUrl: embedded.url, sandboxKey: embedded.apiKey };
      sandbox = { url: embedded.url, apiKey: embedded.apiKey };
      embeddedSandbox = embedded;
      if (role !== 'start')
        say('Note: this process embeds its own registrar sandbox; for shared state run `regdesk sandbox`.');
    }

    // The playground replaces Slack for this process (README "Playground"): Regdesk runs in HTTP mode
    // against the playground's Slack stand-in, unaware of it. Only `start` runs both halves in one process.
    let playgroundSlack: PlaygroundSlack | undefined;
    if (config.playground && role === 'start') {
      step('playground');
      // First: a build without the playground (the production image) stops here, touching nothing.
      const { startPlaygroundSlack } = await loadPlayground();
      // docs/requirements.md R42: data and queues of its own, emptied now; its workers take only its jobs.
      const { isolatePlayground } = await import('./playground/isolation.js');
      const isolated = await isolatePlayground(config, requestRedis);
      config = isolated.config;
      keys = new KeySpace(config.redis.keyPrefix);
      logger.info(
        { keyPrefix: config.redis.keyPrefix, removed: isolated.removed },
        'playground data emptied at start',
      );
      if (config.playground === 'no-slack') {
        // A start that lost its Slack secrets must not pass for the bot.
        logger.warn(
          { keyPrefix: config.redis.keyPrefix },
          'no Slack settings: serving the local playground with data of its own',
        );
        say(
          "No Slack settings (SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN, …) are set: serving the local playground with data of its own; the bot's data is untouched.",
        );
      }
      const started = await startPlaygroundSlack();
      closers.push({ name: 'playground-slack', close: () => started.stop() });
      playgroundSlack = started;
      config = { ...config, slack: started.slack };
    }

    step('services');
    const metrics = createMetrics({ followQueue: FOLLOW_QUEUE, assistantQueue: ASSISTANT_QUEUE });
    // A `worker` process answers no Slack request: its job code rides out a fail-over instead of
    // failing fast (src/shared/redis.ts `job`); /healthz still pings on the request connection.
    const servicesRedis = role === 'worker' ? createRedis(local.settings, 'job') : requestRedis;
    if (servicesRedis !== requestRedis) {
      servicesRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (job) error'));
      closers.push({ name: 'redis-job', close: () => quit(servicesRedis) });
    }
    const services = buildServices({
      config,
      redis: servicesRedis,
      keys,
      logger,
      metrics,
      registrar,
      ...(options.now === undefined ? {} : { now: options.now }),
      followers: FOLLOWERS,
    });
    closers.push({ name: 'services', close: () => services.close() });
    step('integrity');
    await services.integrity.start();
    services.durability.prune(Date.now());
    let workersOfProcess: Array<{ name: string; running: () => boolean }> = [];
    readiness = new Readiness({
      redis: requestRedis,
      incident: () => services.integrity.incident,
      workers: () => workersOfProcess.map((worker) => ({ name: worker.name, running: worker.running() })),
    });
    const ready = readiness;
    // Every process reports the shared queues' depth on /metrics (docs/architecture.md "Operations").
    metrics.watchQueues(queuesAmong(Object.values(services)));
    const running: Running = {
      services,
      redisUrl: local.shown,
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
      const playground: Playground | undefined =
        playgroundSlack === undefined
          ? undefined
          : (await loadPlayground()).createPlayground({
              playgroundSlack,
              regdeskUrl: () => running.http?.url ?? '',
              followQueue: services.followQueue,
              logger,
              ...(embeddedSandbox === undefined ? {} : { sandbox: embeddedSandbox }),
            });
      const http = await startHttpFront({
        port: config.port,
        logger,
        metrics,
        health: () => ready.report(),
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        ...(slackApp?.receiver === undefined ? {} : { slack: slackApp.receiver.requestListener }),
        unconfiguredHint: 'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (see README).',
        ...(playground === undefined ? {} : { routes: playground.handle }),
      });
      closers.push({ name: 'http', close: () => http.stop() });
      running.http = http;
      if (playground !== undefined) {
        // Closed before the HTTP front: its event streams would otherwise hold the server open.
        closers.push({ name: 'playground', close: async () => playground.close() });
      }
      if (playground !== undefined && playgroundSlack !== undefined) {
        // With this process's token: start-up prints it, the page trades it for a cookie (R42).
        running.playground = { url: playground.pageUrl(http.port), slack: playgroundSlack.standIn };
      }
      if (slackApp !== undefined) {
        step('slack');
        await slackApp.start();
        closers.push({ name: 'slack', close: () => slackApp.stop() });
        running.slack = slackApp;
      }
      say(
        `Regdesk ${role} listening on http://0.0.0.0:${http.port} (Slack: ${playgroundSlack === undefined ? config.slack.mode : 'playground'}).`,
      );
    }

    if (role === 'start' || role === 'worker') {
      step('workers');
      const workerRedis = createRedis(local.settings, 'worker');
      workerRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (worker) error'));
      closers.push({ name: 'redis-worker', close: () => quit(workerRedis) });
      const factories = [
        ...FEATURES.flatMap<WorkerFactory>((feature) =>
          'workers' in feature ? feature.workers(services) : [],
        ),
        ...(options.workers ?? []),
      ];
      const started = factories.map((create) => create({ connection: workerRedis, keys, logger }));
      for (const worker of workersAmong(started)) observeWorker(metrics, worker);
      workersOfProcess = workersAmong(started).map((worker) => ({
        name: worker.name,
        running: () => worker.isRunning() && !worker.isPaused() && workerRedis.status === 'ready',
      }));
      // Start-up ends with the queues being worked (what /readyz asks of a worker), or, with Redis
      // slow to answer, after 10 s: readiness then says which queues wait.
      await withTimeout(Promise.all(workersAmong(started).map((worker) => worker.waitUntilReady())), 10_000);
      // All workers close together, each with a timeout: a job still running then is handed back to
      // BullMQ (it stalls and another worker takes it up), so nothing is lost (docs/requirements.md R20).
      closers.push({
        name: 'workers',
        close: () =>
          Promise.all(started.map((worker) => withTimeout(worker.close(), WORKER_CLOSE_TIMEOUT_MS))),
      });
      say(`Regdesk workers (${factories.length} queues) running against ${local.shown}.`);
      if (role === 'worker') {
        const workerHttp = await startHttpFront({
          port: config.workerPort,
          logger,
          metrics,
          health: () => ready.report(),
          ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
          unconfiguredHint: 'This is a `regdesk worker`: Slack requests go to `regdesk web`.',
        });
        closers.push({ name: 'worker-http', close: () => workerHttp.stop() });
        running.workerHttp = workerHttp;
        logger.info({ port: workerHttp.port }, 'worker health and metrics listening');
        say(
          `Regdesk worker health and metrics listening on http://0.0.0.0:${workerHttp.port}/healthz and /metrics.`,
        );
      }
    }

    if (sandbox !== undefined && role === 'start') {
      say(
        `Registrar: built-in sandbox at ${sandbox.url} (workspaces without a key of their own use its demo key).`,
      );
    }
    if (running.playground !== undefined && options.config.slack.mode !== 'unconfigured') {
      say(
        `Playground: ${running.playground.url} (REGDESK_PLAYGROUND=1: this process uses the playground's Slack, not the configured app).`,
      );
    } else if (options.config.slack.mode === 'unconfigured' && role !== 'worker') {
      for (const line of nextSteps(config, running.playground?.url)) say(line);
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

function nextSteps(config: Config, playgroundUrl?: string): string[] {
  const steps = [
    'Create a Slack app from `npx regdesk manifest --host YOUR.HOST` (README: "Create the Slack app").',
    'Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (HTTP mode; add SLACK_APP_TOKEN for Socket Mode),\n' +
      '     or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install into many workspaces.',
    `Registrar: ${config.registrar.sandbox ? 'using the built-in sandbox' : config.registrar.apiUrl}. ` +
      'For the real API set REGFISH_SANDBOX=0 and VAULT_MASTER_KEY, then add each workspace key with `/domain key`.',
  ];
  if (playgroundUrl !== undefined) {
    steps.unshift(`Try it now: open ${playgroundUrl} (a simulated Slack workspace; this machine only).`);
  }
  return [
    '',
    'No Slack app is configured yet. Next steps:',
    ...steps.flatMap((text, i) => `  ${i + 1}. ${text}`.split('\n')),
    '',
  ];
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

/**
 * The playground ships with a checkout (`npm start`), not in the production image, which leaves it out
 * (Dockerfile): there a start without Slack settings stops with what to set, instead of serving a
 * playground nobody asked for.
 */
async function loadPlayground(): Promise<typeof import('./playground/index.js')> {
  try {
    return await import('./playground/index.js');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ConfigError([
      'REGDESK_PLAYGROUND: this build has no playground (the production image leaves it out). Set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (or the OAuth settings), or run `npm start` from a checkout to try the playground.',
    ]);
  }
}
