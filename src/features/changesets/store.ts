import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import { z } from 'zod';
import { DnsRecord } from '../../registrar/index.js';
import { LuaScript } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields, workspaceId } from '../../shared/workspace.js';
import { RecordChange } from '../records/changes.js';

/** The apply job's data: ids only (docs/requirements.md R18). */
export interface ChangeSetJob {
  teamId: string;
  enterpriseId?: string;
  setId: string;
}

export const CHANGESETS_QUEUE = 'changesets';

/** A change set being applied, or applied: what was asked, the zone before, and how far it got. */
export const ChangeSetRun = z.lazy(() =>
  z.object({
    id: z.string(),
    domain: z.string(),
    steps: z.array(RecordChange),
    by: z.string(),
    /** The approval request's message: progress and the outcome are told in its thread. */
    thread: z.object({ channel: z.string(), ts: z.string() }).optional(),
    /** The change set this one reverts. */
    revertOf: z.string().optional(),
    /** The zone's records just before the first step (docs/requirements.md R47). */
    before: z.array(DnsRecord),
    /** Steps done so far, in order: 0 … done − 1 happened (or were found already done). */
    done: z.number().int().min(0),
    /** The id of the record each `add` step created, by step index (a revert deletes exactly these). */
    created: z.record(z.string(), z.number().int()),
    /** A cutover waits for `applyAt` (`scheduled`) until it is applied, or is cancelled before. */
    state: z.enum(['scheduled', 'applying', 'applied', 'stopped', 'cancelled']),
    /** A scheduled cutover: when it applies (ms), not before the lowered records' old TTLs have passed. */
    applyAt: z.number().optional(),
    /** The records lowered to TTL 60 ahead of a cutover, with the TTL each had (Cancel and Revert put it back). */
    lowered: z.record(z.string(), z.number().int()).default({}),
    /** Steps the zone's nameservers have been seen serving, in order (follow.ts). */
    confirmed: z.number().int().min(0).default(0),
    /** Why it stopped: the refusal or the registrar's answer (words for people, never a secret). */
    reason: z.string().optional(),
  }),
);
export type ChangeSetRun = z.infer<typeof ChangeSetRun>;

/**
 * A run as stored: its state first, so the script below can read and change it without decoding
 * the JSON (Redis's cjson would turn an empty list into an object).
 */
const encode = (run: ChangeSetRun) => {
  const { state, ...rest } = ChangeSetRun.parse(run);
  return JSON.stringify({ state, ...rest });
};

// A run's state moved only from the expected one. KEYS: the run; ARGV: from, to, TTL in seconds.
const TRANSITION = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local head = '{"state":"' .. ARGV[1] .. '",'
if string.sub(raw, 1, string.len(head)) ~= head then return false end
local moved = '{"state":"' .. ARGV[2] .. '",' .. string.sub(raw, string.len(head) + 1)
redis.call('SET', KEYS[1], moved, 'EX', ARGV[3])
return moved`);

/** Kept a quarter, like single record changes: long enough to revert a set that caused trouble later. */
const RUN_TTL_S = 90 * 86_400;

/**
 * Change sets in Redis and the queue that applies them. A run is written before its job is queued,
 * and its progress after every step, so a worker that dies resumes where the last one stopped.
 */
export class ChangeSets {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    /** Absent for a reader (the follower): it never starts or cancels a set. */
    private readonly queue?: Pick<Queue<ChangeSetJob>, 'add' | 'remove'>,
  ) {}

  #key(workspace: WorkspaceRef, id: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'changeset', id);
  }

  /**
   * Stores the run and queues its apply job (deterministic id: a repeated start is one job; set ids
   * are random, so unique across workspaces, and BullMQ ids may not hold the workspace's `:`).
   */
  async start(
    workspace: WorkspaceRef,
    run: Omit<ChangeSetRun, 'id' | 'done' | 'created' | 'state' | 'lowered' | 'confirmed'> & {
      lowered?: Record<string, number>;
    },
    /** A cutover: the job waits until then (a BullMQ delayed job survives restarts). */
    startAt?: number,
    now = Date.now(),
    id = `cs_${randomBytes(6).toString('hex')}`,
  ): Promise<ChangeSetRun> {
    const state = startAt === undefined ? 'applying' : 'scheduled';
    const stored = ChangeSetRun.parse({ ...run, id, done: 0, created: {}, state });
    // NX: an execution retried after a crash finds its run and does not start it over.
    const written = await this.redis.set(this.#key(workspace, id), encode(stored), 'EX', RUN_TTL_S, 'NX');
    const kept = written === null ? ((await this.get(workspace, id)) ?? stored) : stored;
    if (this.queue === undefined) throw new Error('a change set reader cannot start a change set');
    await this.queue.add(
      'apply',
      { ...workspaceFields(workspace), setId: id },
      {
        jobId: `apply-${id}`,
        attempts: 10,
        ...(startAt === undefined ? {} : { delay: Math.max(0, startAt - now) }),
        backoff: { type: 'exponential', delay: 5_000 },
      },
    );
    return kept;
  }

  async get(workspace: WorkspaceRef, id: string): Promise<ChangeSetRun | undefined> {
    if (!/^cs_[0-9a-f]{12}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.#key(workspace, id));
    if (raw === null) return undefined;
    const parsed = ChangeSetRun.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Moves a run from `from` to `to` atomically (a Cancel pressed as the cutover starts: one wins).
   * The run after the move, or undefined when it was not in `from`.
   */
  async transition(
    workspace: WorkspaceRef,
    id: string,
    from: ChangeSetRun['state'],
    to: ChangeSetRun['state'],
  ): Promise<ChangeSetRun | undefined> {
    const key = this.#key(workspace, id);
    const moved = await TRANSITION.run(this.redis, 1, key, from, to, String(RUN_TTL_S));
    if (typeof moved !== 'string') return undefined;
    const parsed = ChangeSetRun.safeParse(JSON.parse(moved));
    return parsed.success ? parsed.data : undefined;
  }

  /** Takes a scheduled cutover's job back (Cancel). */
  async unschedule(id: string): Promise<void> {
    await this.queue?.remove(`apply-${id}`);
  }

  /** Progress or the end, written whole (one writer at a time: the job's lock). */
  async save(workspace: WorkspaceRef, run: ChangeSetRun): Promise<void> {
    await this.redis.set(this.#key(workspace, run.id), encode(run), 'EX', RUN_TTL_S);
  }
}
