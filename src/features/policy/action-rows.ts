import type { KnownBlock } from '@slack/types';
import { section } from '../../slack/blocks.js';
import { inputBlock, stateOf, type ViewState } from '../../slack/modal.js';
import { markup, text } from '../../text/index.js';
import { ACTION_CLASSES, type ActionClass } from './classes.js';
import { POLICY_IDS } from './ids.js';
import type { Policy } from './policy.js';
import { Actions } from './schema.js';

/**
 * The "Per action" rows of `/domain policy` (contract §3 "Policy": "the modal edits the same fields"):
 * one row per action class, its approvals (`actions.<class>.approvals`) and whether a reason is
 * required (`actions.<class>.reason`). What else a class may say (`approvers`, `expiryHours`) is set by
 * `regdesk policy set` and kept as it is when the modal is saved.
 *
 * One control, not two: for `record`, `order` and `publish` the row replaces the modal's switch
 * (`recordChangesNeedApproval`, `ordersNeedApproval`, `validationPublishing`). Stored, the switch stays
 * what says whether the class needs an approval at all, so every policy saved before reads as it did
 * (document.ts `documentOf` is unchanged): the row shows 0 when the switch is off, else the class's own
 * count, else "as the default". Saved, 0 turns the switch off and keeps no count of the class's own (as
 * `policyOf` stores a document that says 0); any other choice turns it on, with that count or none (the
 * default). So a row saying 0 and a switch saying "need approval" can never be submitted together; a
 * modal opened before the rows existed submits the switch alone, and that stands (form.ts).
 */

/** A row's approvals: the class's own count (0–5), or none of its own (the top level's `needed`). */
export type RowApprovals = number | 'default';
export interface ActionRow {
  approvals: RowApprovals;
  reason: boolean;
}
/** The rows a submission held: none for a modal opened before the rows existed. */
export type ActionRows = Partial<Record<ActionClass, ActionRow>>;

/** The stored policy's switch behind each class that has one (see above). */
function switchedTo(actionClass: ActionClass, on: boolean): Partial<Policy> | undefined {
  switch (actionClass) {
    case 'record':
      return { recordChangesNeedApproval: on };
    case 'order':
      return { ordersNeedApproval: on };
    case 'publish':
      // Off: the orderer's own records at once, anyone else's through an approval (publish/gate.ts).
      return { validationPublishing: on ? 'approval' : 'own-orders' };
    default:
      return undefined;
  }
}

/** Whether the switch of a class that has one is on (see above); undefined for the other classes. */
function switchOf(policy: Policy, actionClass: ActionClass): boolean | undefined {
  switch (actionClass) {
    case 'record':
      return policy.recordChangesNeedApproval;
    case 'order':
      return policy.ordersNeedApproval;
    case 'publish':
      return policy.validationPublishing === 'approval';
    default:
      return undefined;
  }
}

/**
 * What each row shows: what is in force, as document.ts `documentOf` puts it (0 when a class's switch
 * is off, else the class's own count, else the default), as the class's own count or the default.
 * Read from the stored fields rather than through `documentOf`, whose stricter schema (user ids of a
 * shape) must not keep the modal from opening or a save from being audited; the rows unit test checks
 * that both agree.
 */
export function rowsOf(policy: Policy): Record<ActionClass, ActionRow> {
  const row = (actionClass: ActionClass): ActionRow => {
    const own = policy.actions[actionClass];
    return {
      approvals: switchOf(policy, actionClass) === false ? 0 : (own?.approvals ?? 'default'),
      reason: own?.reason === 'required',
    };
  };
  return Object.fromEntries(ACTION_CLASSES.map((actionClass) => [actionClass, row(actionClass)])) as Record<
    ActionClass,
    ActionRow
  >;
}

/** Each class in plain words, and what it covers (the row's hint). */
function classWords(): Record<ActionClass, { label: string; covers: string }> {
  const t = text.policyModal;
  return {
    revoke: { label: t.actionRevoke, covers: t.coversRevoke },
    authcode: { label: t.actionAuthcode, covers: t.coversAuthcode },
    delegation: { label: t.actionDelegation, covers: t.coversDelegation },
    dnssec: { label: t.actionDnssec, covers: t.coversDnssec },
    record: { label: t.actionRecord, covers: t.coversRecord },
    order: { label: t.actionOrder, covers: t.coversOrder },
    publish: { label: t.actionPublish, covers: t.coversPublish },
  };
}

