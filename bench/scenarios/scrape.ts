import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { freePort } from '../../src/runtime/local-redis.js';
import { type Child, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, sleep, startSandbox, TEAM } from '../lib/context.js';
import { judged, ms, percentile, type Row } from '../lib/report.js';
import { FORM, postSigned, slashCommand } from '../lib/slack-requests.js';

/** Scrapers at once (several Prometheus servers, a dashboard): one scrape every 250 ms. */
const SCRAPE_EVERY_MS = 250;
/** Look-ups a second keeping the process busy (a `/domain info` each: ack, registrar read, reply). */
const LOAD_PER_SECOND = 10;
const WINDOW_MS = 10_000;
const ROUNDS = 3;
/** Goal: a scrape of a busy process answers within this (Prometheus' default scrape timeout is 10 s). */
const LATENCY_GOAL_MS = 100;
/** How long queue readings are reused (src/shared/queue-depth.ts QUEUE_DEPTH_TTL_MS). */
const DEPTH_TTL_MS = 5_000;

/** A Redis of this scenario's own, so its command count is the child's alone (other scenarios share the bench's). */
async function ownRedis(): Promise<{ url: string; redis: Redis; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const redis = new Redis(port, '127.0.0.1', {
    maxRetriesPerRequest: 3,
    retryStrategy: (n) => (n > 50 ? null : 100),
  });
  redis.on('error', () => {});
  await redis.ping();
  return { url: `redis://127.0.0.1:${port}`, redis, server };
}

function scrape(port: number): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ ms: performance.now() - started, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Round trips to Redis, counted with MONITOR: the commands clients send, not those a script runs
 * inside Redis (MONITOR names their source `lua`; INFO's command count includes them).
 */
async function roundTrips(redis: Redis): Promise<{ count(): number; stop(): void }> {
  const monitor = await redis.monitor();
  let count = 0;
  monitor.on('monitor', (_time: string, _args: string[], source: string) => {
    if (source !== 'lua') count++;
  });
  return { count: () => count, stop: () => monitor.disconnect() };
}

/**
 * A scrape of a busy process stays cheap (issue #32): `regdesk start` answering 10 look-ups a second,
 * scraped 4 times a second. Two figures: the scrape's p99 latency, and the Redis round trips a scrape
 * adds, from windows with and without scrapers alternating on a Redis of the scenario's own. By design
 * a scrape reads each queue at most once per 5 s (two scripts) plus one PING for `regdesk_ready`; the
 * ceiling is that design's count.
 */
export async function scrapeCost(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const own = await ownRedis();
  let child: Child | undefined;
  let loading = true;
  try {
    const env = { ...regdeskEnv(ctx, sandbox, keyPrefix(ctx, 'scrape')), REDIS_URL: own.url };
    child = await startRegdesk(ctx.runtime, 'start', env, 'regdesk start (scrape)');
    const port = child.port;
    let n = 0;
    void (async () => {
      while (loading) {
        const body = slashCommand({
          team: TEAM,
          command: '/domain',
          text: 'info example.com',
          user: 'U0001',
          channel: 'CSCRAPE',
          responseUrl: ctx.slack.responseUrl(`scrape-${ctx.runId}-${n++}`),
        });
        void postSigned(port, ctx.secret, body, FORM);
        await sleep(1000 / LOAD_PER_SECOND);
      }
    })();
    const queues = new Set(
      [...(await scrape(port)).body.matchAll(/^regdesk_queue_jobs\{queue="([^"]+)"/gm)].map((m) => m[1]),
    );
    await sleep(2_000);
    const latencies: number[] = [];
    let quiet = 0;
    let scraped = 0;
    let scrapes = 0;
    const trips = await roundTrips(own.redis);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        let before = trips.count();
        await sleep(WINDOW_MS);
        quiet += trips.count() - before;
        before = trips.count();
        const until = Date.now() + WINDOW_MS;
        while (Date.now() < until) {
          const next = Date.now() + SCRAPE_EVERY_MS;
          latencies.push((await scrape(port)).ms);
          scrapes++;
          await sleep(Math.max(0, next - Date.now()));
        }
        scraped += trips.count() - before;
      }
    } finally {
      trips.stop();
    }
    const perScrape = (scraped - quiet) / scrapes;
    // At most one reading per 5 s, and a window may catch one more at its edge; per queue and reading,
    // the counts and the oldest waiting job, one script each.
    const readingsPerWindow = WINDOW_MS / DEPTH_TTL_MS + 1;
    const designed = 1 + (2 * queues.size * readingsPerWindow * ROUNDS) / scrapes;
    const p99 = percentile(latencies, 0.99);
    return [
      judged(
        `Metrics: /metrics of a busy process (${LOAD_PER_SECOND} look-ups/s), p99 of ${scrapes} scrapes`,
        ms(p99),
        `${LATENCY_GOAL_MS} ms (p50 ${ms(percentile(latencies, 0.5))})`,
        p99 / LATENCY_GOAL_MS,
        '<=',
        1,
      ),
      judged(
        'Metrics: Redis round trips a scrape adds (4 scrapes/s, against windows without)',
        perScrape.toFixed(2),
        `${designed.toFixed(2)} by design (1 PING + 2 per queue × ${queues.size} queues at most every 5 s)`,
        perScrape / designed,
        '<=',
        1,
      ),
    ];
  } finally {
    loading = false;
    await child?.stop();
    own.redis.disconnect();
    own.server.kill('SIGTERM');
  }
}
