import { text } from '../../text/index.js';
import type { Policy } from './policy.js';

/**
 * What a save changed, field by field (`needed: 1 → 2`), for the audit trail (R12): the policy holds
 * user and channel ids, never a secret. An unreadable policy before the save is said so.
 */
export function policyChange(before: Policy | undefined, after: Policy): string {
  if (before === undefined)
    return text.approvals.policyChangeFromUnreadable({ now: JSON.stringify(after) }).slice(0, 2000);
  const unset = text.approvals.policyValueUnset;
  const changes = (Object.keys(after) as (keyof Policy)[])
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) =>
      text.approvals.policyFieldChanged({
        field,
        before: JSON.stringify(before[field]) ?? unset,
        after: JSON.stringify(after[field]) ?? unset,
      }),
    );
  const removed = (Object.keys(before) as (keyof Policy)[])
    .filter((field) => !(field in after) && before[field] !== undefined)
    .map((field) =>
      text.approvals.policyFieldChanged({ field, before: JSON.stringify(before[field]), after: unset }),
    );
  const all = [...changes, ...removed];
  return (all.length === 0 ? text.approvals.policyNoChange : all.join('; ')).slice(0, 2000);
}