const option = (value: string, label: string) => ({
  text: { type: 'plain_text' as const, text: label },
  value,
});
/** The value of the one "reason required" box of a row. */
const REASON_REQUIRED = 'required';
/** The approvals a row may choose (contract: 0–5), and none of its own. */
const APPROVALS = /^(?:default|[0-5])$/;

/** "As the default (N)", none, then 1–5: every row's options. */
function approvalChoices(needed: number) {
  return [
    option('default', text.policyModal.approvalsDefault({ count: needed })),
    option('0', text.policyModal.approvalsNone),
    ...[1, 2, 3, 4, 5].map((count) => option(String(count), text.policyModal.approvalsCount({ count }))),
  ];
}

/** The part "Per action": a line of why, then two inputs per class (15 blocks). */
export function actionRowBlocks(policy: Policy): KnownBlock[] {
  const words = classWords();
  const rows = rowsOf(policy);
  const choices = approvalChoices(policy.needed);
  const required = option(REASON_REQUIRED, text.policyModal.reasonRequired);
  return [
    section(text.policyModal.actionsIntro),
    ...ACTION_CLASSES.flatMap((actionClass) => {
      const ids = POLICY_IDS.action[actionClass];
      const row = rows[actionClass];
      const shown = choices.find((choice) => choice.value === String(row.approvals)) ?? choices[0];
      const { label, covers } = words[actionClass];
      return [
        inputBlock(
          ids.approvals,
          label,
          {
            type: 'static_select',
            options: choices,
            ...(shown === undefined ? {} : { initial_option: shown }),
          },
          { optional: true, hint: covers },
        ),
        inputBlock(
          ids.reason,
          // The label is this catalog's own words, not outside text.
          text.policyModal.rowReasonLabel({ action: markup(label) }),
          // Slack refuses an empty `initial_options`.
          { type: 'checkboxes', options: [required], ...(row.reason ? { initial_options: [required] } : {}) },
          { optional: true },
        ),
      ];
    }),
  ];
}

/**
 * The rows of a submission, and an error on a row whose count is none of those offered. A class whose
 * row was not submitted (a modal opened before the rows existed) has no row: it stays as saved.
 */
export function readRows(values: ViewState): { rows: ActionRows; errors: Record<string, string> } {
  const rows: ActionRows = {};
  const errors: Record<string, string> = {};
  for (const actionClass of ACTION_CLASSES) {
    const ids = POLICY_IDS.action[actionClass];
    if (values[ids.approvals] === undefined) continue;
    const chosen = stateOf(values, ids.approvals).selected_option?.value ?? 'default';
    if (!APPROVALS.test(chosen)) {
      errors[ids.approvals] = text.policyModal.approvalsUnknown;
      continue;
    }
    rows[actionClass] = {
      approvals: chosen === 'default' ? 'default' : Number(chosen),
      reason: stateOf(values, ids.reason).selected_options?.some((o) => o.value === REASON_REQUIRED) ?? false,
    };
  }
  return { rows, errors };
}

/**
 * `policy` with the submitted rows: each class's approvals and reason as its row says, its other
 * fields (`approvers`, `expiryHours`) as they were, and the switch of a class that has one (see above).
 */
export function withRows(policy: Policy, rows: ActionRows): Policy {
  let saved: Policy = policy;
  const actions: Record<string, Record<string, unknown> | undefined> = { ...policy.actions };
  for (const actionClass of ACTION_CLASSES) {
    const row = rows[actionClass];
    if (row === undefined) continue;
    const { approvals: _replaced, reason, ...kept } = policy.actions[actionClass] ?? {};
    const switched = switchedTo(actionClass, row.approvals !== 0);
    const count =
      row.approvals === 'default' || (switched !== undefined && row.approvals === 0)
        ? {}
        : { approvals: row.approvals };
    // An unchecked box is the default, optional; an `optional` the YAML spelt out stays.
    const why = row.reason ? { reason: REASON_REQUIRED } : reason === 'optional' ? { reason } : {};
    const rules = { ...kept, ...count, ...why };
    if (Object.keys(rules).length === 0) delete actions[actionClass];
    else actions[actionClass] = rules;
    if (switched !== undefined) saved = { ...saved, ...switched };
  }
  return { ...saved, actions: Actions.parse(actions) };
}
