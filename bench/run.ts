/**
 * `npm run bench`: every performance figure of Regdesk in one run, each against its ceiling or
 * baseline measured in the same run on the same machine. Regdesk runs as real child processes
 * (`node dist/src/cli.js start|web`) against the Slack stand-in (paced like Slack) and registrar sandboxes in this process,
 * all on loopback. Prints one table, writes it with the machine to bench/results.md, and exits 1 when
 * any goal is missed (or a figure could not be measured).
 *
 * Order: ack latency first, alone, since it is the figure most sensitive to other load. Following
 * waits for two issuances (at 20 s and 5 min) with almost nothing to do, so it runs alongside the rest.
 *
 * Writes the table into docs/benchmark.md between its `bench:start`/`bench:end` markers too.
 *
 * Redis: REDIS_URL, else 127.0.0.1:6379; every scenario uses a key prefix of its own, removed at the
 * end. Diagnosis: BENCH_VERBOSE=1 echoes the children's output, BENCH_LOG_LEVEL sets their LOG_LEVEL.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SlackStandIn } from '../src/playground/slack-standin.js';
import { killAllNow, repoRoot, stopAll } from './lib/children.js';
import type { BenchContext } from './lib/context.js';
import { failedRow, machine, type Row, table, writeReadmeTable, writeResults } from './lib/report.js';
import { benchRuntimes } from './lib/runtimes.js';
import { ackLatency } from './scenarios/ack.js';
import { assistantThroughput } from './scenarios/assistant.js';
import { auditScale } from './scenarios/audit.js';
import { availability } from './scenarios/availability.js';
import { changesets } from './scenarios/changesets.js';
import { following } from './scenarios/following.js';
import { installationsScale } from './scenarios/installations.js';
import { liveCheckMemory } from './scenarios/live-check.js';
import { idleMemory } from './scenarios/memory.js';
import { scrapeCost } from './scenarios/scrape.js';
import { servedScale } from './scenarios/served.js';
import { watchesScale } from './scenarios/watches.js';

/** BENCH_ONLY=ack,memory,availability,assistant,audit,changesets,installations,livecheck,watches,served,scrape,following runs just those (diagnosis; docs/benchmark.md untouched). */
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());

/** A scenario that runs past this is abandoned (its children are killed at the end) and fails. */
const SCENARIO_DEADLINE_MS = 180_000;
/** Following waits for a certificate issued 5 min after its order, reported at the ~510 s read. */
const FOLLOWING_DEADLINE_MS = 660_000;
/** Watches grow to 50,000 and measure four windows of 70 s each. */
const WATCHES_DEADLINE_MS = 480_000;
/** Installations: 10,000 sealed in the vault, then each heard from once. */
const INSTALLATIONS_DEADLINE_MS = 480_000;

