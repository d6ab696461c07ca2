import { z } from 'zod';
import { approverGroups, Policy } from './policy.js';
import { Actions, Approvals, ExpiryHours, Freeze, Person, Principal, ZoneOverride } from './schema.js';

/**
 * The policy as one YAML document (contract §3 "Policy", version 2): what `regdesk policy get` prints
 * and what the policy's rules are read from (rules.ts). Every object is strict, so a misspelt or
 * unknown field is an error with its path rather than a rule silently not applied.
 */

export const PolicyDocument = z.lazy(() =>
  z.strictObject({
    version: z.literal(2).default(2),
    language: z.enum(['auto', 'en', 'de']).default('auto'),
    /** People and user groups who approve; empty: the workspace's admins and owners. */
    approvers: z.array(Principal).default([]),
    /** Who may request sensitive actions. */
    requesters: z.union([z.enum(['everyone', 'approvers']), z.array(Principal)]).default('everyone'),
    /** Approvals a request needs, for every class that does not say otherwise (a class may say 0). */
    approvals: Approvals.unwrap().min(1).default(1),
    expiryHours: ExpiryHours.default(24),
    /** Told by DM at 80 % of a request's lifetime without enough approvals; empty: admins and owners. */
    escalateTo: z.array(Principal).default([]),
    /** What agents may do through /mcp. */
    mcp: z.enum(['off', 'read', 'write']).default('read'),
    actions: Actions.default({}),
    /** Overrides for matching zones; the first match wins. */
    zones: z.array(ZoneOverride).default([]),
    freezes: z.array(Freeze).default([]),
    // Regdesk's settings beyond the contract's example, with the same meaning as in `/domain policy`.
    /** Regdesk admins besides the workspace's admins and owners: they change the policy and the key. */
    admins: z.array(Person).default([]),
    /** Where approval requests are posted; the requester's channel when unset. */
    approvalsChannel: z
      .string()
      .regex(/^[CG][A-Z0-9]+$/, 'a channel id (C…)')
      .optional(),
    assistant: z
      .strictObject({
        answers: z.enum(['channel', 'asker', 'shared-private']).default('shared-private'),
        linkHosts: z.array(z.string()).default([]),
      })
      .default({ answers: 'shared-private', linkHosts: [] }),
    watchManagers: z.enum(['adder-and-admins', 'anyone']).default('adder-and-admins'),
  }),
);
export type PolicyDocument = z.infer<typeof PolicyDocument>;

/** One error of a policy document, at its path (`actions.record.approvals`). */
export interface DocumentError {
  path: string;
  message: string;
}

/**
 * The stored policy as a version 2 document. A policy saved by `/domain policy` before version 2 reads
 * as one too (contract §3: "the policy of earlier versions keeps working"): its one approval count
 * applies to every class. For record changes, orders and publishing the modal's switches decide
 * whether an approval is needed at all (0 when they exempt), and their count is the class's own,
 * else the top level's.
 */
export function documentOf(policy: Policy): PolicyDocument {
  const approvers = [...policy.approvers, ...approverGroups(policy)];
  const requesters =
    policy.requesters === 'anyone'
      ? 'everyone'
      : policy.requesters === 'approvers'
        ? 'approvers'
        : [...new Set([...policy.requesterUsers, ...policy.approvers])];
  const count = (actionClass: 'record' | 'order' | 'publish', needed: boolean) =>
    needed ? (policy.actions[actionClass]?.approvals ?? policy.needed) : 0;
  return PolicyDocument.parse({
    version: 2,
    language: policy.language,
    approvers,
    requesters,
    approvals: policy.needed,
    expiryHours: policy.expiryHours,
    escalateTo: policy.escalateTo,
    mcp: policy.mcp,
    actions: {
      ...policy.actions,
      record: {
        ...policy.actions.record,
        approvals: count('record', policy.recordChangesNeedApproval),
        exemptTypes: policy.recordChangeExemptTypes,
        exemptPeople: policy.recordChangeExemptUsers,
      },
      order: {
        ...policy.actions.order,
        approvals: count('order', policy.ordersNeedApproval),
        who:
          policy.orderers === 'members'
            ? 'everyone'
            : policy.orderers === 'approvers'
              ? 'approvers'
              : policy.ordererUsers,
      },
      // Own orders' records at once; anyone else's through an approval, whatever the class says.
      publish: {
        ...policy.actions.publish,
        approvals: count('publish', policy.validationPublishing === 'approval'),
      },
    },
    zones: policy.zones,
    freezes: policy.freezes,
    admins: policy.admins,
    ...(policy.approvalsChannel === undefined ? {} : { approvalsChannel: policy.approvalsChannel }),
    assistant: { answers: policy.assistantAnswers, linkHosts: policy.assistantLinkHosts },
    watchManagers: policy.watchManagers,
  });
}

