import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import { currentLocale, inLanguage, type Locale } from '../../text/index.js';
import type { ApprovalStore } from '../approvals/store.js';
import type { AuditLog } from '../audit/service.js';
import type { WorkspaceKeys } from '../keys/service.js';
import type { Roles } from '../policy/permissions.js';
import { nextDigestAt } from '../watches/jobs.js';
import type { WatchService } from '../watches/service.js';
import { type AgentsDeps, agentsSection } from './agents.js';
import { type HomeData, homeView, onboardingView, restrictedView } from './blocks.js';

export interface HomeServiceDeps {
  workspaceKeys: WorkspaceKeys;
  approvalStore: ApprovalStore;
  audit: AuditLog;
  roles: Roles;
  /** One line per queued or running job of the workspace (executions, followers). */
  runningJobs: (workspace: WorkspaceRef) => Promise<string[]>;
  redis: Redis;
  keys: KeySpace;
  now: () => number;
  /** "Coming up", served certificates and CT, and the digest settings (features/watches). */
  watches?: Pick<WatchService, 'comingUp' | 'list' | 'settings'>;
  /** Home is re-published for many people at once (not only the one acting): each in their language. */
  languages: Pick<Languages, 'ofPerson'>;
  /** The agents each person signed in through /mcp (home/agents.ts). */
  agents?: AgentsDeps;
}

/** Slack's limit of blocks in a Home view: the agents' section is left out rather than pass it. */
const MAX_HOME_BLOCKS = 100;

/** Home views are re-published for people who looked at Home within this long … */
const VIEWER_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** … and at most this many per change (views.publish is Tier 4: 100+ a minute). */
const MAX_REPUBLISH = 50;

/**
 * What the App Home shows a person, and who has a Home open that a change makes stale. Viewers are
 * remembered per workspace in a sorted set (user → last visit), so any process can re-publish.
 */
export class HomeService {
  constructor(private readonly deps: HomeServiceDeps) {}

  /** What the agents' section and its Revoke button need (home/agents.ts), when agents are served. */
  get agents(): AgentsDeps | undefined {
    return this.deps.agents;
  }

  #viewers(workspace: WorkspaceRef): string {
    return this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'home', 'viewers');
  }

  /** Records a visit; true when it is the person's first one (they get the onboarding view). */
  async visited(workspace: WorkspaceRef, user: string): Promise<boolean> {
    const key = this.#viewers(workspace);
    const added = await this.deps.redis.zadd(key, this.deps.now(), user);
    await this.deps.redis.zremrangebyscore(key, 0, this.deps.now() - VIEWER_WINDOW_MS);
    return added === 1;
  }

  /** People whose Home may show stale approvals or jobs: recent viewers, newest first, capped. */
  async recentViewers(workspace: WorkspaceRef): Promise<string[]> {
    const since = this.deps.now() - VIEWER_WINDOW_MS;
    return this.deps.redis.zrevrangebyscore(
      this.#viewers(workspace),
      '+inf',
      since,
      'LIMIT',
      0,
      MAX_REPUBLISH,
    );
  }

  /**
   * Publishes the current Home to each person (best-effort: one failure does not stop the others),
   * each seeing what they may: the workspace's data is read once, and only if someone may see it.
   */
  async publish(
    client: WebClient,
    workspace: WorkspaceRef,
    users: readonly string[],
    logger: Logger,
  ): Promise<void> {
    // Read once per language: the data carries some lines already in words (running jobs).
    const data = new Map<Locale, Promise<HomeData>>();
    const shared = () => {
      const locale = currentLocale();
      const read = data.get(locale) ?? this.#data(workspace);
      data.set(locale, read);
      return read;
    };
    await Promise.all(
      [...new Set(users)].map(async (user) => {
        try {
          const locale = await this.deps.languages.ofPerson(client, workspace, user);
          const view = await inLanguage(locale, () => this.#viewFor(client, workspace, user, false, shared));
          await client.views.publish({ user_id: user, view });
        } catch (error) {
          logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'home publish failed');
        }
      }),
    );
  }

  /** After a change of pending approvals or jobs: the people it concerns and everyone with Home open. */
  async republish(
    client: WebClient,
    workspace: WorkspaceRef,
    concerned: readonly string[],
    logger: Logger,
  ): Promise<void> {
    await this.publish(client, workspace, [...concerned, ...(await this.recentViewers(workspace))], logger);
  }

  async view(client: WebClient, workspace: WorkspaceRef, user: string, firstVisit: boolean): Promise<View> {
    return this.#viewFor(client, workspace, user, firstVisit, () => this.#data(workspace));
  }

  /**
   * Guests, people from other organizations and deactivated accounts see what Regdesk is and that
   * they have no access, never pending approvals, running work or the audit (docs/requirements.md R33).
   */
  async #viewFor(
    client: WebClient,
    workspace: WorkspaceRef,
    user: string,
    firstVisit: boolean,
    data: () => Promise<HomeData>,
  ): Promise<View> {
    const access = await this.deps.roles.decide(client, workspace, user, 'view');
    if (!access.allowed) return restrictedView(access.reason);
    const view = firstVisit ? onboardingView(await data()) : homeView(await data());
    const agents =
      this.deps.agents === undefined ? [] : await agentsSection(this.deps.agents, client, workspace, user);
    const blocks = [...view.blocks, ...agents];
    return agents.length === 0 || blocks.length > MAX_HOME_BLOCKS ? view : { ...view, blocks };
  }

  async #data(workspace: WorkspaceRef): Promise<HomeData> {
    const { deps } = this;
    const [key, pending, running, recent, coming, settings, all] = await Promise.all([
      deps.workspaceKeys.status(workspace),
      deps.approvalStore.pending(workspace, 20),
      deps.runningJobs(workspace),
      deps.audit.latest(workspace, { limit: 15 }),
      deps.watches?.comingUp(workspace),
      deps.watches?.settings(workspace),
      deps.watches?.list(workspace),
    ]);
    const now = deps.now();
    const watch =
      coming === undefined
        ? undefined
        : {
            coming,
            settings,
            next: settings === undefined ? undefined : nextDigestAt(settings, now),
            now,
            all: all ?? [],
          };
    return { key, pending, running, recent, ...(watch === undefined ? {} : { watch }) };
  }
}
