import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_READS } from '../../src/features/watches/pace.js';
import { WATCHES_PER_PERSON } from '../../src/features/watches/service.js';
import type { Harness } from '../helpers/app-harness.js';
import { command, looksDone, startWatching, WS } from './support.js';

const COUNT = 500;
const READ_OPERATIONS = new Set(['GET']);

/** The most requests in any window of `ms` (sliding, by each request's time). */
function busiest(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= ms) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe('500 watched domains: reads paced and spread, within the pace (app, sandbox)', () => {
  let h: Harness;
  let clock: { t: number };
  const reads: number[] = [];

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    for (let i = 0; i < COUNT; i++) h.sandbox.state.addDomain(`watched-${i}.com`, clock.t);
    h.sandbox.onRequest((request) => {
      if (READ_OPERATIONS.has(request.method)) reads.push(request.at);
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('first looks at 500 new watches within 60 s, never above the pace', async () => {
    // Fifty each (the per-person cap, service.ts), by ten people; each name is read before it is watched.
    for (let part = 0; part < COUNT / WATCHES_PER_PERSON; part++) {
      const names = Array.from(
        { length: WATCHES_PER_PERSON },
        (_, i) => `watched-${part * WATCHES_PER_PERSON + i}.com`,
      ).join(' ');
      const { last } = await command(h, '/domain', `watch add ${names}`, { user: `UPACE${part}` });
      expect(last).toContain('Now watching');
    }
    await looksDone(h);
    const entries = await h.running.services.watches.list(WS);
    expect(entries).toHaveLength(COUNT);
    expect(entries.every((entry) => entry.state.checkedAt !== undefined)).toBe(true);
    // Each name read before it is watched, then its first look (two reads).
    expect(reads.length).toBeGreaterThanOrEqual(3 * COUNT);
    // Later sweeps take the same paced path (alerts.test.ts covers them); the first looks are the burst.
    // The pace lets at most 20 reads start in any 1.25 s, so at most 100 in any 5 s; the sandbox logs
    // each read when it answers, in this same busy process, so answers bunch a little (hence 20 %
    // slack). Unpaced, the 1,500 reads would land within a few seconds.
    expect(busiest(reads, 5_000)).toBeLessThanOrEqual(6 * WATCH_READS.max);
    expect(h.sandbox.calls.some((call) => call.status === 429)).toBe(false);
  }, 240_000);
});
