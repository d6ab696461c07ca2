import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import type { SlackDirectory, SlackUserProfile } from '../../slack/users.js';
import type { AuditLog } from '../audit/service.js';
import { outsiderKind } from './outsiders.js';
import { approverGroups, type Policy, type PolicyRead, type PolicyStore } from './policy.js';
import { type Act, type Decision, PermissionRefused, type Refusal, refusalText } from './refusals.js';

// Who may do what is asked here; the words of a refusal live with it (refusals.ts).
export type { Act, Decision, Refusal, RequestAct } from './refusals.js';
export { PermissionRefused, refusalText } from './refusals.js';

/** What a refusal is about, for its audit entry; `policy` saves a read when the caller has it. */
export interface About {
  policy?: PolicyRead;
  operation?: string;
  target?: string;
  requestId?: string;
  /**
   * Who approves this action: its class's approvers (rules.ts `Rules.approvers`, people and user
   * groups; empty: the workspace's admins and owners). Unset: the policy's own approvers.
   */
  approvers?: readonly string[];
}

/** The policy's own approvers as principals: its people and its user group. */
export function defaultApprovers(policy: Policy): string[] {
  return [...policy.approvers, ...approverGroups(policy)];
}

const isGroup = (id: string) => id.startsWith('S');

const ALLOWED: Decision = { allowed: true };
const refuse = (refusal: Refusal): Decision => {
  const say = () => refusalText(refusal);
  return { allowed: false, refusal, reason: say(), say };
};

/**
 * What a saved policy that cannot be read refuses until an admin saves it again (docs/requirements.md
 * R41): sensitive requests, certificate orders and reissues, and TLS organization edits (the same
 * `orderers` rule). Approving and denying stay with workspace admins (the strictest policy names no
 * approvers): a request approved meanwhile still fails its re-check at execution, as `request`.
 */
const GOVERNED: ReadonlySet<Act> = new Set<Act>(['request', 'order', 'reissue', 'organization']);
const unreadable = (act: Act) => refuse({ code: 'policyUnreadable', act });
const unconfirmed = () => refuse({ code: 'unconfirmed' });

/**
 * Admins told by DM when the policy lists no approvers: enough that someone sees it soon, few enough
 * that a large workspace's admins are not all interrupted (the rest are named in the request).
 */
export const MAX_ADMIN_DMS = 10;

/**
 * Who may do what: the one permission model every feature asks, decided at the moment of the action
 * from the policy and Slack's answers as the directory caches them for 60 s (slack/users.ts). Any
 * failure to tell denies (docs/requirements.md R8), and every refusal says why. `check` also audits
 * the refusal; `decide` does not (re-checks at execution, what App Home shows).
 */
export class Roles {
  constructor(
    private readonly directory: SlackDirectory,
    private readonly policies: PolicyStore,
    private readonly audit: AuditLog,
    private readonly logger: Logger,
  ) {}

  /** May `user` do `act`? A refusal is audited (R12; the reason and ids only, never a secret). */
  async check(
    client: WebClient,
    workspace: WorkspaceRef,
    user: string,
    act: Act,
    about: About = {},
  ): Promise<Decision> {
    const decision = await this.decide(client, workspace, user, act, about.policy, about.approvers);
    if (!decision.allowed) {
      await this.audit.append(workspace, {
        action: 'refuse',
        actor: user,
        operation: about.operation ?? act,
        ...(about.target === undefined ? {} : { target: about.target }),
        ...(about.requestId === undefined ? {} : { requestId: about.requestId }),
        outcome: decision.reason,
      });
    }
    return decision;
  }

  /** `check` for handlers whose failures are told the usual way: throws `PermissionRefused`. */
  async require(
    client: WebClient,
    workspace: WorkspaceRef,
    user: string,
    act: Act,
    about: About = {},
  ): Promise<void> {
    const decision = await this.check(client, workspace, user, act, about);
    if (!decision.allowed) throw new PermissionRefused(decision.say);
  }

  async decide(
    client: WebClient,
    workspace: WorkspaceRef,
    user: string,
    act: Act,
    policy?: PolicyRead,
    approvers?: readonly string[],
  ): Promise<Decision> {
    // Outside the try: Redis being down is told as such, not as an unknown account.
    const read = policy ?? (await this.policies.read(workspace));
    if (read.state === 'unreadable' && GOVERNED.has(act)) {
      // One line per refusal, ids only: the stored text is never logged (R27).
      this.logger.error(
        { workspace: workspaceId(workspace), user, act },
        'approval policy cannot be read: refused until an admin saves it again (R41)',
      );
      return unreadable(act);
    }
    try {
      const profile = await this.directory.user(client, workspace, user);
      const outsider = outsiderKind(profile, workspace);
      if (outsider !== undefined) return refuse({ code: 'outsider', outsider, act });
      // Unreadable, for acts it does not govern, the strictest policy decides (policy.ts).
      const principals = approvers ?? defaultApprovers(read.policy);
      return await this.#byPolicy(client, workspace, read.policy, profile, act, principals);
    } catch (error) {
      this.#denied(act, error);
      return unconfirmed();
    }
  }

