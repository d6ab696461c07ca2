import { createHash } from 'node:crypto';
import type { ChatPostMessageArguments, ChatUpdateArguments, WebClient } from '@slack/web-api';
import type { Limiter, QuotaWindow } from '../shared/limiter.js';
import type { Logger } from '../shared/logger.js';
import { LuaScript } from '../shared/lua.js';
import type { KeySpace, Redis } from '../shared/redis.js';

/**
 * Slack's posting rule: about one message per second per channel (docs/requirements.md R7). It is
 * about posting only; edits have no per-channel rule.
 */
const PER_CHANNEL = { max: 1, windowMs: 1_000 };
/**
 * `chat.update` is a Tier 3 method: about 50 calls a minute per workspace (and per method), whatever
 * the channel. Progress edits may use 40 of them, so final edits always find room.
 */
const EDITS = { max: 50, windowMs: 60_000 };
/** The other Tier 3 methods Regdesk calls often, each with its own budget of the same size. */
export type Tier3Method = 'reactions.add' | 'reactions.remove' | 'chat.delete';
const PROGRESS_EDITS = 40;
/** A final post or edit waits at most this long, then goes anyway: late beats lost. */
const MAX_WAIT_MS = 30_000;
/** A progress edit that cannot go within this long is dropped: a later state will replace it. */
const MAX_PROGRESS_WAIT_MS = 20_000;
/** How long a message's state version is remembered (longer than any wait above). */
const VERSION_TTL_MS = 120_000;

/**
 * `final`: answers, approval outcomes, follow-up results — never dropped, always first in line.
 * `progress`: placeholders and waiting positions — behind every final of the same budget; progress
 * edits of one message are coalesced (only its latest state is sent) and the caller does not wait.
 */
export type Urgency = 'final' | 'progress';

export interface PaceOptions {
  urgency?: Urgency;
  /**
   * A progress post asks this once its turn has come: true when it is no longer wanted (what it
   * announces is over), and it is not sent (`post` answers ''). Its turn is spent either way.
   */
  skipIf?: () => Promise<boolean>;
}

interface Waiter {
  urgency: Urgency;
  seq: number;
  deadline: number;
  windows: QuotaWindow[];
  /** For progress posts: the channel's announced finals, which go first across processes. */
  yieldTo?: string | undefined;
  resolve(granted: boolean): void;
}

/** Clears lapsed announcements (their process died) and counts the rest. */
const FINALS_WAITING = new LuaScript(`redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZCARD', KEYS[1])`);
/** How often a progress post looks again while finals of its channel wait. */
const YIELD_POLL_MS = 100;

interface PendingEdit {
  client: WebClient;
  args: ChatUpdateArguments;
  version: number;
}

/**
 * Posts and edits paced by Slack's own rules, across all processes (budgets live in Redis): posts per
 * channel, edits per workspace and method. Within a process, finals go before progress; across
 * processes, progress edits leave a reserve of the edit budget to finals, and a message's state
 * version in Redis keeps a stale progress edit (queued before a newer state or a final one, in any
 * process) from being sent at all.
 */
export class ChannelPoster {
  readonly #lines = new Map<string, Waiter[]>();
  readonly #pendingEdits = new Map<string, PendingEdit>();
  /** Wakes a line's sleeping head early. */
  readonly #wakers = new Map<string, () => void>();
  #seq = 0;

  constructor(
    private readonly limiter: Limiter,
    private readonly keys: KeySpace,
    private readonly redis?: Redis,
    private readonly logger?: Logger,
  ) {}

  async post(
    client: WebClient,
    args: ChatPostMessageArguments & { channel: string },
    options: PaceOptions = {},
  ): Promise<string> {
    const window = { key: this.keys.key(`ch:${args.channel}`, 'pace'), ...PER_CHANNEL };
    const urgency = options.urgency ?? 'final';
    const finals = this.keys.key(`ch:${args.channel}`, 'finals');
    if (urgency === 'progress') {
      await this.#wait(window.key, [window], urgency, MAX_WAIT_MS, finals);
      if ((await options.skipIf?.()) === true) return '';
      return this.#send(client, args, window);
    }
    // Announced in Redis while it waits: a progress post in any process lets it go first.
    const token = `${process.pid}-${++this.#seq}`;
    await this.redis?.zadd(finals, Date.now() + MAX_WAIT_MS, token).catch(() => undefined);
    try {
      await this.#wait(window.key, [window], urgency, MAX_WAIT_MS);
    } finally {
      await this.redis?.zrem(finals, token).catch(() => undefined);
    }
    return this.#send(client, args, window);
  }

