import { text } from '../../text/index.js';
import { type ActionRow, rowsOf } from './action-rows.js';
import { ACTION_CLASSES } from './classes.js';
import type { Policy } from './policy.js';

/**
 * Fields said per action class instead (`classChanges`): the classes themselves, and the switches the
 * rows of `record`, `order` and `publish` show as their approvals (action-rows.ts).
 */
const SAID_PER_CLASS: ReadonlySet<keyof Policy> = new Set<keyof Policy>([
  'actions',
  'recordChangesNeedApproval',
  'ordersNeedApproval',
  'validationPublishing',
]);

/** A row's approvals as the trail says them: the count, or the default with the count it meant then. */
function approvalsWord(row: ActionRow, policy: Policy): string {
  return row.approvals === 'default'
    ? text.policyModal.changeDefault({ count: policy.needed })
    : String(row.approvals);
}

/**
 * What a save changed per action class, one line each (`record: approvals 1 → 2, reason required`):
 * its approvals and reason as `/domain policy` shows them (a switched-off class is 0), then any other
 * field of the class (`expiryHours 4 → 8`).
 */
function classChanges(before: Policy, after: Policy): string[] {
  const was = rowsOf(before);
  const now = rowsOf(after);
  const unset = text.policy.policyValueUnset;
  return ACTION_CLASSES.flatMap((actionClass) => {
    const changes: string[] = [];
    if (was[actionClass].approvals !== now[actionClass].approvals)
      changes.push(
        text.policyModal.changeApprovals({
          before: approvalsWord(was[actionClass], before),
          after: approvalsWord(now[actionClass], after),
        }),
      );
    if (was[actionClass].reason !== now[actionClass].reason)
      changes.push(
        now[actionClass].reason
          ? text.policyModal.changeReasonRequired
          : text.policyModal.changeReasonOptional,
      );
    const old: Record<string, unknown> = before.actions[actionClass] ?? {};
    const next: Record<string, unknown> = after.actions[actionClass] ?? {};
    const fields = [...new Set([...Object.keys(old), ...Object.keys(next)])].filter(
      (field) => field !== 'approvals' && field !== 'reason',
    );
    for (const field of fields)
      if (JSON.stringify(old[field]) !== JSON.stringify(next[field]))
        changes.push(
          text.policyModal.changeField({
            field,
            before: JSON.stringify(old[field]) ?? unset,
            after: JSON.stringify(next[field]) ?? unset,
          }),
        );
    return changes.length === 0 ? [] : [text.policyModal.changeClass({ actionClass, changes })];
  });
}

/**
 * What a save changed, field by field (`needed: 1 → 2`), then class by class (`classChanges`), for the
 * audit trail (R12): the policy holds user and channel ids, never a secret. An unreadable policy before
 * the save is said so.
 */
export function policyChange(before: Policy | undefined, after: Policy): string {
  if (before === undefined)
    return text.policy.policyChangeFromUnreadable({ now: JSON.stringify(after) }).slice(0, 2000);
  const unset = text.policy.policyValueUnset;
  const changes = (Object.keys(after) as (keyof Policy)[])
    .filter((field) => !SAID_PER_CLASS.has(field))
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) =>
      text.policy.policyFieldChanged({
        field,
        before: JSON.stringify(before[field]) ?? unset,
        after: JSON.stringify(after[field]) ?? unset,
      }),
    );
  const removed = (Object.keys(before) as (keyof Policy)[])
    .filter((field) => !SAID_PER_CLASS.has(field) && !(field in after) && before[field] !== undefined)
    .map((field) =>
      text.policy.policyFieldChanged({ field, before: JSON.stringify(before[field]), after: unset }),
    );
  const all = [...changes, ...removed, ...classChanges(before, after)];
  return (all.length === 0 ? text.policy.policyNoChange : all.join('; ')).slice(0, 2000);
}
