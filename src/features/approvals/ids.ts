/** The only place the approval feature's action, view and block ids live. Button values carry only the request id. */
export const APPROVAL_IDS = {
  approve: 'approvals.approve',
  deny: 'approvals.deny',
  withdraw: 'approvals.withdraw',
  actionsBlock: 'approvals.actions',
  denyModal: 'approvals.deny.modal',
  denyReasonBlock: 'approvals.deny.reason',
  denyReasonInput: 'approvals.deny.reason.value',
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
  },
} as const;

/** Input blocks of the policy modal use `<block id>.value` as their action id. */
export const valueId = (blockId: string): string => `${blockId}.value`;
