import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { SWEEP_EVERY_MS } from '../../src/features/watches/jobs.js';
import { LOOK_EARLY_MS } from '../../src/features/watches/service.js';
import { type WatchItem, type WatchState, WatchStore } from '../../src/features/watches/store.js';
import { KeySpace } from '../../src/shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../src/shared/workspace.js';
import { type Child, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, sleep, startSandbox, TEAM } from '../lib/context.js';
import { startNxdomainResolver } from '../lib/dns.js';
import { judged, ms, type Row, seconds } from '../lib/report.js';

/** The one workspace's watch list grows through these sizes, in one worker process (issue #29). */
const SIZES = [500, 5_000, 50_000] as const;
/** Looks falling due per second in a measured window: twice what 50,000 items at the 6-h interval need. */
const RATE_PER_S = 5;
const WINDOW_MS = 30_000;
/** Items due in a window, looked at in every stage (the sandbox knows these names). */
const LOOKED_AT = (RATE_PER_S * WINDOW_MS) / 1000;
/** After the last item falls due: a sweep period and the pace's queue, so every look is in. */
const TAIL_MS = SWEEP_EVERY_MS + 10_000;
/** Before the first item falls due: the process and Redis are sampled after the bench's own writes. */
const LEAD_MS = 3_000;
/** The items outside the window are due a day on: spread like real ones, not looked at here. */
const LATER_MS = 86_400_000;
const GOAL = 1.2;
const SEED_BATCH = 1_000;
const CLOCK_TICKS_PER_S = 100;

const WORKSPACE: WorkspaceRef = { teamId: TEAM };
const nameOf = (i: number) => `w${i}.watch-bench.example`;

interface Stage {
  size: number;
  bytesPerItem: number;
  cpuMsPerLook: number;
  /** Of which Redis's. */
  redisMsPerLook: number;
  /** The latest look after its item fell due, over the window's items. */
  latestMs: number;
}