async function redisAnswers(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `bench: no Redis at ${url.replace(/\/\/[^@/]*@/, '//***@')} (set REDIS_URL or start redis-server on 127.0.0.1:6379): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Deletes what the children left under the bench's own prefixes, and nothing else. */
async function cleanRedis(redis: Redis, prefixes: readonly string[]): Promise<void> {
  for (const prefix of prefixes) {
    let cursor = '0';
    for (let pages = 0; pages < 10_000; pages++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  }
}

function deadline<T>(name: string, work: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${name} did not finish within ${deadlineMs / 1000} s`)),
      deadlineMs,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const redis = await redisAnswers(redisUrl);
  // The Slack the tests and the playground use, pacing as Slack does: no figure comes from a forgiving fake.
  const slack = await new SlackStandIn({ pacing: true }).start();
  const { runtimes, missing } = benchRuntimes();
  const runId = randomBytes(4).toString('hex').slice(0, 6);
  const base = {
    redisUrl,
    secret: randomBytes(16).toString('hex'),
    masterKey: randomBytes(32).toString('base64'),
    slack,
    prefixes: [] as string[],
    sandboxes: [] as BenchContext['sandboxes'],
  };
  // One context per runtime: its own run id (names, key prefixes), the shared Slack, Redis and lists.
  const passes: BenchContext[] = runtimes.map((runtime) => ({
    ...base,
    runId: `${runId}${runtime.tag}`,
    runtime,
  }));
  onInterrupt = () => cleanRedis(redis, base.prefixes);
  const notes: string[] = [];
  if (missing !== undefined) notes.push(`not measured on ${missing}`);
  const measure = async (
    ctx: BenchContext,
    name: string,
    run: (ctx: BenchContext) => Promise<Row[]>,
    deadlineMs = SCENARIO_DEADLINE_MS,
  ): Promise<Row[]> => {
    const began = Date.now();
    const scenario = `${name} on ${ctx.runtime.label}`;
    process.stdout.write(`bench: ${scenario}…\n`);
    try {
      const rows = await deadline(scenario, run(ctx), deadlineMs);
      process.stdout.write(`bench: ${scenario} done in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
      return rows.map((row) => ({ ...row, measure: `${ctx.runtime.label} · ${row.measure}` }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stdout.write(`bench: ${scenario} failed: ${message}\n`);
      notes.push(
        `${scenario} could not be measured: ${message.split('\n')[0]} (BENCH_VERBOSE=1 shows the children's output)`,
      );
      return [failedRow(scenario, error)];
    }
  };

  const rows: Row[] = [];
  const wanted = (name: string) => only === undefined || only.includes(name);
  try {
    // Ack latency first and alone on every runtime: it is the figure most sensitive to other load.
    for (const ctx of passes)
      if (wanted('ack')) rows.push(...(await measure(ctx, 'ack latency', ackLatency)));
    // Following mostly waits (for issuances at 20 s and 5 min): every runtime's runs alongside the rest.
    const followed = wanted('following')
      ? Promise.all(passes.map((ctx) => measure(ctx, 'following', following, FOLLOWING_DEADLINE_MS)))
      : Promise.resolve([]);
    for (const ctx of passes) {
      if (wanted('memory')) rows.push(...(await measure(ctx, 'idle memory', idleMemory)));
      if (wanted('availability')) rows.push(...(await measure(ctx, 'availability', availability)));
      if (wanted('assistant')) rows.push(...(await measure(ctx, 'assistant', assistantThroughput)));
      if (wanted('audit')) rows.push(...(await measure(ctx, 'audit', auditScale)));
      if (wanted('changesets')) rows.push(...(await measure(ctx, 'change sets', changesets)));
      if (wanted('installations'))
        rows.push(...(await measure(ctx, 'installations', installationsScale, INSTALLATIONS_DEADLINE_MS)));
      if (wanted('watches')) rows.push(...(await measure(ctx, 'watches', watchesScale, WATCHES_DEADLINE_MS)));
      if (wanted('livecheck')) rows.push(...(await measure(ctx, 'live check', liveCheckMemory)));
      if (wanted('served')) rows.push(...(await measure(ctx, 'served', servedScale)));
      if (wanted('scrape')) rows.push(...(await measure(ctx, 'scrape', scrapeCost)));
    }
    rows.push(...(await followed).flat());
  } finally {
    await stopAll();
    await Promise.all(base.sandboxes.map((sandbox) => sandbox.close()));
    await slack.stop();
    await cleanRedis(redis, base.prefixes).catch((error: unknown) =>
      notes.push(`Redis keys under bench-${runId}* were not all removed: ${String(error)}`),
    );
    onInterrupt = undefined;
    redis.disconnect();
  }

  const elapsed = Date.now() - startedAt.getTime();
  const path = join(repoRoot(), 'bench', 'results.md');
  // A partial run (BENCH_ONLY) leaves the full table of docs/benchmark.md alone.
  const readme = join(repoRoot(), 'docs', 'benchmark.md');
  if (only === undefined && !writeReadmeTable(readme, rows, startedAt))
    notes.push('docs/benchmark.md has no bench markers; its table was not updated');
  // A partial run (BENCH_ONLY) is diagnosis: it prints its rows and leaves both records alone.
  if (only === undefined) writeResults(path, rows, notes, startedAt, elapsed);
  process.stdout.write(`\n${machine().join(' · ')}\n\n${table(rows)}\n\n`);
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
  const failed = rows.filter((row) => row.pass === false).length;
  process.stdout.write(
    `${failed === 0 ? 'Every goal met' : `${failed} goal(s) missed`}${only === undefined ? `; written to ${path}` : ''}\n`,
  );
  return failed === 0 ? 0 : 1;
}

/** Set while a run is under way: what an interrupted bench still removes from Redis. */
let onInterrupt: (() => Promise<void>) | undefined;

// Children die with the bench, whatever way it ends; an interrupted run still tidies Redis (briefly).
process.on('exit', killAllNow);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    killAllNow();
    const tidy = onInterrupt?.().catch(() => undefined) ?? Promise.resolve();
    const bounded = new Promise((resolve) => setTimeout(resolve, 3_000));
    void Promise.race([tidy, bounded]).then(() => process.exit(code));
  });
}

try {
  process.exit(await main());
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
