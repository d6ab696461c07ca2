import { ACTION_CLASSES, type ActionClass } from './classes.js';

/** The two blocks of one class's row in "Per action" (action-rows.ts): its approvals and its reason. */
function rowIds(actionClass: ActionClass) {
  return {
    approvals: `approvals.policy.action.${actionClass}.approvals`,
    reason: `approvals.policy.action.${actionClass}.reason`,
  };
}

/**
 * The only place the policy modal's view and block ids live. The values keep the `approvals.` prefix
 * they had when the policy was part of the approvals feature: a modal opened before an upgrade still
 * submits after it.
 */
export const POLICY_IDS = {
  modal: 'approvals.policy.modal',
  field: {
    approvers: 'approvals.policy.approvers',
    approverGroup: 'approvals.policy.group',
    needed: 'approvals.policy.needed',
    expiry: 'approvals.policy.expiry',
    requesters: 'approvals.policy.requesters',
    requesterUsers: 'approvals.policy.requester_users',
    channel: 'approvals.policy.channel',
    admins: 'approvals.policy.admins',
    orderers: 'approvals.policy.orderers',
    ordererUsers: 'approvals.policy.orderer_users',
    // Retired: the rows of `order` and `record` replaced these switches, and the row of `publish` the
    // select of `validationPublishing` (action-rows.ts). A modal opened before the rows existed still
    // submits them, and form.ts still reads them then.
    ordersNeedApproval: 'approvals.policy.orders_need_approval',
    recordChangesNeedApproval: 'approvals.policy.record_changes_need_approval',
    recordChangeExemptTypes: 'approvals.policy.record_change_exempt_types',
    recordChangeExemptUsers: 'approvals.policy.record_change_exempt_users',
    // Retired too (see above).
    validationPublishing: 'approvals.policy.validation_publishing',
    assistantAnswers: 'approvals.policy.assistant_answers',
    assistantLinkHosts: 'approvals.policy.assistant_link_hosts',
    watchManagers: 'approvals.policy.watch_managers',
    language: 'approvals.policy.language',
  },
  /** One row per action class: `approvals.policy.action.revoke.approvals` and `….revoke.reason`. */
  action: Object.fromEntries(
    ACTION_CLASSES.map((actionClass) => [actionClass, rowIds(actionClass)]),
  ) as Record<ActionClass, ReturnType<typeof rowIds>>,
} as const;

/** The blocks of `POLICY_IDS.field` the modal no longer shows (see there). */
export const RETIRED_FIELDS: readonly string[] = [
  POLICY_IDS.field.ordersNeedApproval,
  POLICY_IDS.field.recordChangesNeedApproval,
  POLICY_IDS.field.validationPublishing,
];
