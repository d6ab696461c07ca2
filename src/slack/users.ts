import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { KeySpace, Redis } from '../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../shared/workspace.js';

/** What Regdesk needs to know of a Slack user to decide what they may do and how to show things. */
export const SlackUserProfile = z.lazy(() =>
  z.object({
    id: z.string(),
    teamId: z.string().optional(),
    isAdmin: z.boolean(),
    /** Multi- or single-channel guest (`is_restricted`, `is_ultra_restricted`). */
    isGuest: z.boolean(),
    isDeleted: z.boolean(),
    isBot: z.boolean(),
    /** A user of another organisation seen through a shared channel (Slack Connect). */
    isStranger: z.boolean().default(false),
    locale: z.string().optional(),
    tz: z.string().optional(),
  }),
);
export type SlackUserProfile = z.infer<typeof SlackUserProfile>;

const GroupMembers = z.lazy(() => z.array(z.string()));

/**
 * The workspace's admins and owners, from `users.list` (Tier 2: about 20 calls a minute, one page of
 * 200 each), cached for ten minutes across processes: a workspace of 10 000 members costs 50 pages,
 * which must not run on every approval request.
 */
const ADMINS_TTL_SECONDS = 600;
const USERS_PAGE = 200;

/**
 * Slack's `users.info` and user-group membership, cached briefly in Redis so every process shares
 * the answers: a permission check on each press or command would otherwise cost a Tier 4 / Tier 2
 * call each time. 60 s keeps a demoted admin or a removed approver effective within a minute.
 */
export const DIRECTORY_TTL_SECONDS = 60;

export class SlackDirectory {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, kind: string, id: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, kind, id);
  }

  async user(client: WebClient, workspace: WorkspaceRef, userId: string): Promise<SlackUserProfile> {
    return this.#cached(this.#key(workspace, 'slack-user', userId), SlackUserProfile, async () => {
      const { user } = await client.users.info({ user: userId, include_locale: true });
      if (user === undefined) throw new Error('users.info returned no user');
      return {
        id: userId,
        ...(user.team_id === undefined ? {} : { teamId: user.team_id }),
        isAdmin: user.is_admin === true || user.is_owner === true || user.is_primary_owner === true,
        isGuest: user.is_restricted === true || user.is_ultra_restricted === true,
        isDeleted: user.deleted === true,
        isBot: user.is_bot === true,
        isStranger: (user as { is_stranger?: boolean }).is_stranger === true,
        ...(user.locale === undefined ? {} : { locale: user.locale }),
        ...(user.tz === undefined ? {} : { tz: user.tz }),
      };
    });
  }

  /** Forgets a user's cached profile: the next look asks Slack. */
  async forget(workspace: WorkspaceRef, userId: string): Promise<void> {
    await this.redis.del(this.#key(workspace, 'slack-user', userId));
  }

  /** Admins and owners who can act: active, full members of this team, people rather than bots. */
  async admins(client: WebClient, workspace: WorkspaceRef): Promise<string[]> {
    return this.#cached(
      this.#key(workspace, 'slack-admins', 'all'),
      GroupMembers,
      async () => {
        const found: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.users.list({
            limit: USERS_PAGE,
            ...(cursor === undefined ? {} : { cursor }),
          });
          for (const member of page.members ?? []) {
            const admin =
              member.is_admin === true || member.is_owner === true || member.is_primary_owner === true;
            const person = member.deleted !== true && member.is_bot !== true && member.id !== 'USLACKBOT';
            const full = member.is_restricted !== true && member.is_ultra_restricted !== true;
            const ours = member.team_id === undefined || member.team_id === workspace.teamId;
            if (admin && person && full && ours && member.id !== undefined) found.push(member.id);
          }
          cursor = page.response_metadata?.next_cursor || undefined;
        } while (cursor !== undefined);
        return found;
      },
      ADMINS_TTL_SECONDS,
    );
  }

  async groupMembers(client: WebClient, workspace: WorkspaceRef, groupId: string): Promise<string[]> {
    return this.#cached(this.#key(workspace, 'slack-group', groupId), GroupMembers, async () => {
      const { users } = await client.usergroups.users.list({ usergroup: groupId });
      return users ?? [];
    });
  }

  async #cached<T>(
    key: string,
    schema: z.ZodType<T>,
    load: () => Promise<T>,
    ttlSeconds = DIRECTORY_TTL_SECONDS,
  ): Promise<T> {
    const raw = await this.redis.get(key);
    if (raw !== null) {
      const parsed = schema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    }
    const fresh = await load();
    await this.redis.set(key, JSON.stringify(fresh), 'EX', ttlSeconds);
    return fresh;
  }
}
