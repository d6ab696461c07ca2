import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import { z } from 'zod';
import { DelayedError } from '../../shared/bullmq.js';
import type { Logger } from '../../shared/logger.js';
import { LuaScript } from '../../shared/lua.js';
import type { Metrics } from '../../shared/metrics.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { Alert, causeKey } from './alert.js';
import { alertMessage, batchMessage } from './alert-blocks.js';
import { deliver } from './deliver.js';
import { queueAlertFlush, type WatchJob } from './jobs.js';
import type { WatchService } from './service.js';
import { fieldOf, WatchItem, type WatchStore } from './store.js';

/**
 * Alerts are gathered before they are posted, so that the alerts of one sweep with the same cause
 * reach each channel as one message ("12 domains could not be checked: …"), not one message each
 * (security review item 4: 30 made-up names once made 30 alerts in 45 s). A sweep's looks at one key
 * run back to back at the watch pace (pace.ts, 20 reads a second), so while a sweep lasts the next
 * alert of a cause follows within a fraction of a second: a batch is posted once none has joined it
 * for GATHER_QUIET_MS, and at the latest GATHER_MAX_MS after its first alert. Both are real time, not
 * the watch clock: they measure how long the processing lasts. A failed look's retry is aligned
 * (sweep.ts), so items failing for one reason (a refused key) are looked at in the same sweep.
 */
export const GATHER_QUIET_MS = 3_000;
export const GATHER_MAX_MS = 60_000;
/** A batch whose flush job was lost (a crash in between) does not stay in Redis for good. */
const BATCH_TTL_MS = 60 * 60_000;

/**
 * A post of an alert no look raises again (`Alert.once`) that failed is retried after 10 s, then
 * twice as long each time, at most every 30 minutes: always within BATCH_TTL_MS, so the batch it
 * waits in outlives the wait.
 */
const RETRY_FIRST_MS = 10_000;
const RETRY_MAX_MS = 30 * 60_000;

/** `retries`: failed posts of this alert so far (only `once` alerts are retried by the outbox). */
const Entry = z.lazy(() =>
  z.object({
    channel: z.string(),
    item: WatchItem,
    alert: Alert,
    retries: z.number().int().min(0).optional(),
  }),
);
type Entry = z.infer<typeof Entry>;

/**
 * Adds an alert to the open batch of its channel and cause, opening one (a new generation) if none
 * is open. The alert's mark is its field: it is in at most one batch. Meta fields start with `_`.
 * KEYS: batch, generation counter. ARGV: now, ttl, mark, entry json. Returns the batch's generation.
 */
const COLLECT = new LuaScript(`
local gen = redis.call('HGET', KEYS[1], '_gen')
if not gen then
  gen = redis.call('INCR', KEYS[2])
  redis.call('HSET', KEYS[1], '_gen', gen, '_first', ARGV[1])
end
redis.call('HSET', KEYS[1], '_last', ARGV[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return tonumber(gen)`);

/**
 * Takes the batch of generation ARGV[1] once it is settled: {2, entries…}; {1, ms} while alerts are
 * still joining it; {0} when it was taken and posted already. Atomic, so one flush takes it. The
 * taken batch is kept aside (KEYS[2]) until its flush says it is done: a flush that dies between
 * taking and posting (a killed worker; BullMQ runs the stalled job again) finds it there and posts
 * it, so an alert is never lost, at the price of a second post in that rare case.
 * KEYS: batch, taken. ARGV: gen, now, quiet, max, ttl.
 */
const TAKE = new LuaScript(`
local meta = redis.call('HMGET', KEYS[1], '_gen', '_first', '_last')
local all
if meta[1] ~= ARGV[1] then
  all = redis.call('HGETALL', KEYS[2])
  if #all == 0 then return {0} end
else
  local now = tonumber(ARGV[2])
  local wait = math.min(tonumber(ARGV[3]) - (now - tonumber(meta[3])), tonumber(ARGV[4]) - (now - tonumber(meta[2])))
  if wait > 0 then return {1, wait} end
  all = redis.call('HGETALL', KEYS[1])
  redis.call('RENAME', KEYS[1], KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
local out = {2}
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 1) ~= '_' then table.insert(out, all[i + 1]) end
end
return out`);

export type Taken = { state: 'gone' } | { state: 'wait'; ms: number } | { state: 'taken'; entries: Entry[] };

