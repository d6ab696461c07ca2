/**
 * The only place the approval feature's action, view and block ids live. Button values carry only
 * the request id (docs/requirements.md R10). Input elements' action ids are derived from their
 * block ids (`inputActionId` in slack/modal.ts).
 */
export const APPROVAL_IDS = {
  approve: 'approvals.approve',
  deny: 'approvals.deny',
  withdraw: 'approvals.withdraw',
  /** The requester's Reveal button for an auth code (value: the request id). */
  reveal: 'approvals.reveal',
  revealModal: 'approvals.reveal.modal',
  actionsBlock: 'approvals.actions',
  denyModal: 'approvals.deny.modal',
  denyReasonBlock: 'approvals.deny.reason',
  policyModal: 'approvals.policy.modal',
  policy: {
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
