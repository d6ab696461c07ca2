import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  digestSchedulerId,
  nextDigestAt,
  scheduleDigest,
  scheduleSweep,
  WATCH_QUEUE,
  type WatchJob,
} from '../../src/features/watches/jobs.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { createLogger } from '../../src/shared/logger.js';
import { createQueue } from '../../src/shared/queues.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import type { Harness } from '../helpers/app-harness.js';
import { messageText } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { command, DAY, looksDone, posted, startWatching, WS } from './support.js';

const BERLIN_DAILY = { channel: 'C1', cadence: 'daily', hour: 9, timeZone: 'Europe/Berlin' } as const;
const NEW_YORK_MONDAYS = { channel: 'C1', cadence: 'monday', hour: 8, timeZone: 'America/New_York' } as const;
const utc = (iso: string) => Date.parse(iso);

describe('digest schedule in the workspace’s time zone, across DST changes', () => {
  it('09:00 in Berlin is 08:00 UTC before the spring change and 07:00 UTC after it', () => {
    expect(nextDigestAt(BERLIN_DAILY, utc('2026-03-27T10:00:00Z'))).toBe(utc('2026-03-28T08:00:00Z'));
    expect(nextDigestAt(BERLIN_DAILY, utc('2026-03-28T10:00:00Z'))).toBe(utc('2026-03-29T07:00:00Z'));
  });

  it('Mondays 08:00 in New York are 12:00 UTC in October and 13:00 UTC after the autumn change', () => {
    expect(nextDigestAt(NEW_YORK_MONDAYS, utc('2026-10-20T00:00:00Z'))).toBe(utc('2026-10-26T12:00:00Z'));
    expect(nextDigestAt(NEW_YORK_MONDAYS, utc('2026-10-27T00:00:00Z'))).toBe(utc('2026-11-02T13:00:00Z'));
  });

  it('no digest is scheduled without a channel or with the cadence off', () => {
    const { channel: _channel, ...noChannel } = BERLIN_DAILY;
    expect(nextDigestAt(noChannel, Date.now())).toBeUndefined();
    expect(nextDigestAt({ ...BERLIN_DAILY, cadence: 'off' }, Date.now())).toBeUndefined();
  });
});

describe('one scheduler each, however many processes upsert (BullMQ, real Redis)', () => {
  let redis: Redis;
  let queues: Queue<WatchJob>[];
  const keys = new KeySpace(`t${randomBytes(5).toString('hex')}`);
  const logger = createLogger({ level: 'silent' });

  beforeAll(async () => {
    redis = createRedis(testRedisUrl(), 'worker', 'watch-schedule-test');
    await waitForReady(redis);
    // Two processes: each its own connection and queue object, one Redis.
    queues = [
      createQueue<WatchJob>(WATCH_QUEUE, redis, keys, logger),
      createQueue<WatchJob>(WATCH_QUEUE, redis.duplicate(), keys, logger),
    ];
  });
  afterAll(async () => {
    await queues[0]?.obliterate({ force: true });
    for (const queue of queues) await queue.close();
    redis.disconnect();
  });

  it('restarts and a second process replace the sweep and digest schedulers, never add one; moving and removing work', async () => {
    const [a, b] = queues as [Queue<WatchJob>, Queue<WatchJob>];
    await Promise.all([scheduleSweep(a), scheduleSweep(b), scheduleSweep(a)]);
    await Promise.all([
      scheduleDigest(a, WS, BERLIN_DAILY),
      scheduleDigest(b, WS, BERLIN_DAILY),
      scheduleDigest(a, WS, BERLIN_DAILY),
    ]);
    expect(await a.getJobSchedulersCount()).toBe(2);
    const digestJobs = async () =>
      (await a.getJobs(['delayed', 'waiting'])).filter((job) => job.name === 'digest');
    expect(await digestJobs()).toHaveLength(1);
    const sweepJobs = (await a.getJobs(['delayed', 'waiting'])).filter((job) => job.name === 'sweep');
    expect(sweepJobs).toHaveLength(1);
    const berlin = await a.getJobScheduler(digestSchedulerId(WS));
    expect(berlin).toMatchObject({ pattern: '0 9 * * *', tz: 'Europe/Berlin' });
    // BullMQ's next run is the one Regdesk shows (the same cron in the same zone).
    expect(berlin?.next).toBe(nextDigestAt(BERLIN_DAILY, Date.now()));

    await scheduleDigest(b, WS, NEW_YORK_MONDAYS);
    expect(await a.getJobSchedulersCount()).toBe(2);
    expect(await digestJobs()).toHaveLength(1);
    expect(await a.getJobScheduler(digestSchedulerId(WS))).toMatchObject({
      pattern: '0 8 * * 1',
      tz: 'America/New_York',
    });

    await scheduleDigest(a, WS, { ...NEW_YORK_MONDAYS, cadence: 'off' });
    expect(await a.getJobScheduler(digestSchedulerId(WS))).toBeUndefined();
    expect(await digestJobs()).toHaveLength(0);
    expect(await a.getJobSchedulersCount()).toBe(1);
  });
});

