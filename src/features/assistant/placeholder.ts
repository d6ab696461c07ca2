import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { LuaScript } from '../../shared/lua.js';
import type { Redis } from '../../shared/redis.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Audience } from './audience.js';
import { answeredPrivately } from './blocks.js';
import type { AssistantKeys } from './keys.js';

/** As long as a question's outcome is kept (outcome.ts). */
const KEEP_SECONDS = 24 * 60 * 60;
/**
 * A run waiting to post the placeholder holds this lease: longer than a progress post waits for its
 * turn (30 s, poster.ts), so a live poster is not doubled; if its process dies, a later run posts.
 */
const OPENING_LEASE_MS = 45_000;

/** What a placeholder shows: a waiting position, "looking it up…", "busy, retrying…". */
export interface PlaceholderView {
  text: string;
  blocks: KnownBlock[];
}

// One hash per question: `ts` once the placeholder is posted, `done` (the audience) once the outcome
// is delivered, `progress` the latest state shown while no placeholder exists yet, `opening` (until
// when, ms) while a run waits to post it and `sent` once one did. Each script is one atomic step, so
// whatever the order of posting, progress and delivery, in whatever processes, the placeholder is
// posted at most once, tidied exactly once, and shows the latest state.

/** A run would post it: → 1 when this one is to (the lease is its), else 0 (posted, under way, unwanted). */
const OPEN = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], 'ts') == 1 or redis.call('HEXISTS', KEYS[1], 'sent') == 1
  or redis.call('HGET', KEYS[1], 'done') == 'thread' then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(redis.call('HGET', KEYS[1], 'opening') or '0') > now then return 0 end
redis.call('HSET', KEYS[1], 'opening', now + tonumber(ARGV[1]))
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`);

/**
 * Its turn has come: → 0 to send it, marked sent for good (a re-run never sends another, whatever
 * became of this one), or 1 to skip it: sent already, or its answer is in the thread.
 */
const SEND = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], 'sent') == 1 or redis.call('HGET', KEYS[1], 'done') == 'thread' then
  return 1
end
redis.call('HSET', KEYS[1], 'sent', '1')
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 0`);

/** Posted: → ['done', audience] (tidy it now), else ['kept', pending progress or false]. */
const POSTED = new LuaScript(`
local done = redis.call('HGET', KEYS[1], 'done')
if done then return {'done', done} end
redis.call('HSET', KEYS[1], 'ts', ARGV[1])
local pending = redis.call('HGET', KEYS[1], 'progress')
redis.call('HDEL', KEYS[1], 'progress')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {'kept', pending}`);

/** New progress: → the placeholder's ts to edit, or false (kept for the placeholder, or delivered). */
const PROGRESS = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], 'done') == 1 then return false end
local ts = redis.call('HGET', KEYS[1], 'ts')
if ts then return ts end
redis.call('HSET', KEYS[1], 'progress', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return false`);

/** Delivered: → the ts of a posted placeholder to tidy, or false (none yet: it tidies itself). */
const CLOSE = new LuaScript(`
redis.call('HSET', KEYS[1], 'done', ARGV[1])
redis.call('HDEL', KEYS[1], 'progress')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return redis.call('HGET', KEYS[1], 'ts')`);

/** Where a question's placeholder goes, and whose question it is. */
export interface PlaceholderPlace {
  account: string;
  jobId: string;
  channel: string;
  threadTs: string;
  user: string;
}

/**
 * A question's placeholder reply ("waiting for the registrar's assistant…") and its delivery meet
 * here. A question is queued before its placeholder is posted, so its turn does not wait for a post
 * paced behind the channel's answers (issue #17; docs/architecture.md "The assistant's queue"). The
 * placeholder may therefore come after progress to show, or after the outcome itself: progress is
 * then kept for it, and a placeholder that comes too late is not posted, or tidied at once.
 */
export class Placeholders {
  constructor(
    private readonly redis: Redis,
    private readonly keys: AssistantKeys,
  ) {}

  /**
   * Posts the placeholder showing `view`, once across every run of the question: one run waits for
   * the channel's turn (a lease another run respects until it lapses), and once one has sent it none
   * sends another. Not posted when the outcome is in the thread first; one answered privately is
   * still posted, then says so (`posted`), so the thread's readers know.
   */
  async open(
    place: PlaceholderPlace,
    view: () => Promise<PlaceholderView>,
    client: WebClient,
    poster: ChannelPoster,
  ): Promise<void> {
    const key = this.keys.placeholder(place.account, place.jobId);
    const mine = await OPEN.run(this.redis, 1, key, String(OPENING_LEASE_MS), String(KEEP_SECONDS));
    if (Number(mine) !== 1) return;
    const ts = await poster.post(
      client,
      { channel: place.channel, thread_ts: place.threadTs, ...(await view()) },
      {
        urgency: 'progress',
        skipIf: async () => Number(await SEND.run(this.redis, 1, key, String(KEEP_SECONDS))) === 1,
      },
    );
    if (ts !== '') await this.posted(place, ts, client, poster);
  }

  /**
   * Records a placeholder just posted: tidied at once when the outcome was delivered meanwhile, else
   * brought up to the latest progress shown while it waited for its turn.
   */
  async posted(
    place: Omit<PlaceholderPlace, 'threadTs'>,
    ts: string,
    client: WebClient,
    poster: ChannelPoster,
  ): Promise<void> {
    const [state, detail] = (await POSTED.run(
      this.redis,
      1,
      this.keys.placeholder(place.account, place.jobId),
      ts,
      String(KEEP_SECONDS),
    )) as [string, string | null];
    if (state === 'done')
      return tidyPlaceholder(client, poster, place.channel, ts, detail as Audience, place.user);
    if (typeof detail === 'string') {
      const view = JSON.parse(detail) as PlaceholderView;
      await poster.update(client, { channel: place.channel, ts, ...view }, { urgency: 'progress' });
    }
  }

  /** The placeholder's ts to edit with `view`; undefined when it is not posted yet (it will show `view`) or done. */
  async progress(account: string, jobId: string, view: PlaceholderView): Promise<string | undefined> {
    const ts = await PROGRESS.run(
      this.redis,
      1,
      this.keys.placeholder(account, jobId),
      JSON.stringify(view),
      String(KEEP_SECONDS),
    );
    return typeof ts === 'string' ? ts : undefined;
  }

  /** The outcome is delivered: the placeholder to tidy now, if one was posted (a later one tidies itself). */
  async close(account: string, jobId: string, audience: Audience): Promise<string | undefined> {
    const ts = await CLOSE.run(
      this.redis,
      1,
      this.keys.placeholder(account, jobId),
      audience,
      String(KEEP_SECONDS),
    );
    return typeof ts === 'string' ? ts : undefined;
  }
}

/**
 * Best-effort: the placeholder goes (the thread reply replaces it), or, when the asker was answered
 * privately, says so, so nobody in the thread waits for it.
 */
export async function tidyPlaceholder(
  client: WebClient,
  poster: ChannelPoster,
  channel: string,
  ts: string,
  audience: Audience,
  user: string,
): Promise<void> {
  const ignore = () => undefined;
  if (audience === 'asker')
    await poster.update(client, { channel, ts, ...answeredPrivately(user) }).catch(ignore);
  else await poster.tier3(client, 'chat.delete', () => client.chat.delete({ channel, ts })).catch(ignore);
}
