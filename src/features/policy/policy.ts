import { z } from 'zod';
import { DNS_RECORD_TYPES } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { ACTION_CLASSES } from './classes.js';
import { Actions, Freeze, Principal, ZoneOverride } from './schema.js';

/** A workspace's rules for sensitive actions (`/domain policy`). Stored as JSON; holds no secrets. */
export const Policy = z.lazy(() =>
  z.object({
    /** Users who may approve; with `approverGroup`, members of that user group too. */
    approvers: z.array(z.string()).default([]),
    /**
     * User groups whose members approve: one id, or several separated by commas (policy v2 names any
     * number; the field kept its name so policies saved before read the same).
     */
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
     * DNS record changes (add, edit, delete, revert) go through an approval request (docs/requirements.md
     * R47): on by default, since a wrong record takes a site or its mail down for as long as caches hold it.
     */
    recordChangesNeedApproval: z.boolean().default(true),
    /** Record types whose changes need no approval even when record changes do. */
    recordChangeExemptTypes: z.array(z.enum(DNS_RECORD_TYPES)).default([]),
    /** People whose record changes need no approval even when record changes do. */
    recordChangeExemptUsers: z.array(z.string()).default([]),
    /**
     * Publishing a certificate's validation records (features/publish): without an approval when the
     * person who placed the order through Regdesk publishes and only the order's own records are
     * created (`own-orders`), or always through an approval request.
     */
    validationPublishing: z.enum(['own-orders', 'approval']).default('own-orders'),
    /**
     * Where the assistant answers: in the channel's thread, or only to the asker. `shared-private`
     * answers privately in Slack Connect channels (outsiders would read account data) and publicly
     * elsewhere.
     */
    assistantAnswers: z.enum(['channel', 'asker', 'shared-private']).default('shared-private'),
    /** Hosts besides the registrar's dashboard that assistant answers may link to. */
    assistantLinkHosts: z.array(z.string()).default([]),
    /**
     * Who may stop watching an item and change the watch digest settings (features/watches/managers.ts):
     * whoever added the watch (or saved the settings) and admins, or any member in good standing.
     */
    watchManagers: z.enum(['adder-and-admins', 'anyone']).default('adder-and-admins'),
    /**
     * The language Regdesk speaks here (contract §3 "Language", slack/language.ts): each person their
     * Slack locale's, with English in channels (`auto`), or German or English for everyone and every
     * channel.
     */
    language: z.enum(['auto', 'en', 'de']).default('auto'),
    // Version 2 (contract §3 "Policy"; `regdesk policy set`, document.ts): what a class, a zone or a
    // freeze adds to the fields above. `/domain policy` edits the fields above and, of `actions`, each
    // class's approvals and reason (action-rows.ts); for record changes, orders and publishing the
    // fields above decide whether an approval is needed at all (document.ts), set by those rows.
    /** Per action class: approvals, expiry (policy/classes.ts). */
    actions: Actions.default({}),
    /** Overrides for matching zones; the first match wins. */
    zones: z.array(ZoneOverride).default([]),
    /** When classes of actions are refused (one-off ranges and weekly windows). */
    freezes: z.array(Freeze).default([]),
    /** Told by DM at 80 % of a request's lifetime without enough approvals; empty: admins and owners. */
    escalateTo: z.array(Principal).default([]),
    /** What agents may do through /mcp. */
    mcp: z.enum(['off', 'read', 'write']).default('read'),
  }),
);
export type Policy = z.infer<typeof Policy>;
export type PolicyField = keyof Policy;
/**
 * The fields version 2 added, set through `regdesk policy set`. The modal keeps them as saved, but for
 * each class's approvals and reason in `actions`, which are its rows' (action-rows.ts `withRows`).
 */
export const VERSION_TWO_FIELDS = ['actions', 'zones', 'freezes', 'escalateTo', 'mcp'] as const;
/** The fields `/domain policy` edits. */
export type ModalField = Exclude<PolicyField, (typeof VERSION_TWO_FIELDS)[number]>;

/** What a workspace that never saved a policy gets: permissive, as before R41. */
export const DEFAULT_POLICY: Policy = Policy.parse({});

/**
 * The strictest value of every field (docs/requirements.md R41: security settings fail closed). A
 * field that is out of range or unknown to this version falls back to its entry here, that field
 * only; a policy that cannot be read at all is this whole object.
 */
export const STRICTEST_POLICY: Policy = {
  // Nobody named: only workspace admins and owners approve (permissions.ts `#isApprover`).
  approvers: [],
  // approverGroup: unset, so no user group's members approve.
  // The most approvals a request can need (the schema's maximum).
  needed: 5,
  // The shortest life a request can have: fewer decisions on stale grounds.
  expiryHours: 1,
  // Only listed requesters and approvers may ask; with both lists empty, nobody.
  requesters: 'listed',
  requesterUsers: [],
  // approvalsChannel: unset, so requests go where they were asked (a wrong channel could leak them).
  // No Regdesk admins: only workspace admins and owners change the policy and the key.
  admins: [],
  // Only listed people order and reissue; with the list empty, nobody.
  orderers: 'listed',
  ordererUsers: [],
  // Every order and reissue needs an approval.
  ordersNeedApproval: true,
  // Every record change needs an approval.
  recordChangesNeedApproval: true,
  // No record type is exempt.
  recordChangeExemptTypes: [],
  // Nobody is exempt.
  recordChangeExemptUsers: [],
  // Every publication of validation records needs an approval.
  validationPublishing: 'approval',
  // Answers only ever reach the asker.
  assistantAnswers: 'asker',
  // Links only to the registrar's own dashboard.
  assistantLinkHosts: [],
  // Only the person who added a watch (saved the settings) and admins remove it (change them).
  watchManagers: 'adder-and-admins',
  // Not a security setting: no language is stricter than another, so people keep their own.
  language: 'auto',
  // Every class needs the most approvals.
  actions: Object.fromEntries(ACTION_CLASSES.map((actionClass) => [actionClass, { approvals: 5 }])),
  // No zone is more lenient.
  zones: [],
  // A freeze refuses; none unknown is invented.
  freezes: [],
  // The workspace's admins and owners are told.
  escalateTo: [],
  // Agents do nothing.
  mcp: 'off',
};

