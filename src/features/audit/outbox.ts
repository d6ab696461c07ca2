import { LuaScript } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { type StoredAuditEntry, toEntry } from './entry.js';
import { outboxKeys, trailKeys } from './keys.js';

/** The sinks entries are delivered to, each through a consumer group of its own name. */
export type SinkName = 'webhook' | 'syslog';

/** One outbox entry as a sink's consumer group reads it. */
export interface OutboxItem {
  /** The outbox entry's own id: what the group acknowledges. */
  outboxId: string;
  workspace: WorkspaceRef;
  /** The audit entry (`id` its trail id); undefined when the outbox entry is gone (trimmed by hand). */
  entry: StoredAuditEntry | undefined;
}

/**
 * One consumer per group: a lease lets one process deliver at a time (delivery.ts), and a process that
 * takes over finds the entries its predecessor read but did not acknowledge under the same name.
 */
const CONSUMER = 'regdesk';

/**
 * Trims a workspace's outbox up to what every group has acknowledged: below each group's oldest pending
 * entry, else up to its last delivered one. KEYS: the outbox. No group yet: nothing is trimmed.
 */
const TRIM_ACKNOWLEDGED = new LuaScript(`
local groups = redis.call('XINFO', 'GROUPS', KEYS[1])
if #groups == 0 then return 0 end
local floorMs, floorSeq
local function lower(ms, seq)
  if floorMs == nil or ms < floorMs or (ms == floorMs and seq < floorSeq) then floorMs, floorSeq = ms, seq end
end
for _, group in ipairs(groups) do
  local info = {}
  for i = 1, #group, 2 do info[group[i]] = group[i + 1] end
  local id = info['last-delivered-id']
  local next = 1
  if info['pending'] > 0 then
    id = redis.call('XPENDING', KEYS[1], info['name'], '-', '+', 1)[1][1]
    next = 0
  end
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  lower(tonumber(ms), tonumber(seq) + next)
end
return redis.call('XTRIM', KEYS[1], 'MINID', string.format('%.0f-%.0f', floorMs, floorSeq))`);

const FORGET_UNCHANGED = new LuaScript(
  `if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('ZREM', KEYS[1], ARGV[1]) end return 0`,
);

/** A listed workspace that has had no outbox for this long is dropped from the list. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/** `-:T123` / `E1:T123` (workspaceId) back to the workspace. */
export function workspaceOf(id: string): WorkspaceRef {
  const [enterprise = '-', team = ''] = id.split(':');
  return enterprise === '-' ? { teamId: team } : { teamId: team, enterpriseId: enterprise };
}

/**
 * The outboxes the sinks are fed from (docs/requirements.md R52). Each workspace has its own, under its
 * hash tag: the append script writes the entry there in the same atomic step as the trail, which one
 * global stream would not allow on Redis Cluster (a script's keys share a slot). A sorted set lists
 * the workspaces that have one, scored by the time of their latest entry, so the deliverer looks at
 * recently written ones often and at all of them now and then.
 */