describe('two processes and a restart raise each alert once (app + worker process, one Redis)', () => {
  let h: Harness;
  let clock: { t: number };
  let second: Running | undefined;

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
  });
  afterAll(async () => {
    await second?.stop();
    await h?.stop();
  });

  const startWorker = () =>
    runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: createLogger({ level: 'silent' }),
      env: h.env,
      say: () => {},
      now: () => clock.t,
    });

  it('sweeps from both processes, and again after a restart, post every alert exactly once', async () => {
    second = await startWorker();
    await command(h, '/domain', 'watch add expiring-soon.net');
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length > 0, 15_000);

    for (const days of [1, 6]) {
      clock.t += days * DAY;
      await Promise.all([h.running.services.watches.sweep(), second.services.watches.sweep()]);
      await looksDone(h);
    }
    await h.slack.waitFor(() => posted(h, 'C0001', 'expiring-soon.net').length >= 2, 15_000);

    // A restart of the second process; its sweep and the first's find nothing new to say.
    await second.stop();
    second = await startWorker();
    clock.t += 7 * 3_600_000;
    await Promise.all([h.running.services.watches.sweep(), second.services.watches.sweep()]);
    await looksDone(h);
    const alerts = posted(h, 'C0001', 'expiring-soon.net').map((call) => messageText(call));
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toContain('in 12 days');
    expect(alerts[1]).toMatch(/in [45] days/);
    const sweeps = (await h.running.services.watchQueue.getJobSchedulers()).filter(
      (s) => s.key === 'watch-sweep',
    );
    expect(sweeps).toHaveLength(1);
  });

  it('a scheduled digest run posts the digest once in the digest channel; with the cadence off it posts nothing', async () => {
    const ws = { ...WS };
    await h.running.services.watches.saveSettings(ws, {
      channel: 'C0DIG',
      cadence: 'daily',
      hour: 9,
      timeZone: 'Europe/Berlin',
    });
    // The job a scheduler run adds, added by hand (waiting for 09:00 is not a test).
    await h.running.services.watchQueue.add('digest', { type: 'digest', teamId: ws.teamId });
    await h.slack.waitFor(() => posted(h, 'C0DIG', 'Watch digest').length > 0, 15_000);
    const text = messageText(posted(h, 'C0DIG', 'Watch digest')[0] ?? { method: '', args: {}, at: 0 });
    expect(text).toContain('expiring-soon.net');
    expect(text).toContain('What changed');

    await h.running.services.watches.saveSettings(ws, {
      channel: 'C0DIG',
      cadence: 'off',
      hour: 9,
      timeZone: 'UTC',
    });
    await h.running.services.watchQueue.add('digest', { type: 'digest', teamId: ws.teamId });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(posted(h, 'C0DIG', 'Watch digest')).toHaveLength(1);
  });
});
