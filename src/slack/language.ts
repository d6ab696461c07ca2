import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../shared/logger.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import {
  type WorkspaceFields,
  type WorkspaceRef,
  workspaceFields,
  workspaceId,
} from '../shared/workspace.js';
import { inLanguage, type Locale, localeOfSlack } from '../text/index.js';
import type { SlackDirectory } from './users.js';
import { workspaceOf } from './workspace.js';

/** The workspace's choice in `/domain policy`: each person their own (`auto`), or one for everyone. */
export type LanguageSetting = 'auto' | Locale;

/**
 * A person's Slack locale changes rarely: a quarter of an hour keeps `users.info` off almost every
 * request (the directory's own answer lives a minute, for permissions) and still follows a change in
 * Slack's preferences soon.
 */
const PERSON_LOCALE_TTL_SECONDS = 15 * 60;

/**
 * How long a request waits for a first `users.info` before it is answered in the workspace's
 * language: slash commands and modal submissions must be acknowledged within 3 s, and one slow
 * lookup must not eat that. The lookup goes on and is kept for the next request.
 */
const FIRST_LOOKUP_BUDGET_MS = 500;

/**
 * Every Slack request asks for a language before its listener runs, so the answers are also kept in
 * the process (lru-cache), sparing the acknowledgement two Redis round trips under load: a person's
 * locale for a minute, the workspace's setting for five seconds (a save in this process clears it at
 * once, `settingChanged`; other processes follow within those seconds). Bounded by count too, so the
 * memory does not grow with the workspaces heard from (issue #49): lru-cache sets aside room for
 * `max` entries at once, and more people than this within a minute (or workspaces within five
 * seconds) are read from Redis, one GET each.
 */
const PERSON_MEMORY = { max: 2_000, ttl: 60_000 };
const SETTING_MEMORY = { max: 500, ttl: 5_000 };

/**
 * Which language Regdesk speaks (contract §3 "Language", docs/requirements.md R48): to a person,
 * their Slack locale (German for `de-*`, else English) unless the workspace fixes one language; in
 * channels (approval requests, alerts, digests, follow-up reports), the workspace's language, which
 * is English while each person has their own.
 */
export class Languages {
  readonly #people = new LRUCache<string, Locale>(PERSON_MEMORY);
  readonly #settings = new LRUCache<string, LanguageSetting>(SETTING_MEMORY);
  readonly #lookups = new Map<string, Promise<Locale | undefined>>();

  constructor(
    private readonly setting: (workspace: WorkspaceRef) => Promise<LanguageSetting>,
    private readonly directory: SlackDirectory,
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly logger: Logger,
  ) {}

  /** The language of messages in the workspace's channels. */
  async ofWorkspace(workspace: WorkspaceRef): Promise<Locale> {
    const setting = await this.#setting(workspace);
    return setting === 'auto' ? 'en' : setting;
  }

  /**
   * The language `user` is answered in. `client` may be given as a function: it is then made only
   * when Slack must be asked (a request's client, issue #49).
   */
  async ofPerson(
    client: WebClient | (() => WebClient),
    workspace: WorkspaceRef,
    user: string,
  ): Promise<Locale> {
    const setting = await this.#setting(workspace);
    if (setting !== 'auto') return setting;
    const key = this.#localeKey(workspace, user);
    const remembered = this.#people.get(key);
    if (remembered !== undefined) return remembered;
    const known = await this.redis.get(key).catch(() => null);
    if (known === 'en' || known === 'de') {
      this.#people.set(key, known);
      return known;
    }
    const lookup = this.#lookUp(client, workspace, user, key);
    const timer = new Promise<undefined>((resolve) => {
      setTimeout(() => resolve(undefined), FIRST_LOOKUP_BUDGET_MS).unref();
    });
    return (await Promise.race([lookup, timer])) ?? 'en';
  }