const isGroup = (id: string) => id.startsWith('S');

/**
 * What Regdesk does not enforce yet, refused by `regdesk policy set` with its path rather than saved
 * and silently not applied. Everything the contract's document names is enforced now: the list stays
 * the one place a field not yet in force would be refused.
 */
export function notYetEnforced(_document: PolicyDocument): DocumentError[] {
  return [];
}

/**
 * Classes whose need for an approval is a switch of `/domain policy` (and the fields it keeps there):
 * the switch says whether, the class's count how many.
 */
const SWITCHED: Partial<Record<string, readonly string[]>> = {
  record: ['exemptTypes', 'exemptPeople'],
  order: ['who'],
  publish: [],
};

/**
 * A class's rules as stored beside the modal's fields: without what those hold, and, for a class
 * with a switch, without a count that is 0 (the switch says so) or only repeats the top level.
 */
function storedRules(actionClass: string, rules: object | undefined, top: number): Record<string, unknown> {
  const moved = SWITCHED[actionClass];
  return Object.fromEntries(
    Object.entries(rules ?? {}).filter(
      ([field, value]) =>
        value !== undefined &&
        !(moved?.includes(field) ?? false) &&
        !(field === 'approvals' && moved !== undefined && (value === 0 || value === top)),
    ),
  );
}

/** The document as Regdesk stores it (what `/domain policy` edits, and what version 2 added). */
export function policyOf(document: PolicyDocument): Policy {
  const { record, order, publish } = document.actions;
  const groups = document.approvers.filter(isGroup);
  const who = order?.who ?? 'everyone';
  const requesters = document.requesters;
  const actions = Object.fromEntries(
    Object.entries(document.actions)
      .map(
        ([actionClass, rules]) => [actionClass, storedRules(actionClass, rules, document.approvals)] as const,
      )
      .filter(([, rules]) => Object.keys(rules).length > 0),
  );
  return Policy.parse({
    approvers: document.approvers.filter((id) => !isGroup(id)),
    ...(groups.length === 0 ? {} : { approverGroup: groups.join(',') }),
    needed: document.approvals,
    expiryHours: document.expiryHours,
    requesters: requesters === 'everyone' ? 'anyone' : requesters === 'approvers' ? 'approvers' : 'listed',
    requesterUsers: Array.isArray(requesters) ? requesters : [],
    ...(document.approvalsChannel === undefined ? {} : { approvalsChannel: document.approvalsChannel }),
    admins: document.admins,
    orderers: who === 'everyone' ? 'members' : who === 'approvers' ? 'approvers' : 'listed',
    ordererUsers: Array.isArray(who) ? who : [],
    ordersNeedApproval: (order?.approvals ?? document.approvals) > 0,
    recordChangesNeedApproval: (record?.approvals ?? document.approvals) > 0,
    recordChangeExemptTypes: record?.exemptTypes ?? [],
    recordChangeExemptUsers: record?.exemptPeople ?? [],
    validationPublishing: (publish?.approvals ?? document.approvals) > 0 ? 'approval' : 'own-orders',
    assistantAnswers: document.assistant.answers,
    assistantLinkHosts: document.assistant.linkHosts,
    watchManagers: document.watchManagers,
    language: document.language,
    actions,
    zones: document.zones,
    freezes: document.freezes,
    escalateTo: document.escalateTo,
    mcp: document.mcp,
  });
}