/**
 * A policy as read, and how (docs/requirements.md R41):
 * - `default`: never saved; the permissive default.
 * - `saved`: exactly what was saved.
 * - `repaired`: saved, but `fields` were out of range or unknown to this version; they hold their
 *   strictest values, the others what was saved.
 * - `unreadable`: saved, but gone or not a policy at all. `policy` is the strictest one, for readers
 *   that need some policy; what the policy governs is refused (permissions.ts `Roles.decide`).
 */
export type PolicyRead =
  | { policy: Policy; state: 'default' | 'saved' | 'unreadable' }
  | { policy: Policy; state: 'repaired'; fields: PolicyField[] };

/** Why a saved policy could not be read; for the log line, which never carries the stored text. */
type Unreadable = 'missing' | 'not JSON' | 'not an object';

export class PolicyStore {
  readonly #saved: ((ref: WorkspaceRef) => void)[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  #key(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'policy');
  }

  /**
   * When the workspace last saved its policy (ms; for one saved before this key existed, when it was
   * first read). It tells a policy that was lost from one that was never saved (R41). One hash tag
   * with the policy, so both are written in one MULTI, also on Redis Cluster.
   */
  #savedKey(ref: WorkspaceRef): string {
    return this.keys.key(`ws:${workspaceId(ref)}`, 'policy-saved');
  }

  /** The policy in force: the strictest one when the saved policy cannot be read. */
  async get(ref: WorkspaceRef): Promise<Policy> {
    return (await this.read(ref)).policy;
  }

  async read(ref: WorkspaceRef): Promise<PolicyRead> {
    const [raw, saved] = await this.redis.mget(this.#key(ref), this.#savedKey(ref));
    if (raw === null || raw === undefined) {
      if (saved === null || saved === undefined) return { policy: DEFAULT_POLICY, state: 'default' };
      return this.#unreadable(ref, 'missing');
    }
    let stored: unknown;
    try {
      stored = JSON.parse(raw);
    } catch {
      return this.#unreadable(ref, 'not JSON');
    }
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
      return this.#unreadable(ref, 'not an object');
    // A policy saved before the marker existed counts as saved from now on, so losing it is noticed.
    if (saved === null || saved === undefined)
      await this.redis.set(this.#savedKey(ref), String(this.now()), 'NX');
    const { policy, fields } = repair(stored as Record<string, unknown>);
    if (fields.length === 0) return { policy, state: 'saved' };
    this.logger.warn(
      { workspace: workspaceId(ref), fields },
      'approval policy: field(s) out of range or unknown to this version hold their strictest value (R41)',
    );
    return { policy, state: 'repaired', fields };
  }

  /** Saving is what clears an unreadable or repaired policy. */
  async set(ref: WorkspaceRef, policy: Policy): Promise<void> {
    await this.redis
      .multi()
      .set(this.#key(ref), JSON.stringify(Policy.parse(policy)))
      .set(this.#savedKey(ref), String(this.now()))
      .exec();
    for (const listener of this.#saved) listener(ref);
  }

  /** Told of every save in this process (what keeps a copy of a setting drops it). */
  onSave(listener: (ref: WorkspaceRef) => void): void {
    this.#saved.push(listener);
  }

  #unreadable(ref: WorkspaceRef, why: Unreadable): PolicyRead {
    this.logger.warn(
      { workspace: workspaceId(ref), why },
      'approval policy was saved but cannot be read: the strictest settings apply (R41)',
    );
    return { policy: STRICTEST_POLICY, state: 'unreadable' };
  }
}

/**
 * Each field through its own schema (`Policy.shape`): a field missing from what was saved takes its
 * default, like a policy saved before the field existed; a field present but invalid takes its
 * strictest value (R41). A list keeps its well-formed entries when only some are malformed, and is
 * empty when it is not a list at all. Fields this version does not know are dropped: nothing reads them.
 */
function repair(stored: Record<string, unknown>): { policy: Policy; fields: PolicyField[] } {
  const kept: Record<string, unknown> = {};
  const fields: PolicyField[] = [];
  // The schema z.lazy built for parsing and keeps (`unwrap()` would build another).
  const { shape } = Policy._zod.innerType;
  for (const field of Object.keys(shape) as PolicyField[]) {
    const schema = shape[field];
    const value = stored[field];
    const parsed = schema.safeParse(value);
    let chosen: unknown = parsed.data;
    if (!parsed.success) {
      fields.push(field);
      const strictest = STRICTEST_POLICY[field];
      const entries = Array.isArray(value)
        ? schema.safeParse(value.filter((entry) => schema.safeParse([entry]).success))
        : undefined;
      chosen = Array.isArray(strictest) && entries?.success === true ? entries.data : strictest;
    }
    // An optional field left unset stays absent rather than `undefined`.
    if (chosen !== undefined) kept[field] = chosen;
  }
  // Every field is valid by now; parsing again only gives the object its type.
  return { policy: Policy.parse(kept), fields };
}

/** The user groups of the policy's default approvers (`approverGroup`, comma-separated). */
export function approverGroups(policy: Pick<Policy, 'approverGroup'>): string[] {
  return (policy.approverGroup ?? '').split(/[\s,]+/).filter((group) => group !== '');
}