  /**
   * Slack counts a post when it arrives, somewhere before its answer: the channel's next post then
   * waits a whole window from the answer (docs/requirements.md R7, R44), so two posts can never
   * arrive closer than that, however slow the way there was for the first.
   */
  async #send(client: WebClient, args: ChatPostMessageArguments, window: QuotaWindow): Promise<string> {
    try {
      return (await client.chat.postMessage(args)).ts ?? '';
    } finally {
      await this.limiter.record([window]).catch(() => undefined);
    }
  }

  /**
   * A final edit waits for its turn and resolves once Slack has it (errors are the caller's). A
   * progress edit resolves at once: it is sent later, coalesced, and a failure is only logged (a
   * deleted placeholder must not fail the work it reports on).
   */
  async update(client: WebClient, args: ChatUpdateArguments, options: PaceOptions = {}): Promise<void> {
    const message = `${args.channel}:${args.ts}`;
    const version = await this.#bump(message);
    if (options.urgency !== 'progress') {
      this.#pendingEdits.delete(message);
      await this.#wait(this.#editKey(client), this.#editWindows(client, 'final'), 'final', MAX_WAIT_MS);
      await client.chat.update(args);
      return;
    }
    const queued = this.#pendingEdits.get(message);
    this.#pendingEdits.set(message, { client, args, version });
    if (queued !== undefined) return; // its turn will send this newer state
    void this.#sendProgress(message, client);
  }

  async #sendProgress(message: string, client: WebClient): Promise<void> {
    const granted = await this.#wait(
      this.#editKey(client),
      this.#editWindows(client, 'progress'),
      'progress',
      MAX_PROGRESS_WAIT_MS,
    );
    const edit = this.#pendingEdits.get(message);
    this.#pendingEdits.delete(message);
    if (edit === undefined || !granted) return;
    try {
      if ((await this.#latest(message)) > edit.version) return; // a newer state went elsewhere
      await edit.client.chat.update(edit.args);
    } catch (error) {
      this.logger?.info(
        { channel: edit.args.channel, err: error instanceof Error ? error.message : String(error) },
        'progress edit failed',
      );
    }
  }

  /**
   * A Tier 3 call besides edits (a reaction, deleting a placeholder), within the workspace's budget
   * for its method, in flight until Slack answers (limiter.ts `slotWithin`, R44). `progress` calls
   * only decorate: skipped when the budget is spent, since Slack would answer 429 and the client
   * would sit out Retry-After on the question's path. `final` ones wait for room, then go anyway.
   */
  async tier3(
    client: WebClient,
    method: Tier3Method,
    call: () => Promise<unknown>,
    urgency: Urgency = 'final',
  ): Promise<void> {
    const windows = [{ key: this.#budgetKey(client, method), ...EDITS }];
    const slot =
      urgency === 'progress'
        ? await this.limiter.take(windows).then((taken) => (taken.ok ? taken : undefined))
        : await this.limiter.slotWithin(windows, MAX_WAIT_MS);
    if (slot === undefined && urgency === 'progress') return;
    try {
      await call();
    } finally {
      await slot?.settle().catch(() => undefined);
    }
  }

  /** One budget per workspace and method: a bot token belongs to one installation, so its hash names it. */
  #budgetKey(client: WebClient, method: Tier3Method | 'chat.update'): string {
    const token = createHash('sha256')
      .update(client.token ?? '')
      .digest('hex')
      .slice(0, 16);
    return this.keys.key(`slack:${token}`, 'budget', method);
  }

  #editKey(client: WebClient): string {
    return this.#budgetKey(client, 'chat.update');
  }

  #editWindows(client: WebClient, urgency: Urgency): QuotaWindow[] {
    const key = this.#editKey(client);
    return [{ key, windowMs: EDITS.windowMs, max: urgency === 'final' ? EDITS.max : PROGRESS_EDITS }];
  }

  async #finalsWaiting(key: string): Promise<number> {
    if (this.redis === undefined) return 0;
    return Number(await FINALS_WAITING.run(this.redis, 1, key, String(Date.now())));
  }

  /** A message's state version, raised by every edit queued for it in any process. */
  async #bump(message: string): Promise<number> {
    if (this.redis === undefined) return ++this.#seq;
    const key = this.keys.key(`msg:${message}`, 'version');
    const replies = await this.redis.multi().incr(key).pexpire(key, VERSION_TTL_MS).exec();
    return Number(replies?.[0]?.[1] ?? 0);
  }

  async #latest(message: string): Promise<number> {
    if (this.redis === undefined) return 0;
    return Number((await this.redis.get(this.keys.key(`msg:${message}`, 'version'))) ?? 0);
  }

  /**
   * Waits in this process's line for `key` (finals first, then arrival order); only the head asks
   * Redis, so a process makes one request per turn rather than one per waiter. False when the
   * deadline passed first (a final then goes anyway, as before: late beats lost).
   */
  #wait(
    key: string,
    windows: QuotaWindow[],
    urgency: Urgency,
    maxWaitMs: number,
    yieldTo?: string,
  ): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const line = this.#lines.get(key);
      const deadline = Date.now() + maxWaitMs;
      const waiter = { urgency, seq: ++this.#seq, deadline, windows, yieldTo, resolve };
      if (line !== undefined) {
        line.push(waiter);
        line.sort(byTurn);
        if (urgency === 'final') this.#wakers.get(key)?.();
        return;
      }
      this.#lines.set(key, [waiter]);
      void this.#pump(key);
    });
  }

  async #pump(key: string): Promise<void> {
    const line = this.#lines.get(key) ?? [];
    while (line.length > 0) {
      const head = line[0] as Waiter;
      let wait: number;
      try {
        if (head.yieldTo !== undefined && (await this.#finalsWaiting(head.yieldTo)) > 0) {
          wait = YIELD_POLL_MS;
        } else {
          const result = await this.limiter.acquire(head.windows);
          wait = result.ok ? 0 : result.retryAfterMs;
        }
      } catch {
        wait = 0; // Redis is down: the Web API client's own 429 handling is the fallback
      }
      if (wait === 0 || Date.now() + wait > head.deadline) {
        line.splice(line.indexOf(head), 1); // a final may have been put before it meanwhile
        head.resolve(wait === 0 || head.urgency === 'final');
        continue;
      }
      // Sleeps until the budget has room, or until a final joins the line (it may fit a reserve
      // that the waiting progress edit may not use).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait + Math.random() * 10);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wakers.set(key, done);
      });
      this.#wakers.delete(key);
    }
    this.#lines.delete(key);
  }
}

function byTurn(a: Waiter, b: Waiter): number {
  if (a.urgency !== b.urgency) return a.urgency === 'final' ? -1 : 1;
  return a.seq - b.seq;
}
