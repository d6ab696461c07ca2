import { LineCounter, parseDocument, stringify } from 'yaml';
import { z } from 'zod';
import { DNS_RECORD_TYPES } from '../../registrar/index.js';
import { ACTION_CLASSES } from './classes.js';
import type { Policy } from './policy.js';

/**
 * The policy as one YAML document (contract §3 "Policy", version 2): what `regdesk policy get` prints
 * and what the policy's rules are read from (rules.ts). Every object is strict, so a misspelt or
 * unknown field is an error with its path rather than a rule silently not applied.
 */

/** A person (`U…`, `W…`). */
const Person = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id (U… or W…)');
/** A person or a user group (`S…`). */
const Principal = z.string().regex(/^[UWS][A-Z0-9]{2,}$/, 'a Slack user id (U…, W…) or user group id (S…)');
const Approvals = z.number().int().min(0).max(5);
const ExpiryHours = z.number().int().min(1).max(168);

/** What every class may set; a field left out takes the top level's value (rules.ts). */
const rulesShape = {
  approvals: Approvals.optional(),
  reason: z.enum(['required', 'optional']).optional(),
  approvers: z.array(Principal).optional(),
  expiryHours: ExpiryHours.optional(),
};
const ClassRules = z.strictObject(rulesShape);
/** Record changes also name the record types and people whose changes need no approval. */
const RecordRules = z.strictObject({
  ...rulesShape,
  exemptTypes: z.array(z.enum(DNS_RECORD_TYPES)).optional(),
  exemptPeople: z.array(Person).optional(),
});
/** Certificate orders also say who may place them at all. */
const OrderRules = z.strictObject({
  ...rulesShape,
  who: z.union([z.enum(['everyone', 'approvers']), z.array(Person)]).optional(),
});
const Actions = z.strictObject({
  revoke: ClassRules.optional(),
  authcode: ClassRules.optional(),
  delegation: ClassRules.optional(),
  dnssec: ClassRules.optional(),
  record: RecordRules.optional(),
  order: OrderRules.optional(),
  publish: ClassRules.optional(),
});
export type Actions = z.infer<typeof Actions>;
export type ClassRules = z.infer<typeof RecordRules> & z.infer<typeof OrderRules>;

/** A zone name (`prod.example`) or every zone under a suffix (`*.prod.example`). */
const ZoneMatch = z
  .string()
  .regex(/^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+\.?$/i, 'a zone name, or *. and a suffix');

const Instant = z.iso.datetime({
  offset: true,
  message: 'a date and time with its offset (2026-11-27T00:00:00+01:00)',
});
const WallClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'a time of day, 00:00 to 24:00');
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
const TimeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone (Europe/Berlin)');
const FrozenClasses = z.array(z.enum(ACTION_CLASSES)).min(1);
const FreezeName = z.string().trim().min(1).max(80);

const OneOffFreeze = z
  .strictObject({ name: FreezeName, from: Instant, to: Instant, actions: FrozenClasses })
  .refine((freeze) => Date.parse(freeze.from) < Date.parse(freeze.to), {
    message: 'ends before it starts',
    path: ['to'],
  });
const WeeklyFreeze = z.strictObject({
  name: FreezeName,
  weekly: z
    .strictObject({
      days: z.array(z.enum(WEEKDAYS)).min(1),
      from: WallClock,
      to: WallClock,
      timeZone: TimeZone,
    })
    .refine((window) => window.from !== window.to, { message: 'an empty window', path: ['to'] }),
  actions: FrozenClasses,
});
const Freeze = z.union([OneOffFreeze, WeeklyFreeze]);
export type Freeze = z.infer<typeof Freeze>;

