import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

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
  /**
   * Who may order and reissue certificates and edit TLS organizations (they cost money or change
   * what a certificate vouches for): any member in good standing, approvers only, or listed users.
   */
  orderers: z.enum(['members', 'approvers', 'listed']).default('members'),
  ordererUsers: z.array(z.string()).default([]),
  /** Certificate orders and reissues need an approval like the sensitive actions. */
  ordersNeedApproval: z.boolean().default(false),
  /**
   * Where the assistant answers: in the channel's thread, or only to the asker. `shared-private`
   * answers privately in Slack Connect channels (outsiders would read account data) and publicly
   * elsewhere.
   */
  assistantAnswers: z.enum(['channel', 'asker', 'shared-private']).default('shared-private'),
  /** Hosts besides the registrar's dashboard that assistant answers may link to. */
  assistantLinkHosts: z.array(z.string()).default([]),
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
