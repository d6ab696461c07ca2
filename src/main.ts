import { type Config, ConfigError } from './config.js';
import { logResolverValidation } from './dns/resolver-check.js';
import { ASSISTANT_QUEUE } from './features/assistant/service.js';
import { FOLLOW_QUEUE } from './features/follow/jobs.js';
import { FOLLOWERS } from './features/operations.js';
import type { SlackStandIn } from './playground/slack-standin.js';
import { buildServices, type Services } from './services.js';
import { dataDirMark } from './shared/data-dir-mark.js';
import type { Logger } from './shared/logger.js';
import { createMetrics, queuesAmong } from './shared/metrics.js';
import type { WorkerFactory } from './shared/queues.js';
import { Readiness } from './shared/readiness.js';
import { createRedis, KeySpace } from './shared/redis.js';
import { packageVersion } from './shared/version.js';
import { throwIfStopping } from './shutdown.js';
import type { Feature, SlackApp } from './slack/app.js';
import type { HttpFront } from './slack/http-front.js';
import { Closers, quit, type Role, type StartContext } from './start/context.js';
import { sayNotes } from './start/notes.js';
import { startPlaygroundMode } from './start/playground.js';
import { connectRedis } from './start/redis.js';
import { startRegistrar } from './start/registrar.js';
import { startWeb } from './start/web.js';
import { startWorkers } from './start/workers.js';

export type { Role } from './start/context.js';

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
  /** `/metrics` of `start` and `web` on METRICS_PORT, when set. */
  metricsHttp?: HttpFront;
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

/**
 * The composition root: config → Redis → registrar (or embedded sandbox) → services → Slack app and
 * HTTP front (web) → queue workers (worker). `start` runs both halves in one process; `web` and
 * `worker` run one each, any number against one Redis (docs/requirements.md C1). `stop` undoes it in reverse.
 */
export async function runRegdesk(options: RunOptions): Promise<Running> {
  const { role, logger } = options;
  // docs/requirements.md R42: no Slack settings would make `start` a playground, never beside a real registrar.
  if (role === 'start' && options.config.playgroundRefusal !== undefined) {
    throw new ConfigError([options.config.playgroundRefusal]);
  }
  const closers = new Closers(logger);
  const ctx: StartContext = {
    role,
    logger,
    say: options.say ?? ((line: string) => process.stderr.write(`${line}\n`)),
    step: (name) => {
      throwIfStopping(options.signal);
      logger.debug({ step: name }, 'start-up step');
    },
    closers,
  };
  let readiness: Readiness | undefined;
  const stop = async () => {
    // Not ready from the first moment of shutdown: a balancer stops sending before the front closes.
    readiness?.stopping();
    await closers.closeAll();
  };

  try {
    const { local, requestRedis, ...redis } = await connectRedis(ctx, options.config);
    const { registrar, sandbox } = await startRegistrar(ctx, redis.config);
    const { config, playgroundSlack } = await startPlaygroundMode(ctx, redis.config, requestRedis, sandbox);
    const keys = new KeySpace(config.redis.keyPrefix);

    ctx.step('services');
    const metrics = createMetrics(
      { followQueue: FOLLOW_QUEUE, assistantQueue: ASSISTANT_QUEUE },
      { version: packageVersion(), commit: config.commit ?? 'unknown' },
    );
    // A `worker` process answers no Slack request: its job code rides out a fail-over instead of
    // failing fast (src/shared/redis.ts `job`); /healthz still pings on the request connection.
    const servicesRedis = role === 'worker' ? createRedis(local.settings, 'job') : requestRedis;
    if (servicesRedis !== requestRedis) {
      servicesRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (job) error'));
      closers.push('redis-job', () => quit(servicesRedis));
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
    closers.push('services', () => services.close());
    logResolverValidation(services.dnsClient, logger);
    ctx.step('integrity');
    // The private Redis's files can be put back while Regdesk is stopped: its data directory's mark
    // notices (docs/data.md "Backup and restore"). A configured Redis is shared by hosts whose data
    // directories need not outlive them; the playground empties its data at every start on purpose.
    const marked = local.child !== undefined && playgroundSlack === undefined;
    await services.integrity.start(marked ? dataDirMark(config.dataDir, config.redis.keyPrefix) : undefined);
    services.durability.prune(Date.now());
    let workersOfProcess: Array<{ name: string; running: () => boolean }> = [];
    const ready = new Readiness({
      redis: requestRedis,
      incident: () => services.integrity.incident,
      workers: () => workersOfProcess.map((worker) => ({ name: worker.name, running: worker.running() })),
    });
    readiness = ready;
    metrics.observeHealth({
      ready: async () => (await ready.report()).ok,
      incident: () => services.integrity.incident !== undefined,
    });
    // Every process reports the shared queues' depth on /metrics (docs/architecture.md "Operations").
    metrics.watchQueues(queuesAmong(Object.values(services)));
    const running: Running = {
      services,
      redisUrl: local.shown,
      stop,
      ...(sandbox === undefined ? {} : { sandbox: { url: sandbox.url, apiKey: sandbox.apiKey } }),
    };
    const health = () => ready.report();

    if (role === 'start' || role === 'web') {
      const web = await startWeb(ctx, {
        config,
        metrics,
        requestRedis,
        keys,
        services,
        health,
        playgroundSlack,
        sandbox,
        features: options.features ?? [],
      });
      Object.assign(running, web);
    }
    if (role === 'start' || role === 'worker') {
      const workers = await startWorkers(ctx, {
        config,
        metrics,
        keys,
        services,
        health,
        redisSettings: local.settings,
        redisShown: local.shown,
        workers: options.workers ?? [],
        started: (started) => {
          workersOfProcess = started;
        },
      });
      Object.assign(running, workers);
    }

    sayNotes(ctx, {
      given: options.config,
      config,
      sandboxUrl: running.sandbox?.url,
      playgroundUrl: running.playground?.url,
    });
    ctx.step('ready');
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}
