import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count } from './numbers.js';

/** Said to the presser after a step the public message could not show (R30, R31). */
const NOT_SHOWN = ' The request message could not be updated, so it may still show buttons.';

/** Why a request from before a data incident is closed instead of approved or run (R40). */
const STALE_REQUEST =
  "Regdesk's data was lost or restored from an older copy after this request was made, so it cannot tell whether the request already ran. It was closed; ask again if it is still needed.";

/** What Regdesk says about approvals (see ../index.ts). */
export const approvals = {
  // The request message: header, lines, buttons, context (blocks.ts)
  headerPending: ':lock: Approval needed',
  headerDecided: ':lock: Approval request',
  asks: (p: { requester: string; channel: string | undefined; summary: string }) =>
    `<@${p.requester}> asks${p.channel === undefined ? '' : ` in <#${p.channel}>`} to *${p.summary}*.`,
  approverGroupLine: (p: { group: string }) => `Approvers: <!subteam^${p.group}>`,
  adminsAsked: (p: { toApprover: boolean; named: Markup | undefined; more: number }) =>
    (p.toApprover
      ? 'You are asked as a workspace admin or owner: '
      : 'Approvers: the workspace admins and owners, ') +
    'the policy lists no approvers (list them in `/domain policy`).' +
    (p.named === undefined ? '' : ` Also asked: ${p.named}${p.more > 0 ? ` and ${p.more} more` : ''}.`),
  approveButton: 'Approve',
  approveButtonLabel: (p: { summary: string }) => `Approve: ${p.summary}`,
  approveConfirmTitle: 'Approve this action?',
  approveConfirmText: (p: { summary: string; undo: 'never' | 'revert' | undefined }) =>
    `This will *${p.summary}*.${p.undo === 'never' ? ' It cannot be undone.' : p.undo === 'revert' ? ' The outcome offers *Revert*.' : ''}`,
  approveConfirmButton: 'Approve',
  approveConfirmCancel: 'Cancel',
  denyButton: 'Deny',
  denyButtonLabel: (p: { summary: string }) => `Deny: ${p.summary}`,
  withdrawButton: 'Withdraw',
  withdrawButtonLabel: (p: { summary: string }) => `Withdraw: ${p.summary}`,
  requestContext: (p: { requested: Markup; expires: Markup | undefined; needed: number; id: string }) =>
    `Requested ${p.requested}` +
    (p.expires === undefined ? '' : ` · expires ${p.expires}`) +
    (p.needed === 0
      ? ' · runs without approval under the policy'
      : ` · needs ${count(p.needed, 'approval')} from someone other than the requester`) +
    ` · \`${p.id}\``,
  messageFallback: (p: { summary: string; state: string }) => `Approval request: ${p.summary} (${p.state})`,

  // A request's state, as its message shows it (blocks.ts)
  statePending: (p: { remaining: number; approvedSoFar: Markup | undefined }) =>
    `:hourglass_flowing_sand: Waiting for ${count(p.remaining, 'more approval')}` +
    (p.approvedSoFar === undefined ? '' : ` (approved so far by ${p.approvedSoFar})`),
  stateApproved: (p: { approvers: Markup }) => `:white_check_mark: Approved by ${p.approvers}. Executing…`,
  stateExecuting: (p: { approvers: Markup }) => `:gear: Approved by ${p.approvers}. Executing…`,
  stateSucceeded: (p: { outcome: string; approvers: Markup }) =>
    `:white_check_mark: Done. ${p.outcome} (approved by ${p.approvers})`,
  stateFailed: (p: { outcome: string; approvers: Markup }) =>
    `:x: Failed: ${p.outcome} (approved by ${p.approvers})`,
  stateDenied: (p: { by: string; reason: string }) =>
    `:no_entry: Denied by <@${p.by}>${p.reason === '' ? '' : `: ${p.reason}`}`,
  stateExpired: ':alarm_clock: Expired without enough approvals. Nothing was done.',
  stateWithdrawn: (p: { requester: string }) =>
    `:leftwards_arrow_with_hook: Withdrawn by <@${p.requester}>. Nothing was done.`,
  nobody: 'nobody',

  // The approvers' reminder (blocks.ts)
  reminder: (p: { requester: string; summary: string; channel: string; id: string; expires: Markup }) =>
    `:alarm_clock: Reminder: <@${p.requester}> still needs approval to *${p.summary}* ` +
    `(in <#${p.channel}>, \`${p.id}\`). It expires ${p.expires}.`,

  // A transfer auth code: the requester's DM and the modal that reveals it (blocks.ts)
  authCodeReady: (p: { domain: string }) => `:key: Your transfer auth code for ${p.domain} is ready.`,
  authCodeOnlyYou: 'Only you can reveal it, as often as you need within 24 hours.',
  revealButton: 'Reveal',
  revealButtonLabel: (p: { domain: string }) => `Reveal the auth code for ${p.domain}`,
  revealTitle: 'Transfer auth code',
  revealClose: 'Close',
  revealIntro: (p: { domain: string }) => `Transfer auth code for *${p.domain}*:`,
  revealKeepPrivate:
    'Keep it private: anyone with it can transfer the domain away. Regdesk keeps it for 24 hours.',

  // The deny modal (blocks.ts, actions.ts)
  denyTitle: 'Deny request',
  denySubmit: 'Deny',
  denyQuestion: 'Deny this request? The requester is told your reason.',
  denyReasonLabel: 'Reason',
  denyReasonPlaceholder: 'Tell the requester why',
  denyReasonMissing: 'Give the requester a reason.',

  // Asking for approval (request.ts, requesting.ts)
  requested: (p: { channel: string; id: string }) =>
    `:lock: Approval requested in <#${p.channel}>: another approver has to approve before anything happens. ` +
    `You can withdraw it there. (\`${p.id}\`)`,
  // The policy's reason and Break glass (request.ts, detours.ts)
  reasonNeeded: 'The policy asks why: give a reason of at least 10 characters. Nothing was requested yet.',
  reasonAsked: (p: { summary: string }) =>
    `The policy asks why before *${p.summary}* is requested: give a reason (at least 10 characters). Nothing was requested yet.`,
  giveReasonButton: 'Give a reason…',
  reasonModalTitle: 'Why?',
  reasonModalSubmit: 'Request',
  reasonModalIntro: (p: { summary: string }) => `*${p.summary}*`,
  reasonLabel: 'Reason',
  reasonHint: 'Shown in the request and kept in the audit trail. At least 10 characters.',
  reasonTooShort: (p: { min: number }) => `Give a reason of at least ${p.min} characters.`,
  reasonStashGone:
    'This request was not made: it waited too long for its reason or was already sent. Ask again.',
  breakGlassOffer:
    '*Break glass* asks for it anyway: it needs one approval more than usual, at least one of them from a workspace admin or owner, and the break is audited.',
  breakGlassButton: 'Break glass',
  breakGlassConfirmTitle: 'Break glass?',
  breakGlassConfirmText: (p: { name: string }) =>
    `This asks for approval during *${p.name}* anyway, with one approval more than usual (one from a workspace admin or owner). The break is audited.`,
  breakGlassConfirmButton: 'Request anyway',
  breakGlassLine:
    ':rotating_light: Made during a freeze (*Break glass*): one approval more than usual, at least one of them from a workspace admin or owner.',
  breakGlassNeedsAdmin:
    'This request was made during a freeze: its last approval must come from a workspace admin or owner. Nothing was recorded.',
  outcomeBreakGlassNoAdmin:
    'Not done: a request made during a freeze needs an approval from a workspace admin or owner, and none of its approvers is one now.',
  justificationLine: (p: { reason: string }) => `*Reason:* ${p.reason}`,
  stateAtOnce: ':zap: The policy needs no approval for this: executing…',
  noApprovalNeeded: 'nobody (the policy needs no approval for this)',
  // Escalation at 80 % of a request's lifetime (service.ts)
  escalation: (p: { summary: string; channel: Markup; remaining: number; expires: Markup; id: string }) =>
    `:rotating_light: *${p.summary}* in ${p.channel} still needs ${count(p.remaining, 'approval')} and expires ${p.expires}. You are told as the policy's escalation contact. \`${p.id}\``,
  frozen: (p: { name: string; until: Markup }) =>
    `:snowflake: *${p.name}*: this kind of action is frozen until ${p.until}. Nothing was done.`,
  notInDirectMessage:
    'Approval requests are posted where approvers can see them, not in a direct message: ask in a channel ' +
    '(invite @Regdesk to it with `/invite @Regdesk`), or set an approvals channel in `/domain policy`.',
  alreadyAsked: (p: { id: string; channel: string | undefined }) =>
    `You already asked for this: request \`${p.id}\` is still waiting for approval` +
    `${p.channel === undefined ? '' : ` in <#${p.channel}>`}. Nothing new was requested; withdraw that one to ask again.`,
  tooManyPending: (p: { max: number }) =>
    `You already have ${p.max} approval requests waiting in this workspace: withdraw one, ` +
    'or wait until one is decided, before asking for more. Nothing was requested.',
  quotaUsedUp: (p: { minutes: number }) =>
    `The registrar's limit for this action is used up; try again in ${count(p.minutes, 'minute')}.`,
  cannotPostInApprovalsChannel: (p: { channel: string }) =>
    `Regdesk cannot post in the approvals channel <#${p.channel}>: invite @Regdesk there with ` +
    '`/invite @Regdesk`, or set another approvals channel in `/domain policy`. Nothing was requested.',

  // Deciding: what the presser hears (service.ts)
  refused: (p: { reason: string }) => `:lock: ${p.reason}`,
  requestGone: 'This approval request no longer exists.',
  staleRequest: STALE_REQUEST,
  staleNothingDone: `Nothing was done: ${STALE_REQUEST}`,
  cannotApproveOwn: 'You cannot approve your own request; another approver has to.',
  alreadyApproved: 'You have already approved this request.',
  alreadyInState: (p: { state: string }) => `This request is already ${p.state}.`,
  gone: 'gone',
  expiredNothingDone: 'This request has expired; nothing was done.',
  approvalRecordedNotShown: `Your approval is recorded.${NOT_SHOWN}`,
  approvedNotShown: `Approved: the action is running, and the requester will be told.${NOT_SHOWN}`,
  denyRefused: (p: { reason: string }) =>
    `:lock: ${p.reason} Only approvers can deny; the requester can withdraw.`,
  deniedNotShown: `Denied, and the requester is told.${NOT_SHOWN}`,
  onlyRequesterWithdraws: 'Only the person who asked can withdraw a request.',
  withdrawnNotShown: `Withdrawn.${NOT_SHOWN}`,

  // Revealing an auth code (service.ts)
  revealGone: 'This request no longer exists; ask for a new auth code.',
  revealRefusedAudit: 'reveal refused: not the requester',
  revealNotRequester: ':lock: Only the person who asked for this auth code can reveal it.',
  revealExpired:
    'This auth code has expired: Regdesk keeps a code for 24 hours. Ask for a new one with `/domain authcode`.',

  // What the requester is told by DM (service.ts, updates.ts)
  requestDenied: (p: { summary: string; user: string; reason: string }) =>
    `:no_entry: Your request to ${p.summary} was denied by <@${p.user}>: ${p.reason}`,
  requestWithdrawn: (p: { summary: string }) =>
    `:leftwards_arrow_with_hook: You withdrew your request to ${p.summary}; nothing was done.`,
  requestExpired: (p: { summary: string }) =>
    `:alarm_clock: Your request to ${p.summary} expired without enough approvals; nothing was done.`,
  requestDone: (p: { summary: string; outcome: string }) =>
    `:white_check_mark: Your request to ${p.summary} is done: ${p.outcome}`,
  requestFailed: (p: { summary: string; outcome: string }) =>
    `:x: Your request to ${p.summary} failed: ${p.outcome}`,

  // Why an approved request did not run: its failure outcome (execution.ts, service.ts)
  outcomeInterrupted: 'interrupted while executing; check the resource before asking again',
  outcomeTooLate:
    'it could not run until more than an hour after the request expired, so nothing was done; ask again if it is still needed',
  outcomeParamsChanged: 'the stored parameters differ from what was approved',
  outcomeQuotaSpent: "the registrar's daily limit for this action is used up",
  outcomeUnexpected: 'unexpected error; nothing more was attempted',
  outcomeRequesterNoLonger: (p: { reason: string }) =>
    `the requester may no longer ask for this (${p.reason})`,
  outcomeApproverNoLonger: 'an approver may no longer approve',
  outcomeStricterPolicy: (p: { needed: number }) =>
    `the policy now asks ${p.needed} approvals for this kind of action, more than this request has: ask again`,

  // A damaged stored request (record.ts)
  corruptRequest: (p: { id: string }) =>
    `The stored approval request \`${p.id}\` is damaged, so nothing can be done with it. Ask for the action again.`,

  // Who may do what: the acts and people refusals name (permissions.ts)
  actLookup: 'use Regdesk',
  actView: 'see approvals and the audit trail',
  actOrder: 'order certificates',
  actReissue: 'reissue certificates',
  actOrganization: 'create or edit TLS organizations',
  actRequest: 'request sensitive actions',
  actApprove: 'approve requests',
  actExport: 'export the audit trail',
  actPolicy: 'change the approval policy',
  actKey: 'change the registrar API key',
  outsiderGuests: 'Guests',
  outsiderExternal: 'People from outside this workspace (Slack Connect)',
  outsiderDeleted: 'Deactivated accounts',
  outsiderBots: 'Bots',

  // Refusal reasons (permissions.ts)
  policyUnreadableRefusal: (p: { act: string }) =>
    `This workspace's approval policy could not be read, so nobody may ${p.act} until an admin ` +
    'opens `/domain policy` and saves it again. Nothing was done.',
  accountUnconfirmed:
    'Regdesk could not confirm your account with Slack, so it did nothing. Try again in a moment.',
  outsiderCannot: (p: { who: string; act: string }) => `${p.who} cannot ${p.act}.`,
  onlyApproversMay: (p: { act: string }) => `Only approvers may ${p.act} in this workspace's policy.`,
  onlyListedMay: (p: { act: string }) => `Only the people listed in this workspace's policy may ${p.act}.`,
  onlyListedRequestersMay: (p: { act: string }) =>
    `Only listed requesters and approvers may ${p.act} in this workspace's policy.`,
  notApproverAdminsApprove:
    "You are not an approver: with none named in this workspace's policy, workspace admins and owners approve.",
  notApprover: "You are not an approver for sensitive actions in this workspace's policy.",
  onlyAdminsCan: (p: { act: string }) => `Only workspace admins, owners and Regdesk admins can ${p.act}.`,
} satisfies TextArea;
