import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ENTER_PRESENCE, presenceKey, presenceMember } from './backup-presence.js';
import { behindMark, type IntegrityMark, MarkKeeper } from './data-dir-mark.js';
import type { Logger } from './logger.js';
import { LuaScript } from './lua.js';
import type { KeySpace, Redis } from './redis.js';

/**
 * docs/requirements.md R39, R40: noticing that Regdesk's data vanished or went back in time under a
 * running process.
 *
 * One hash, `{meta}:integrity`, holds the data's identity (`id`, made once), a counter (`seq`) that
 * every process bumps at each check, the approval epoch (`epoch`, bumped at each incident) and the open
 * incident, if any. Each process remembers the identity and the highest `seq` it has seen:
 * - the hash is gone, or holds another identity: the data was flushed, or Redis restarted empty;
 * - `seq` is below what this process saw: Redis was restored from an older copy, or failed over to a
 *   replica that lacked the latest writes.
 * Checks run every `intervalMs` and synchronously before every approval decision and execution, so a
 * rollback is seen before it can re-open an executed request. What is left: a copy taken after the
 * last check of every process (within one interval) and restored before the next one looks like no
 * rollback at all — it lost only that interval's writes, and approvals check before acting.
 *
 * The first process to notice records the incident in the hash (once: an open incident is never
 * replaced) and bumps the epoch: approval requests made under an older epoch never execute (R40).
 * The incident stays open, and `/readyz` 503, until an operator confirms the data with
 * `regdesk data accept` (docs/data.md "Backup and restore").
 *
 * A rollback while every process is stopped (files put back by hand) leaves no process that saw the
 * higher counter: for the private Redis, `start` compares the data directory's mark first
 * (src/shared/data-dir-mark.ts). Each check also enters this process in the presence set
 * (src/shared/backup-presence.ts): `regdesk backup` and `restore` refuse while Regdesk runs.
 */

export const Incident = z.lazy(() =>
  z.object({
    kind: z.enum(['lost', 'rolled_back']),
    detectedAt: z.number(),
    detail: z.string(),
    epoch: z.number(),
  }),
);
export type Incident = z.infer<typeof Incident>;

export const DEFAULT_INTEGRITY_INTERVAL_MS = 10_000;

// ARGV: member, lease, new id, now. Creates the hash when missing; returns what it holds.
const OPEN = new LuaScript(`${ENTER_PRESENCE}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'id', ARGV[3], 'seq', 0, 'epoch', 0, 'createdAt', ARGV[4])
end
local f = redis.call('HMGET', KEYS[1], 'id', 'seq', 'epoch', 'incident')
return {f[1], f[2], f[3], f[4] or ''}`);

// One check: bump the counter and read the rest. {} when the hash is gone. ARGV: member, lease.
const CHECK = new LuaScript(`${ENTER_PRESENCE}
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local f = redis.call('HMGET', KEYS[1], 'id', 'epoch', 'incident')
return {f[1], tostring(seq), f[2], f[3] or ''}`);

// Records an incident unless one is open. ARGV: incident JSON (epoch filled in here), new id, highest
// seq seen, now, highest epoch seen. The counter moves past what any process saw, so the next checks
// pass; the epoch past what any saw, so no request stamped before the incident runs.
const RECORD = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'id', ARGV[2], 'seq', 0, 'epoch', 0, 'createdAt', ARGV[4])
end
local open = redis.call('HGET', KEYS[1], 'incident')
if not open or open == '' then
  local epoch = math.max(tonumber(redis.call('HGET', KEYS[1], 'epoch')), tonumber(ARGV[5])) + 1
  redis.call('HSET', KEYS[1], 'epoch', epoch)
  local incident = cjson.decode(ARGV[1])
  incident.epoch = epoch
  redis.call('HSET', KEYS[1], 'incident', cjson.encode(incident))
