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
  /** A request waiting for its reason or its Break glass (value: the stash id, stash.ts). */
  giveReason: 'approvals.reason.give',
  reasonModal: 'approvals.reason.modal',
  reasonBlock: 'approvals.reason.text',
  breakGlass: 'approvals.break-glass',
} as const;
