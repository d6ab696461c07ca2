import { join } from 'node:path';
import { type Child, LISTENING, repoRoot, residentMb, startNode } from '../lib/children.js';
import { type BenchContext, keyPrefix, sleep, startSandbox } from '../lib/context.js';
import { judged, type Row } from '../lib/report.js';
import { SILENT_ADDRESSES, startSilentZone } from '../lib/silent-zone.js';

/** What one check may add while it runs, and keep after it (issue #49). */
const DURING_MB = 5;
const AFTER_MB = 1;
/**
 * How long after the check the size is read, every SAMPLE_MS: the lowest reading is what the check
 * left behind (its garbage comes and goes with the collector's timing, as in the installations row).
 */
const SETTLE_MS = 3_000;
const SAMPLE_MS = 25;
/** The check waits out each silent address it asks, within the contract's 20 s deadline. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Issue #49 "per live check": a `/dns check` of a zone whose owner named 500 nameserver addresses,
 * none of which answers (bench/lib/silent-zone.ts), in a process of its own with Regdesk's Node flags
 * after one such check already ran (bench/live-check.ts). Its resident size is read every 25 ms: the
 * median before the check, the highest while it runs, and the lowest in the 3 s after it (info: the
 * allocator keeps pages). Judged: what the check adds while it runs, and the V8 heap it leaves held,
 * which the script reports after a full collection on each side of the check.
 */
export async function liveCheckMemory(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const world = await startSilentZone();
  let child: Child | undefined;
  try {
    child = await startNode(
      ctx.runtime,
      `live check on ${ctx.runtime.label}`,
      join(repoRoot(), 'dist', 'bench', 'live-check.js'),
      [],
      {
        PATH: process.env.PATH ?? '',
        REDIS_URL: ctx.redisUrl,
        BENCH_KEY_PREFIX: keyPrefix(ctx, 'live-check'),
        BENCH_DNS_PORT: String(world.port),
        BENCH_REGISTRAR_URL: sandbox.url,
        BENCH_REGISTRAR_KEY: sandbox.apiKey,
      },
      LISTENING,
      // `gc` for the script to collect around the check: the heap it reports after is what is held.
      [...ctx.runtime.flags, '--expose-gc'],
    );
    const said = (marker: string) => child?.tail().includes(marker) === true;
    const before: number[] = [];
    let peak = 0;
    const deadline = Date.now() + CHECK_TIMEOUT_MS;
    while (!said('live check done')) {
      if (Date.now() > deadline) throw new Error('the check did not end within 60 s');
      const rss = residentMb(child.pid);
      if (said('live check started')) peak = Math.max(peak, rss);
      else before.push(rss);
      await sleep(SAMPLE_MS);
    }
    let after = Number.POSITIVE_INFINITY;
    for (let waited = 0; waited < SETTLE_MS; waited += SAMPLE_MS) {
      await sleep(SAMPLE_MS);
      after = Math.min(after, residentMb(child.pid));
    }
    const heap = /heap ([\d.]+) -> ([\d.]+) MB/.exec(child.tail());
    const heldMb = heap === null ? Number.NaN : Number(heap[2]) - Number(heap[1]);
    const base = [...before].sort((a, b) => a - b)[Math.floor(before.length / 2)] ?? Number.NaN;
    const zone = `${SILENT_ADDRESSES} silent nameserver addresses`;
    return [
      judged(
        `Live check: RSS a /dns check of a zone with ${zone} adds while it runs`,
        `+${(peak - base).toFixed(1)} MB (${peak.toFixed(1)} MB at most)`,
        `${base.toFixed(1)} MB before; ${DURING_MB} MB allowed`,
        (peak - base) / DURING_MB,
        '<=',
        1,
      ),
      judged(
        'Live check: V8 heap it leaves held (after a full collection, against one before it)',
        `${heldMb >= 0 ? '+' : ''}${heldMb.toFixed(2)} MB`,
        `${AFTER_MB} MB allowed`,
        Math.max(0, heldMb) / AFTER_MB,
        '<=',
        1,
      ),
      {
        measure: `Live check: RSS after it (lowest in the ${SETTLE_MS / 1000} s after; pages the allocator keeps count here)`,
        value: `${after - base >= 0 ? '+' : ''}${(after - base).toFixed(1)} MB (${after.toFixed(1)} MB)`,
        ceiling: `${base.toFixed(1)} MB before`,
        goal: 'info',
      },
    ];
  } finally {
    await child?.stop();
    await world.stop();
  }
}