  #denied(act: Act, error: unknown): void {
    this.logger.warn(
      { act, err: error instanceof Error ? error.message : String(error) },
      'role check failed: denying',
    );
  }

  /**
   * Who may change the registrar key, as the keys feature asks it (`isKeyAdmin`): Regdesk admins of
   * the policy and workspace admins/owners, never guests, deactivated accounts or bots. Unlike
   * `check(…, 'key')` it does not compare the user's home team: interactions from another team are
   * refused before any listener (slack/middleware.ts), and Slack runs the app's slash commands only
   * for people of a workspace it is installed in.
   */
  async isAdmin(client: WebClient, workspace: WorkspaceRef, user: string): Promise<boolean> {
    const policy = await this.policies.get(workspace);
    try {
      const profile = await this.directory.user(client, workspace, user);
      // Nobody from another organisation administers this workspace's key or policy (R33).
      if (outsiderKind(profile, workspace) !== undefined) return false;
      return profile.isAdmin || policy.admins.includes(user);
    } catch (error) {
      this.#denied('key', error);
      return false;
    }
  }

  /**
   * A workspace admin or owner as Slack says now (not a Regdesk admin of the policy): who must be
   * among the approvers of a request made during a freeze (contract §3 "Policy", Break glass).
   */
  async isWorkspaceAdmin(client: WebClient, workspace: WorkspaceRef, user: string): Promise<boolean> {
    try {
      const profile = await this.directory.user(client, workspace, user);
      return outsiderKind(profile, workspace) === undefined && profile.isAdmin;
    } catch (error) {
      this.#denied('approve', error);
      return false;
    }
  }

  /**
   * Who is told by DM when a request reaches 80 % of its lifetime short of approvals (contract §3
   * "Policy", `escalateTo`): the listed people and the members of listed user groups, else the
   * workspace's admins and owners; at most `MAX_ADMIN_DMS`, so a large group cannot flood DMs.
   */
  async escalationContacts(client: WebClient, workspace: WorkspaceRef, policy: Policy): Promise<string[]> {
    if (policy.escalateTo.length === 0)
      return (await this.directory.admins(client, workspace)).slice(0, MAX_ADMIN_DMS);
    const people = policy.escalateTo.filter((id) => !id.startsWith('S'));
    const groups = await Promise.all(
      policy.escalateTo
        .filter((id) => id.startsWith('S'))
        .map((group) => this.directory.groupMembers(client, workspace, group)),
    );
    return [...new Set([...people, ...groups.flat()])].slice(0, MAX_ADMIN_DMS);
  }

  /**
   * Who is told of a new request (contract §3 "Approvers are told"): the approvers of its class (the
   * policy's own unless the class names others) who may approve, or — when there are none — the
   * workspace's admins and owners. `byDm` get a copy by DM; admins past `MAX_ADMIN_DMS` are `named`
   * in the request instead. User groups are told by the mention in the request itself (`groups`).
   */
  async approversToAsk(
    client: WebClient,
    workspace: WorkspaceRef,
    read: PolicyRead,
    requester: string,
    approvers: readonly string[] = defaultApprovers(read.policy),
  ): Promise<{ byDm: string[]; named: string[]; admins: boolean; groups: string[] }> {
    const admins = approvers.length === 0;
    const groups = approvers.filter(isGroup);
    const people = approvers.filter((id) => !isGroup(id));
    const candidates = (admins ? await this.directory.admins(client, workspace) : people).filter(
      (user) => user !== requester,
    );
    if (admins) {
      return {
        byDm: candidates.slice(0, MAX_ADMIN_DMS),
        named: candidates.slice(MAX_ADMIN_DMS),
        admins,
        groups,
      };
    }
    const able = await Promise.all(
      candidates.map((user) => this.decide(client, workspace, user, 'approve', read, approvers)),
    );
    return { byDm: candidates.filter((_, i) => able[i]?.allowed === true), named: [], admins, groups };
  }

  async #byPolicy(
    client: WebClient,
    workspace: WorkspaceRef,
    policy: Policy,
    profile: SlackUserProfile,
    act: Act,
    principals: readonly string[],
  ): Promise<Decision> {
    const approver = () => this.#isApprover(client, workspace, principals, profile);
    switch (act) {
      case 'lookup':
      case 'view':
        return ALLOWED;
      case 'order':
      case 'reissue':
      case 'organization':
        if (policy.orderers === 'members') return ALLOWED;
        if (policy.orderers === 'approvers') {
          return (await approver()) ? ALLOWED : refuse({ code: 'onlyApprovers', act });
        }
        return policy.ordererUsers.includes(profile.id) ? ALLOWED : refuse({ code: 'onlyListed', act });
      case 'request':
        if (policy.requesters === 'anyone') return ALLOWED;
        if (policy.requesters === 'approvers') {
          return (await approver()) ? ALLOWED : refuse({ code: 'onlyApprovers', act });
        }
        if (policy.requesterUsers.includes(profile.id) || policy.approvers.includes(profile.id))
          return ALLOWED;
        // Listed user groups request through their members (contract §3 "Policy", `requesters`).
        for (const group of policy.requesterUsers.filter(isGroup))
          if ((await this.directory.groupMembers(client, workspace, group)).includes(profile.id))
            return ALLOWED;
        return refuse({ code: 'onlyListedRequesters', act });
      case 'approve':
        if (await approver()) return ALLOWED;
        return refuse({ code: 'notApprover', adminsApprove: principals.length === 0 });
      case 'export':
      case 'policy':
      case 'key':
        return profile.isAdmin || policy.admins.includes(profile.id)
          ? ALLOWED
          : refuse({ code: 'onlyAdmins', act });
    }
  }

  /**
   * With approvers configured (people and user groups), only they and the groups' members approve;
   * with none, workspace admins and owners do.
   */
  async #isApprover(
    client: WebClient,
    workspace: WorkspaceRef,
    principals: readonly string[],
    profile: SlackUserProfile,
  ): Promise<boolean> {
    if (principals.length === 0) return profile.isAdmin;
    if (principals.includes(profile.id)) return true;
    for (const group of principals.filter(isGroup))
      if ((await this.directory.groupMembers(client, workspace, group)).includes(profile.id)) return true;
    return false;
  }
}
