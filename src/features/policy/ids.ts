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
    ordersNeedApproval: 'approvals.policy.orders_need_approval',
    recordChangesNeedApproval: 'approvals.policy.record_changes_need_approval',
    recordChangeExemptTypes: 'approvals.policy.record_change_exempt_types',
    recordChangeExemptUsers: 'approvals.policy.record_change_exempt_users',
    validationPublishing: 'approvals.policy.validation_publishing',
    assistantAnswers: 'approvals.policy.assistant_answers',
    assistantLinkHosts: 'approvals.policy.assistant_link_hosts',
    watchManagers: 'approvals.policy.watch_managers',
    language: 'approvals.policy.language',
  },
} as const;
