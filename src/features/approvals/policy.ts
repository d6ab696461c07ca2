import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { SlackDirectory, SlackUserProfile } from '../../slack/users.js';

/** A workspace's rules for sensitive actions (`/domain policy`). Stored as JSON; holds no secrets. */
export const Policy = z.object({
  /** Users who may approve; with `approverGroup`, members of that user group too. */
  approvers: z.array(z.string()).default([]),
  approverGroup: z.string().optional(),
  /** Approvals needed before a request executes. */
  needed: z.number().int().min(1).max(5).default(1),
  expiryHours: z.number().int().min(1).max(168).default(24),
  /** Who may request sensitive actions. */
  requesters: z.enum(['anyone', 'approvers', 'listed']).default('anyone'),
  requesterUsers: z.array(z.string()).default([]),
  /** Where approval requests are posted; the requester's channel when unset. */
  approvalsChannel: z.string().optional(),
  /** Regdesk admins: may change the policy and the registrar key besides workspace admins. */
  admins: z.array(z.string()).default([]),
});
export type Policy = z.infer<typeof Policy>;

export const DEFAULT_POLICY: Policy = Policy.parse({});

export class PolicyStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'policy');
  }

  async get(ref: WorkspaceRef): Promise<Policy> {
    const raw = await this.redis.get(this.#key(ref));
    if (raw === null) return DEFAULT_POLICY;
    const parsed = Policy.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_POLICY;
  }

  async set(ref: WorkspaceRef, policy: Policy): Promise<void> {
    await this.redis.set(this.#key(ref), JSON.stringify(Policy.parse(policy)));
  }
}

/**
 * Who may do what, decided at the moment of the action from Slack's answers as the directory caches
 * them for 60 s (slack/users.ts), so a press does not cost a Slack call each time. Any failure to
 * tell denies (docs/requirements.md R8: deny by default).
 */
export class Roles {
  constructor(
    private readonly directory: SlackDirectory,
    private readonly logger: Logger,
  ) {}

  /** Workspace admins/owners, or a configured Regdesk admin. */
  async isAdmin(client: WebClient, workspace: WorkspaceRef, policy: Policy, user: string): Promise<boolean> {
    if (policy.admins.includes(user)) return true;
    return this.#safely(async () => (await this.directory.user(client, workspace, user)).isAdmin);
  }

  /**
   * With approvers configured, only they (and members of the approver group) approve; with none,
   * workspace admins and owners do. Guests, deleted, bot and external users never approve (R33).
   */
  async canApprove(
    client: WebClient,
    workspace: WorkspaceRef,
    policy: Policy,
    user: string,
  ): Promise<boolean> {
    return this.#safely(async () => {
      const profile = await this.directory.user(client, workspace, user);
      if (!inGoodStanding(profile, workspace)) return false;
      const group = policy.approverGroup;
      if (policy.approvers.length === 0 && group === undefined) return profile.isAdmin;
      if (policy.approvers.includes(user)) return true;
      if (group === undefined) return false;
      return (await this.directory.groupMembers(client, workspace, group)).includes(user);
    });
  }

  /** As the policy's `requesters` says; whoever it is must be in good standing (R33). */
  async canRequest(
    client: WebClient,
    workspace: WorkspaceRef,
    policy: Policy,
    user: string,
  ): Promise<boolean> {
    if (policy.requesters === 'approvers') return this.canApprove(client, workspace, policy, user);
    const listed = policy.requesterUsers.includes(user) || policy.approvers.includes(user);
    if (policy.requesters === 'listed' && !listed) return false;
    return this.#safely(async () =>
      inGoodStanding(await this.directory.user(client, workspace, user), workspace),
    );
  }

  /** The listed approvers a new request is sent to: everyone who could approve it, but the requester. */
  async approversToAsk(
    client: WebClient,
    workspace: WorkspaceRef,
    policy: Policy,
    requester: string,
  ): Promise<string[]> {
    const candidates = policy.approvers.filter((user) => user !== requester);
    const able = await Promise.all(
      candidates.map((user) => this.canApprove(client, workspace, policy, user)),
    );
    return candidates.filter((_, i) => able[i] === true);
  }

  async #safely(check: () => Promise<boolean>): Promise<boolean> {
    try {
      return await check();
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'role check failed: denying',
      );
      return false;
    }
  }
}

/**
 * A member of this workspace who may act at all (docs/requirements.md R33). In Enterprise Grid a
 * user's `team_id` is their home workspace, not necessarily this one, so only outside a Grid does a
 * different team mean an external (Slack Connect) user.
 */
function inGoodStanding(profile: SlackUserProfile, workspace: WorkspaceRef): boolean {
  if (profile.isGuest || profile.isDeleted || profile.isBot) return false;
  const external =
    workspace.enterpriseId === undefined &&
    profile.teamId !== undefined &&
    profile.teamId !== workspace.teamId;
  return !external;
}
