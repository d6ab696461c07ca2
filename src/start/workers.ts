import type { Config } from '../config.js';
import { FEATURES } from '../features/index.js';
import type { Services } from '../services.js';
import { type Metrics, observeWorker, workersAmong } from '../shared/metrics.js';
import type { WorkerFactory } from '../shared/queues.js';
import { createRedis, type KeySpace, type RedisSettings } from '../shared/redis.js';
import { withTimeout } from '../shared/timeout.js';
import { type HealthReport, type HttpFront, startHttpFront } from '../slack/http-front.js';
import { quit, type StartContext } from './context.js';

/** How long shutdown waits for in-flight jobs before handing them back to the queue. */
const WORKER_CLOSE_TIMEOUT_MS = 8_000;

export interface WorkerDeps {
  config: Config;
  metrics: Metrics;
  redisSettings: RedisSettings;
  /** Where Redis is (passwords masked), for the start-up line. */
  redisShown: string;
  keys: KeySpace;
  services: Services;
  /** Extra workers (tests); the built-in ones are always started. */
  workers: WorkerFactory[];
  health: () => Promise<HealthReport>;
  /** Told of this process's workers as soon as they exist, before they are ready (readiness reports them). */
  started: (workers: Array<{ name: string; running: () => boolean }>) => void;
}

export interface Workers {
  /** `/healthz` and `/metrics` of a `worker` process, on WORKER_PORT. */
  workerHttp?: HttpFront;
}

/** The `worker` half: every feature's queue workers, and a `worker` process's health and metrics port. */
export async function startWorkers(ctx: StartContext, deps: WorkerDeps): Promise<Workers> {
  const { logger, closers } = ctx;
  const { config, metrics, keys } = deps;
  ctx.step('workers');
  const workerRedis = createRedis(deps.redisSettings, 'worker');
  workerRedis.on('error', (error) => logger.warn({ err: error.message }, 'redis (worker) error'));
  closers.push('redis-worker', () => quit(workerRedis));
  const factories = [
    ...FEATURES.flatMap<WorkerFactory>((feature) =>
      'workers' in feature ? feature.workers(deps.services) : [],
    ),
    ...deps.workers,
  ];
  const started = factories.map((create) => create({ connection: workerRedis, keys, logger }));
  for (const worker of workersAmong(started)) observeWorker(metrics, worker);
  deps.started(
    workersAmong(started).map((worker) => ({
      name: worker.name,
      running: () => worker.isRunning() && !worker.isPaused() && workerRedis.status === 'ready',
    })),
  );
  const result: Workers = {};
  // Start-up ends with the queues being worked (what /readyz asks of a worker), or, with Redis
  // slow to answer, after 10 s: readiness then says which queues wait.
  await withTimeout(Promise.all(workersAmong(started).map((worker) => worker.waitUntilReady())), 10_000);
  // All workers close together, each with a timeout: a job still running then is handed back to
  // BullMQ (it stalls and another worker takes it up), so nothing is lost (docs/requirements.md R20).
  closers.push('workers', () =>
    Promise.all(started.map((worker) => withTimeout(worker.close(), WORKER_CLOSE_TIMEOUT_MS))),
  );
  ctx.say(`Regdesk workers (${factories.length} queues) running against ${deps.redisShown}.`);
  if (ctx.role === 'worker') {
    const workerHttp = await startHttpFront({
      port: config.workerPort,
      logger,
      metrics,
      health: deps.health,
      // WORKER_PORT never faces Slack: Prometheus scrapes it as it is.
      metricsAccess: { kind: 'open' },
      unconfiguredHint: 'This is a `regdesk worker`: Slack requests go to `regdesk web`.',
    });
    closers.push('worker-http', () => workerHttp.stop());
    result.workerHttp = workerHttp;
    logger.info({ port: workerHttp.port }, 'worker health and metrics listening');
    ctx.say(
      `Regdesk worker health and metrics listening on http://0.0.0.0:${workerHttp.port}/healthz and /metrics.`,
    );
  }
  return result;
}