/** User and system CPU seconds of a process, from /proc (Linux: the bench's machines). */
function processCpuS(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

async function redisCpuS(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/**
 * Watched items 500 → 5,000 → 50,000 in one workspace (issue #29): one `regdesk worker`, its list
 * grown in place with Regdesk's own `WatchStore` (every item with a state like a real look's). At each
 * size 150 items fall due over 30 s, the rest a day later; the worker's sweep and looks run as in
 * production, each look with its live DNS check (answered NXDOMAIN by the bench's resolver, as for
 * names that do not exist). Measured per size: Redis bytes per item (items, due and state), CPU per
 * look (the worker's and Redis's over the same fixed window), and how late each look came after its
 * due time.
 */
export async function watchesScale(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const resolver = await startNxdomainResolver();
  for (let i = 0; i < LOOKED_AT; i++) sandbox.state.addDomain(nameOf(i), Date.now());
  const prefix = keyPrefix(ctx, 'watches');
  const keys = new KeySpace(prefix);
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: 3 });
  const store = new WatchStore(redis, keys);
  const watchKey = (part: string) => keys.key(`ws:${workspaceId(WORKSPACE)}`, 'watch', part);
  let worker: Child | undefined;
  let count = 0;
  let template: WatchState | undefined;

  /** Gives items `from`…`to` − 1 what the template look saw, as if each had been looked at. */
  const seedStates = async (from: number, to: number, state: WatchState) => {
    for (let i = from; i < to; i += SEED_BATCH)
      await Promise.all(
        Array.from({ length: Math.min(SEED_BATCH, to - i) }, (_, j) =>
          store.saveState(WORKSPACE, 'domain', nameOf(i + j), state),
        ),
      );
  };

  const grow = async (size: number) => {
    for (; count < size; count += SEED_BATCH) {
      const items = Array.from(
        { length: Math.min(SEED_BATCH, size - count) },
        (_, i): WatchItem => ({
          kind: 'domain',
          id: nameOf(count + i),
          channel: 'CWATCHBENCH',
          addedBy: 'UBENCH',
          addedAt: Date.now(),
        }),
      );
      const added = await store.add(
        WORKSPACE,
        items,
        { workspace: size, perPerson: undefined, adder: 'UBENCH' },
        Date.now() + LATER_MS,
      );
      if (!added.ok) throw new Error(`seeding ${size} watches was refused (${added.over} limit)`);
      if (template !== undefined) await seedStates(count, count + items.length, template);
    }
    count = size;
  };

  /** Sets the due times, then measures one window: the looks of the first LOOKED_AT items. */
  const window = async (size: number): Promise<Omit<Stage, 'bytesPerItem'>> => {
    if (worker === undefined) throw new Error('no worker');
    // Writing 50,000 due times takes a few seconds: the lead grows with the size.
    const start = Date.now() + LEAD_MS + size / 10;
    const due = (i: number) => start + (i < LOOKED_AT ? (i * 1000) / RATE_PER_S : LATER_MS + i);
    for (let i = 0; i < size; i += SEED_BATCH)
      await Promise.all(
        Array.from({ length: Math.min(SEED_BATCH, size - i) }, (_, j) =>
          store.setDue(WORKSPACE, 'domain', nameOf(i + j), due(i + j)),
        ),
      );
    if (Date.now() >= start) throw new Error(`setting ${size} due times took longer than the lead`);
    await sleep(start - Date.now());
    const before = { worker: processCpuS(worker.pid), redis: await redisCpuS(redis) };
    await sleep(due(LOOKED_AT - 1) + TAIL_MS - Date.now());
    const after = { worker: processCpuS(worker.pid), redis: await redisCpuS(redis) };
    let latestMs = 0;
    for (let i = 0; i < LOOKED_AT; i++) {
      const checkedAt = (await store.state(WORKSPACE, 'domain', nameOf(i))).checkedAt ?? 0;
      latestMs = Math.max(latestMs, checkedAt >= due(i) ? checkedAt - due(i) : Number.POSITIVE_INFINITY);
    }
    const redisS = after.redis - before.redis;
    const cpuS = after.worker - before.worker + redisS;
    return {
      size,
      cpuMsPerLook: (cpuS * 1000) / LOOKED_AT,
      redisMsPerLook: (redisS * 1000) / LOOKED_AT,
      latestMs,
    };
  };

  const bytesPerItem = async (size: number) => {
    let bytes = 0;
    for (const part of ['items', 'due', 'state'])
      bytes += Number(await redis.call('MEMORY', 'USAGE', watchKey(part), 'SAMPLES', '0'));
    return bytes / size;
  };

  try {
    const env = {
      ...regdeskEnv(ctx, sandbox, prefix),
      WORKER_PORT: '0',
      WATCH_LIMIT: String(SIZES.at(-1)),
      DNS_RESOLVERS: resolver.address,
    };
    worker = await startRegdesk(ctx.runtime, 'worker', env, 'regdesk worker (watches)');
    // Warm-up at the first size: JIT, pools and every looked-at item's first look (a real state).
    await grow(SIZES[0]);
    await window(SIZES[0]);
    template = await store.state(WORKSPACE, 'domain', nameOf(0));
    if (template.checkedAt === undefined) throw new Error('the warm-up looks did not happen');
    await seedStates(LOOKED_AT, SIZES[0], template);

    const stages: Stage[] = [];
    for (const size of SIZES) {
      await grow(size);
      stages.push({ ...(await window(size)), bytesPerItem: await bytesPerItem(size) });
    }
    const [small, middle, large] = stages;
    if (small === undefined || middle === undefined || large === undefined) throw new Error('stages missing');
    const at = (stage: Stage) => stage.size.toLocaleString('en');
    const cpu = (stage: Stage) => `${ms(stage.cpuMsPerLook)} (Redis ${ms(stage.redisMsPerLook)})`;
    const latest = Math.max(...stages.map((stage) => stage.latestMs));
    return [
      judged(
        `Watches: Redis bytes per item at ${at(large)} (items, due times, states)`,
        `${large.bytesPerItem.toFixed(1)} B`,
        `${small.bytesPerItem.toFixed(1)} B at ${at(small)}; ${middle.bytesPerItem.toFixed(1)} B at ${at(middle)}`,
        large.bytesPerItem / small.bytesPerItem,
        '<=',
        GOAL,
      ),
      judged(
        `Watches: CPU per look at ${at(large)} (worker + Redis, ${LOOKED_AT} looks in a fixed window)`,
        cpu(large),
        `${cpu(small)} at ${at(small)}; ${cpu(middle)} at ${at(middle)}`,
        large.cpuMsPerLook / small.cpuMsPerLook,
        '<=',
        GOAL,
      ),
      judged(
        `Watches: latest look after its due time (${RATE_PER_S} due per second, every size)`,
        Number.isFinite(latest) ? seconds(latest) : 'an item was not looked at',
        `${seconds(LOOK_EARLY_MS)} (a look is due that much before its interval ends)`,
        latest / LOOK_EARLY_MS,
        '<=',
        1,
      ),
    ];
  } finally {
    await worker?.stop();
    await resolver.stop();
    redis.disconnect();
  }
}