  /**
   * One `users.info` per person at a time: requests that come while it is out (a slow Slack) share
   * it rather than ask again. Undefined when Slack cannot say.
   */
  #lookUp(
    client: WebClient | (() => WebClient),
    workspace: WorkspaceRef,
    user: string,
    key: string,
  ): Promise<Locale | undefined> {
    const pending = this.#lookups.get(key);
    if (pending !== undefined) return pending;
    const lookup = this.directory
      .user(typeof client === 'function' ? client() : client, workspace, user)
      .then(
        async (profile) => {
          const locale = localeOfSlack(profile.locale);
          this.#people.set(key, locale);
          await this.redis.set(key, locale, 'EX', PERSON_LOCALE_TTL_SECONDS);
          return locale;
        },
        (error: unknown) => {
          this.logger.warn(
            {
              workspace: workspaceId(workspace),
              err: error instanceof Error ? error.message : String(error),
            },
            "users.info failed: answering in the workspace's language",
          );
          return undefined;
        },
      )
      .finally(() => this.#lookups.delete(key));
    this.#lookups.set(key, lookup);
    return lookup;
  }

  /** The workspace's setting was saved here: the next request reads it. */
  settingChanged(workspace: WorkspaceRef): void {
    this.#settings.delete(workspaceId(workspace));
  }

  async #setting(workspace: WorkspaceRef): Promise<LanguageSetting> {
    const id = workspaceId(workspace);
    const remembered = this.#settings.get(id);
    if (remembered !== undefined) return remembered;
    // Unreadable (Redis down, a policy that fails closed): people keep their own language.
    const setting = await this.setting(workspace).catch(() => 'auto' as const);
    this.#settings.set(id, setting);
    return setting;
  }

  /** Drops what is known of a person's language: their next request asks Slack again. */
  async forget(workspace: WorkspaceRef, user: string): Promise<void> {
    this.#people.delete(this.#localeKey(workspace, user));
    await this.redis.del(this.#localeKey(workspace, user));
    await this.directory.forget(workspace, user);
  }

  #localeKey(workspace: WorkspaceRef, user: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'slack-locale', user);
  }

  /** Runs `work` in the workspace's channel language. */
  async inWorkspaceLanguage<T>(workspace: WorkspaceRef, work: () => Promise<T>): Promise<T> {
    return inLanguage(await this.ofWorkspace(workspace), work);
  }

  /** A queue's processor whose messages are for channels: each job in its workspace's language. */
  speakingForWorkspaces<Job extends { data: WorkspaceFields }, Result>(
    processor: (job: Job, token?: string) => Promise<Result>,
  ): (job: Job, token?: string) => Promise<Result> {
    return (job, token) => this.inWorkspaceLanguage(workspaceFields(job.data), () => processor(job, token));
  }

  /**
   * Bolt middleware: everything a listener says to the person acting is in their language; where a
   * request names no person (some events), in the workspace's.
   */
  middleware(clientOf: (args: AllMiddlewareArgs) => WebClient): Middleware<AnyMiddlewareArgs> {
    return async (args) => {
      const locale = await this.#localeOf(args, () => clientOf(args)).catch(() => 'en' as const);
      await inLanguage(locale, () => args.next());
    };
  }

  async #localeOf(args: AnyMiddlewareArgs, client: () => WebClient): Promise<Locale> {
    const body = args.body as {
      user_id?: unknown;
      user?: { id?: unknown } | null;
      event?: { user?: unknown; assistant_thread?: { user_id?: unknown } };
    };
    const workspace = workspaceOf(body);
    // Slash commands name `user_id`, interactions `user.id`, events `event.user` (assistant threads
    // `event.assistant_thread.user_id`).
    const user = [body.user_id, body.user?.id, body.event?.user, body.event?.assistant_thread?.user_id].find(
      (id): id is string => typeof id === 'string' && id !== '',
    );
    if (user === undefined) return this.ofWorkspace(workspace);
    return this.ofPerson(client, workspace, user);
  }
}