export class AuditOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    readonly sinks: readonly SinkName[],
  ) {}

  #outbox(workspace: string): string {
    return trailKeys(this.keys, workspace).outbox;
  }

  /** Listed workspaces whose latest entry is from `since` (ms) or later; all of them without. */
  async workspaces(since?: number): Promise<Array<{ workspace: string; touched: string }>> {
    const index = outboxKeys(this.keys).workspaces;
    const flat =
      since === undefined
        ? await this.redis.zrange(index, '0', '-1', 'WITHSCORES')
        : await this.redis.zrangebyscore(index, String(since), '+inf', 'WITHSCORES');
    const out: Array<{ workspace: string; touched: string }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      out.push({ workspace: flat[i] ?? '', touched: flat[i + 1] ?? '' });
    return out;
  }

  /**
   * Gives every configured sink its group on the workspace's outbox (from its first entry: a new sink
   * gets what is still there) and removes the groups of sinks no longer configured, which would hold
   * the trim back for ever. False when the workspace has no outbox.
   */
  async prepare(workspace: string, touched: string): Promise<boolean> {
    const outbox = this.#outbox(workspace);
    if ((await this.redis.exists(outbox)) === 0) {
      if (Date.now() - Number(touched) > FORGET_AFTER_MS)
        await FORGET_UNCHANGED.run(this.redis, 1, outboxKeys(this.keys).workspaces, workspace, touched);
      return false;
    }
    const groups = (await this.#groups(outbox)).map((group) => group.name);
    for (const sink of this.sinks) {
      if (groups.includes(sink)) continue;
      try {
        await this.redis.xgroup('CREATE', outbox, sink, '0');
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
      }
    }
    for (const name of groups)
      if (!(this.sinks as readonly string[]).includes(name)) await this.redis.xgroup('DESTROY', outbox, name);
    return true;
  }

  /** Up to `count` entries for `sink`: those it read before and did not acknowledge (`0`), or new ones (`>`). */
  async read(workspace: string, sink: SinkName, from: '0' | '>', count: number): Promise<OutboxItem[]> {
    const reply = (await this.redis.xreadgroup(
      'GROUP',
      sink,
      CONSUMER,
      'COUNT',
      count,
      'STREAMS',
      this.#outbox(workspace),
      from,
    )) as Array<[string, Array<[string, string[] | null]>]> | null;
    const ref = workspaceOf(workspace);
    return (reply?.[0]?.[1] ?? []).map(([outboxId, flat]) => ({
      outboxId,
      workspace: ref,
      entry: flat === null ? undefined : outboxEntry(flat),
    }));
  }

  async ack(workspace: string, sink: SinkName, outboxId: string): Promise<void> {
    await this.redis.xack(this.#outbox(workspace), sink, outboxId);
  }

  async trim(workspace: string): Promise<void> {
    await TRIM_ACKNOWLEDGED.run(this.redis, 1, this.#outbox(workspace));
  }

  /**
   * Entries each sink has not yet had, over every workspace: its group's lag (Redis 7) and pending
   * entries; the outbox's length where the lag is unknown (Redis 6.2, or no group yet), an upper bound.
   */
  async backlog(): Promise<Map<SinkName, number>> {
    const totals = new Map<SinkName, number>(this.sinks.map((sink) => [sink, 0]));
    const listed = await this.workspaces();
    await Promise.all(
      listed.map(async ({ workspace }) => {
        const outbox = this.#outbox(workspace);
        const length = await this.redis.xlen(outbox);
        if (length === 0) return;
        const groups = await this.#groups(outbox);
        for (const sink of this.sinks) {
          const group = groups.find((candidate) => candidate.name === sink);
          const behind = group?.lag === undefined ? length : Math.min(length, group.lag + group.pending);
          totals.set(sink, (totals.get(sink) ?? 0) + behind);
        }
      }),
    );
    return totals;
  }

  async #groups(outbox: string): Promise<Array<{ name: string; pending: number; lag?: number }>> {
    let reply: unknown[];
    try {
      reply = (await this.redis.xinfo('GROUPS', outbox)) as unknown[];
    } catch (error) {
      // Gone since it was looked at (an expired trail): no groups.
      if (error instanceof Error && /no such key/i.test(error.message)) return [];
      throw error;
    }
    return reply.map((group) => {
      const fields = new Map<string, unknown>();
      const flat = group as unknown[];
      for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), flat[i + 1]);
      const lag = fields.get('lag');
      return {
        name: String(fields.get('name')),
        pending: Number(fields.get('pending') ?? 0),
        ...(typeof lag === 'number' ? { lag } : {}),
      };
    });
  }
}

/** An outbox entry's fields: `ws` and the trail's `id`, then the entry's fields as the trail holds them. */
function outboxEntry(flat: readonly string[]): StoredAuditEntry {
  let id = '';
  const rest: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [name = '', value = ''] = [flat[i], flat[i + 1]];
    if (name === 'id') id = value;
    else if (name !== 'ws') rest.push(name, value);
  }
  return toEntry(id, rest);
}
