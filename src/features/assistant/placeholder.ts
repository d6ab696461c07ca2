import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { LuaScript } from '../../shared/lua.js';
import type { Redis } from '../../shared/redis.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Audience } from './audience.js';
import { answeredPrivately } from './blocks.js';
import type { AssistantKeys } from './service.js';

/** As long as a question's outcome is kept (outcome.ts). */
const KEEP_SECONDS = 24 * 60 * 60;

/** What a placeholder shows: a waiting position, "looking it up…", "busy, retrying…". */
export interface PlaceholderView {
  text: string;
  blocks: KnownBlock[];
}

// One hash per question: `ts` once the placeholder is posted, `done` (the audience) once the outcome
// is delivered, `progress` the latest state shown while no placeholder exists yet. Each script is one
// atomic step, so whatever the order of posting, progress and delivery, in whatever processes, the
// placeholder is tidied exactly once and shows the latest state.

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
   * True once the outcome was posted in the thread: a placeholder not yet posted need not be. One
   * answered privately is still posted, then says so (`posted`), so the thread's readers know.
   */
  async answeredInThread(account: string, jobId: string): Promise<boolean> {
    return (await this.redis.hget(this.keys.placeholder(account, jobId), 'done')) === 'thread';
  }

  /**
   * Records a placeholder just posted: tidied at once when the outcome was delivered meanwhile, else
   * brought up to the latest progress shown while it waited for its turn.
   */
  async posted(
    place: { account: string; jobId: string; channel: string; user: string },
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
