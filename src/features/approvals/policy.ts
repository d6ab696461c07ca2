import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { isWorkspaceAdmin } from '../../slack/roles.js';

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

/** Who may do what, decided against Slack at the moment of the action. */
export class Roles {
  constructor(private readonly logger: Logger) {}

  /** Workspace admins/owners, or a configured Regdesk admin. */
  async isAdmin(client: WebClient, policy: Policy, user: string): Promise<boolean> {
    if (policy.admins.includes(user)) return true;
    return this.#safely(() => isWorkspaceAdmin(client, user));
  }

  /**
   * With approvers configured, only they (and members of the approver group) approve; with none,
   * workspace admins and owners do. Any failure to tell denies (docs/requirements.md R8: deny by default).
   */
  async canApprove(client: WebClient, policy: Policy, user: string): Promise<boolean> {
    const configured = policy.approvers.length > 0 || policy.approverGroup !== undefined;
    if (!configured) return this.#safely(() => isWorkspaceAdmin(client, user));
    if (policy.approvers.includes(user)) return true;
    const group = policy.approverGroup;
    if (group === undefined) return false;
    return this.#safely(async () => {
      const { users } = await client.usergroups.users.list({ usergroup: group });
      return (users ?? []).includes(user);
    });
  }

  async canRequest(client: WebClient, policy: Policy, user: string): Promise<boolean> {
    switch (policy.requesters) {
      case 'anyone':
        return true;
      case 'listed':
        return policy.requesterUsers.includes(user) || policy.approvers.includes(user);
      case 'approvers':
        return this.canApprove(client, policy, user);
    }
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