end
if tonumber(redis.call('HGET', KEYS[1], 'seq')) <= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'seq', tonumber(ARGV[3]) + 1)
end
local f = redis.call('HMGET', KEYS[1], 'id', 'seq', 'epoch', 'incident')
return {f[1], f[2], f[3], f[4], (not open or open == '') and 'recorded' or 'open'}`);

interface Seen {
  id: string;
  seq: number;
  epoch: number;
  incident: Incident | undefined;
}

export interface IntegrityOptions {
  logger: Logger;
  now: () => number;
  intervalMs?: number;
  /** Re-creates what Regdesk can (the recurring schedules) after an incident; run by the recorder. */
  repair?: () => Promise<void>;
}

export class DataIntegrity {
  #seen: Seen | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<Seen> | undefined;
  #mark: MarkKeeper | undefined;
  readonly #member = presenceMember();

  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly options: IntegrityOptions,
  ) {}

  get #key(): string {
    return integrityKey(this.keys);
  }

  /** OPEN's and CHECK's keys and presence entry. */
  #present(): string[] {
    // Two missed checks (a stalled event loop, a Redis hiccup) do not make a running process absent.
    const lease = 3 * (this.options.intervalMs ?? DEFAULT_INTEGRITY_INTERVAL_MS);
    return [this.#key, presenceKey(this.keys), this.#member, String(lease)];
  }

  /**
   * Reads (or, on a Redis Regdesk never used, creates) the marker, then checks on a timer. With the
   * data directory's `mark` (the private Redis), a marker behind it is a rollback while stopped.
   */
  async start(mark?: IntegrityMark): Promise<void> {
    this.#mark = mark === undefined ? undefined : new MarkKeeper(mark, this.options.logger);
    const now = await this.#open();
    this.#seen = now;
    const before = mark?.read();
    const behind = before === undefined ? undefined : behindMark(now, before, mark?.path ?? '');
    if (now.incident !== undefined) {
      this.options.logger.warn(
        { incident: now.incident },
        'Regdesk data incident still open: not ready until an operator runs `regdesk data accept`',
      );
    } else if (before !== undefined && behind !== undefined) {
      // What the mark saw counts as seen by this process, so the incident moves past it.
      this.#seen = { ...now, seq: Math.max(now.seq, before.seq), epoch: Math.max(now.epoch, before.epoch) };
      await this.#record(behind.kind, behind.detail);
    }
    this.#writeMark(true);
    const interval = this.options.intervalMs ?? DEFAULT_INTEGRITY_INTERVAL_MS;
    this.#timer = setInterval(() => {
      this.check().catch((error: unknown) =>
        this.options.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'data integrity check failed',
        ),
      );
    }, interval);
    this.#timer.unref();
  }

  /** Leaves the presence set at once (a backup need not wait for the lease) and writes the mark exact. */
  stop(): void {
    clearInterval(this.#timer);
    this.redis.zrem(presenceKey(this.keys), this.#member).catch(() => {});
    this.#writeMark(true);
  }

  #writeMark(exact: boolean): void {
    const seen = this.#seen;
    if (seen !== undefined) this.#mark?.keep({ id: seen.id, seq: seen.seq, epoch: seen.epoch }, exact);
  }

  /** The open incident this process knows of (readiness). */
  get incident(): Incident | undefined {
    return this.#seen?.incident;
  }

  /**
   * Checks now and returns the current approval epoch. Concurrent callers share one round trip, so a
   * burst of approvals costs one check.
   */
  async check(): Promise<number> {
    this.#running ??= this.#check().finally(() => {
      this.#running = undefined;
    });
    return (await this.#running).epoch;
  }

  async #open(): Promise<Seen> {
    const reply = (await OPEN.run(
      this.redis,
      2,
      ...this.#present(),
      newId(),
      String(this.options.now()),
    )) as string[];
    return parseSeen(reply);
  }

  async #check(): Promise<Seen> {
    // A check before `start` (a service used without the timer) begins from what is stored now.
    this.#seen ??= await this.#open();
    const seen = this.#seen;
    const reply = (await CHECK.run(this.redis, 2, ...this.#present())) as string[];
    if (reply.length === 0) {
      return this.#record(
        'lost',
        "Regdesk's data is gone from Redis (flushed, or restarted without its data)",
      );
    }
    const now = parseSeen(reply);
    if (now.id !== seen.id && now.incident === undefined) {
      return this.#record(
        'lost',
        'Redis holds other data than before (flushed and started again, or replaced)',
      );
    }
    if (now.id === seen.id && now.seq - 1 < seen.seq && now.incident === undefined) {
      return this.#record(
        'rolled_back',
        `Redis went back in time (restored from an older copy, or failed over to a replica without the latest writes): its check counter is ${now.seq - 1}, this process had seen ${seen.seq}`,
      );
    }
    this.#adopt(now);
    return now;
  }

  async #record(kind: Incident['kind'], detail: string): Promise<Seen> {
    const seen = this.#seen as Seen;
    const incident = { kind, detectedAt: this.options.now(), detail, epoch: 0 };
    const reply = (await RECORD.run(
      this.redis,
      1,
      this.#key,
      JSON.stringify(incident),
      newId(),
      String(seen.seq),
      String(this.options.now()),
      String(seen.epoch),
    )) as string[];
    const now = parseSeen(reply);
    if (reply[4] === 'recorded') {
      this.#seen = now;
      this.#writeMark(true);
      // The one error line of R39: only the process that recorded the incident writes it.
      this.options.logger.error(
        { incident: now.incident },
        `Regdesk data ${kind === 'lost' ? 'LOST' : 'ROLLED BACK'}: ${detail}. Approval requests made before now will not execute; recurring schedules are being re-created. Not ready until an operator checks the data and runs \`regdesk data accept\` (docs/data.md "Backup and restore").`,
      );
      await this.options
        .repair?.()
        .catch((error: unknown) =>
          this.options.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'recurring schedules not re-created',
          ),
        );
      return now;
    }
    this.#adopt(now);
    return now;
  }

  /** Takes over what the hash holds, and says when an incident opened or closed elsewhere. */
  #adopt(now: Seen): void {
    const before = this.#seen?.incident;
    if (before === undefined && now.incident !== undefined) {
      this.options.logger.warn(
        { incident: now.incident },
        'Regdesk data incident recorded by another process',
      );
      this.options.repair?.().catch(() => {});
    } else if (before !== undefined && now.incident === undefined) {
      this.options.logger.info({ incident: before }, 'Regdesk data incident closed by an operator');
    }
    this.#seen = now;
    this.#writeMark(false);
  }
}

/** `regdesk data accept`: the operator has checked the data; readiness returns, the epoch stays. */
export async function acceptData(redis: Redis, keys: KeySpace): Promise<Incident | undefined> {
  const key = integrityKey(keys);
  const raw = await redis.hget(key, 'incident');
  await redis.hdel(key, 'incident');
  return raw === null || raw === '' ? undefined : Incident.parse(JSON.parse(raw));
}

function newId(): string {
  return randomBytes(12).toString('hex');
}

function parseSeen(reply: string[]): Seen {
  const [id = '', seq = '0', epoch = '0', incident = ''] = reply;
  const parsed = incident === '' ? undefined : Incident.safeParse(JSON.parse(incident));
  return {
    id,
    seq: Number(seq),
    epoch: Number(epoch),
    incident: parsed?.success === true ? parsed.data : undefined,
  };
}

/** The approval epoch as stored now (0 before any incident). */
export async function currentEpoch(redis: Redis, keys: KeySpace): Promise<number> {
  return Number((await redis.hget(integrityKey(keys), 'epoch')) ?? 0);
}

/** The integrity hash: identity, check counter, approval epoch, open incident. */
export function integrityKey(keys: KeySpace): string {
  return keys.key('meta', 'integrity');
}