export const PolicyDocument = z.strictObject({
  version: z.literal(2).default(2),
  language: z.enum(['auto', 'en', 'de']).default('auto'),
  /** People and user groups who approve; empty: the workspace's admins and owners. */
  approvers: z.array(Principal).default([]),
  /** Who may request sensitive actions. */
  requesters: z.union([z.enum(['everyone', 'approvers']), z.array(Principal)]).default('everyone'),
  /** Approvals a request needs, for every class that does not say otherwise. */
  approvals: Approvals.default(1),
  expiryHours: ExpiryHours.default(24),
  /** Told by DM at 80 % of a request's lifetime without enough approvals; empty: admins and owners. */
  escalateTo: z.array(Principal).default([]),
  /** What agents may do through /mcp. */
  mcp: z.enum(['off', 'read', 'write']).default('read'),
  actions: Actions.default({}),
  /** Overrides for matching zones; the first match wins. */
  zones: z.array(z.strictObject({ match: ZoneMatch, actions: Actions })).default([]),
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
});
export type PolicyDocument = z.infer<typeof PolicyDocument>;

/** One error of a policy document, at its path (`actions.record.approvals`). */
export interface DocumentError {
  path: string;
  message: string;
}

const pathOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (shown, key) =>
      typeof key === 'number' ? `${shown}[${key}]` : shown === '' ? String(key) : `${shown}.${String(key)}`,
    '',
  );

/** Reads a policy document from YAML: every error with its path, or the document. */
export function parsePolicyYaml(
  source: string,
): { ok: true; document: PolicyDocument } | { ok: false; errors: DocumentError[] } {
  const lines = new LineCounter();
  const parsed = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (parsed.errors.length > 0)
    return {
      ok: false,
      errors: parsed.errors.map((error) => ({
        // Not a document yet: the place is a line of the text.
        path: `line ${lines.linePos(error.pos[0]).line}`,
        message: error.message.split('\n')[0] ?? error.message,
      })),
    };
  const result = PolicyDocument.safeParse(parsed.toJS() ?? {});
  if (!result.success)
    return {
      ok: false,
      errors: result.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })),
    };
  return { ok: true, document: result.data };
}

/** The document as YAML, in the contract's field order. */
export function policyYaml(document: PolicyDocument): string {
  return stringify(document, { lineWidth: 100 });
}

/**
 * A policy saved by `/domain policy` (earlier versions' format) read as version 2 (contract §3: "the
 * policy of earlier versions keeps working"): its one approval count applies to every class, and what
 * it exempted from approval (orders, record types and people, one's own validation records) is the
 * class's `approvals: 0` or exemption.
 */
export function documentOf(policy: Policy): PolicyDocument {
  const approvers = [
    ...policy.approvers,
    ...(policy.approverGroup === undefined ? [] : [policy.approverGroup]),
  ];
  const requesters =
    policy.requesters === 'anyone'
      ? 'everyone'
      : policy.requesters === 'approvers'
        ? 'approvers'
        : [...new Set([...policy.requesterUsers, ...policy.approvers])];
  return PolicyDocument.parse({
    version: 2,
    language: policy.language,
    approvers,
    requesters,
    approvals: policy.needed,
    expiryHours: policy.expiryHours,
    actions: {
      record: {
        approvals: policy.recordChangesNeedApproval ? policy.needed : 0,
        exemptTypes: policy.recordChangeExemptTypes,
        exemptPeople: policy.recordChangeExemptUsers,
      },
      order: {
        approvals: policy.ordersNeedApproval ? policy.needed : 0,
        who:
          policy.orderers === 'members'
            ? 'everyone'
            : policy.orderers === 'approvers'
              ? 'approvers'
              : policy.ordererUsers,
      },
      // Own orders' records at once; anyone else's through an approval, whatever the class says.
      publish: { approvals: policy.validationPublishing === 'approval' ? policy.needed : 0 },
    },
    admins: policy.admins,
    ...(policy.approvalsChannel === undefined ? {} : { approvalsChannel: policy.approvalsChannel }),
    assistant: { answers: policy.assistantAnswers, linkHosts: policy.assistantLinkHosts },
    watchManagers: policy.watchManagers,
  });
}