/** The batches, in Redis under the workspace's hash tag (an uninstall's purge removes them). */
export class AlertOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, ...parts: string[]): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'watch', ...parts);
  }

  async collect(workspace: WorkspaceRef, entry: Entry, now: number): Promise<{ batch: string; gen: number }> {
    const batch = createHash('sha256')
      .update(`${entry.channel}\n${causeKey(entry.alert.cause)}`)
      .digest('hex')
      .slice(0, 24);
    const gen = await COLLECT.run(
      this.redis,
      2,
      this.#key(workspace, 'outbox', batch),
      this.#key(workspace, 'outbox-gen'),
      String(now),
      String(BATCH_TTL_MS),
      entry.alert.mark,
      JSON.stringify(entry),
    );
    return { batch, gen: Number(gen) };
  }

  async take(workspace: WorkspaceRef, batch: string, gen: number, now: number): Promise<Taken> {
    const [state, ...rest] = (await TAKE.run(
      this.redis,
      2,
      this.#key(workspace, 'outbox', batch),
      this.#key(workspace, 'outbox-taken', batch, String(gen)),
      String(gen),
      String(now),
      String(GATHER_QUIET_MS),
      String(GATHER_MAX_MS),
      String(BATCH_TTL_MS),
    )) as [number, ...(string | number)[]];
    if (state === 0) return { state: 'gone' };
    if (state === 1) return { state: 'wait', ms: Math.max(100, Number(rest[0])) };
    const entries = rest.flatMap((json) => {
      try {
        const parsed = Entry.safeParse(JSON.parse(String(json)));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
    return { state: 'taken', entries };
  }

  /** The taken batch was posted, or handed back (`undelivered`): a later run of its flush finds nothing. */
  async done(workspace: WorkspaceRef, batch: string, gen: number): Promise<void> {
    await this.redis.del(this.#key(workspace, 'outbox-taken', batch, String(gen)));
  }
}

export interface OutboxDeps {
  metrics: Pick<Metrics, 'watchAlerts'>;
  outbox: AlertOutbox;
  store: WatchStore;
  service: WatchService;
  queue: Queue<WatchJob>;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  logger: Logger;
}

/**
 * Raises an alert once: the mark is set first (SET NX, shared by every process and kept across
 * restarts), then the alert waits in the outbox for its channel and cause. It is taken back when the
 * alert cannot be gathered, so the next look tries again. True when the alert is staged in the
 * outbox, now or by an earlier look (its mark was set): the look may then move past it.
 */
export async function raise(
  deps: OutboxDeps,
  workspace: WorkspaceRef,
  item: WatchItem,
  alert: Alert,
): Promise<boolean> {
  if (!(await deps.store.markAlert(workspace, alert.mark))) return true;
  try {
    const settings = await deps.store.settings(workspace);
    const channel = settings?.channel ?? item.channel;
    const { batch, gen } = await deps.outbox.collect(workspace, { channel, item, alert }, Date.now());
    // Every alert of the batch asks for its flush: one job per generation (its id), whoever asks.
    await queueAlertFlush(deps.queue, workspace, batch, gen, GATHER_QUIET_MS);
    deps.metrics.watchAlerts.inc({ cause: alert.cause.kind });
    return true;
  } catch (error) {
    await deps.store.unmarkAlert(workspace, alert.mark);
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'watch alert not gathered; raised again at the next look',
    );
    return false;
  }
}

/**
 * Alerts that could not be posted. One a later look raises again is unmarked, so that look does;
 * a `once` alert keeps its mark (at most once) and goes back into the outbox, its flush queued after
 * a backoff, so it is posted when Slack answers again instead of being lost.
 */
async function undelivered(deps: OutboxDeps, workspace: WorkspaceRef, entries: readonly Entry[]) {
  for (const entry of entries) {
    if (entry.alert.once !== true) {
      await deps.store.unmarkAlert(workspace, entry.alert.mark);
      continue;
    }
    const retries = (entry.retries ?? 0) + 1;
    const { batch, gen } = await deps.outbox.collect(workspace, { ...entry, retries }, Date.now());
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(retries - 1, 20));
    await queueAlertFlush(deps.queue, workspace, batch, gen, delay);
  }
}

/**
 * The flush job of one batch: waits (moved back to delayed) while alerts still join it, then posts
 * it once: a single alert as itself, several as one message naming how many. Alerts of watches
 * removed meanwhile are dropped. What cannot be delivered is raised again (`undelivered`).
 */
export async function flushAlerts(
  deps: OutboxDeps,
  job: Job<WatchJob>,
  token: string | undefined,
): Promise<void> {
  const data = job.data;
  if (data.type !== 'alerts') return;
  const workspace = workspaceFields(data);
  const taken = await deps.outbox.take(workspace, data.batch, data.gen, Date.now());
  if (taken.state === 'gone') return;
  if (taken.state === 'wait') {
    await job.moveToDelayed(Date.now() + taken.ms, token);
    throw new DelayedError();
  }
  const watched = new Set((await deps.store.items(workspace)).map((item) => fieldOf(item.kind, item.id)));
  const entries = taken.entries
    .filter((entry) => watched.has(fieldOf(entry.item.kind, entry.item.id)))
    .sort((a, b) => a.item.kind.localeCompare(b.item.kind) || a.item.id.localeCompare(b.item.id));
  const [first] = entries;
  if (first !== undefined) {
    try {
      const message =
        entries.length === 1
          ? alertMessage(first.alert, first.item)
          : batchMessage(first.alert.cause, entries);
      const adders = entries.map((entry) => entry.item.addedBy);
      const where = await deliver(deps, await deps.slackFor(workspace), first.channel, adders, message);
      if (where === 'nowhere') await undelivered(deps, workspace, entries);
      else deps.service.changed(workspace);
    } catch (error) {
      await undelivered(deps, workspace, entries);
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error), alerts: entries.length },
        'watch alerts not delivered; raised again',
      );
    }
  }
  await deps.outbox.done(workspace, data.batch, data.gen);
}
