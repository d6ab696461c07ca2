import type { TextArea } from './area.js';
import { count } from './numbers.js';

/** What Regdesk says about the approval policy: `/domain policy`, its modal and its changes (see ../index.ts). */
export const policy = {
  // `/domain policy`: the command and the modal (policy/view.ts)
  policyUsage: 'policy [export]',
  policySummary:
    'approvers, who may request and order, DNS record approvals, approvals channel, assistant answers (admins); `export` sends the policy as YAML',
  policyExportTitle: 'Regdesk approval policy (YAML, version 2)',
  policyExportComment:
    'The approval policy of this workspace as one YAML document: edit it and save it with `regdesk policy set`.',
  policyExportSent: ':white_check_mark: The approval policy, as YAML, is in your DM with Regdesk.',
  policyExportOutcome: 'exported the approval policy as YAML',
  policyTitle: 'Approval policy',
  policySubmit: 'Save',
  policyUnreadable:
    ':warning: *The saved policy could not be read*, so sensitive requests, certificate orders and reissues ' +
    'are refused. Below are the strictest settings: check them and save to put a policy in force again.',
  policyRepaired: (p: { fields: readonly string[] }) =>
    ':warning: *Some saved settings are not valid in this version* and hold their strictest value until you ' +
    `save: ${p.fields.join(', ')}.`,
  policySensitiveIntro:
    '*Sensitive actions* (revoke, order cancel, auth code, delegation change, DNSSEC disable and external records) ' +
    'need approval by someone other than the requester. With no approvers set, workspace admins and owners approve.',
  policyCertificatesIntro:
    '*Certificates*: orders, renewals and reissues cost money, and TLS organizations decide what a certificate vouches for.',
  policyAssistantIntro:
    "*Assistant*: where `/ask` answers appear, and which sites they may link to besides the registrar's.",
  policyWatchesIntro:
    '*Watches*: removing a watch silences its alerts, and the digest settings decide where every alert goes. Admins are workspace admins, owners and the Regdesk admins below.',
  policySaving: ':hourglass_flowing_sand: Saving…',
  policySaved: ':white_check_mark: The approval policy is saved and applies to new requests.',

  // The policy modal's field labels; also how a field reset to its strictest value is named (R41)
  labelApprovers: 'Approvers',
  labelApproverGroup: 'Approver user group IDs',
  labelNeeded: 'Approvals needed',
  labelExpiryHours: 'Requests expire after (hours)',
  labelRequesters: 'Who may request',
  labelRequesterUsers: 'Listed requesters',
  labelApprovalsChannel: 'Approvals channel',
  labelOrderers: 'Who may order and reissue',
  labelOrdererUsers: 'Listed orderers',
  labelOrdersNeedApproval: 'Approval for orders',
  labelRecordChangesNeedApproval: 'Approval for DNS record changes',
  labelRecordChangeExemptTypes: 'Record types exempt from approval',
  labelRecordChangeExemptUsers: 'People exempt from approval for records',
  labelValidationPublishing: 'Publishing validation records',
  labelAssistantAnswers: 'Answers go',
  labelAssistantLinkHosts: 'Allowed link hosts',
  labelAdmins: 'Regdesk admins',
  labelWatchManagers: 'Who may remove watches and change digest settings',
  labelLanguage: 'Language',
  labelActions: 'Rules per action class beyond the rows above (regdesk policy set)',
  labelZones: 'Zone overrides (regdesk policy set)',
  labelFreezes: 'Freezes (regdesk policy set)',
  labelEscalateTo: 'Escalation (regdesk policy set)',
  labelMcp: 'Agents through /mcp (regdesk policy set)',

  // The policy modal's hints
  hintApproverGroup: 'Members of these user groups (S…, separated by commas) approve too.',
  hintApprovalsChannel: 'Post requests here instead of where they were asked.',
  hintAssistantLinkHosts: 'Host names separated by commas, e.g. docs.example.com, status.example.com.',
  hintRecordChangeExemptTypes: 'Changes to records of these types apply without a request.',
  hintRecordChangeExemptUsers: 'Their record changes apply without a request.',
  hintAdmins: 'May change this policy and the API key, and export the audit trail.',
  hintLanguage:
    "Approval requests, alerts, digests and follow-up reports in channels use the workspace's language.",

  // The policy modal's options (policy/form.ts, policy/view.ts)
  requestersAnyone: 'Anyone in the workspace',
  requestersApprovers: 'Approvers only',
  requestersListed: 'Listed people (and approvers)',
  orderersMembers: 'Any member (never guests or outside people)',
  orderersApprovers: 'Approvers only',
  orderersListed: 'Listed people only',
  answersSharedPrivate: 'In the thread, but privately in channels shared with other orgs',
  answersChannel: "In the question's thread",
  answersAsker: 'Only to the person who asked',
  watchManagersAdderAndAdmins: 'Whoever added the watch (saved the settings), and admins',
  watchManagersAnyone: 'Any member',
  languageAuto: "Each person's own Slack language (channels in English)",
  // Each language by its own name, as language menus show them.
  languageGerman: 'Deutsch',
  languageEnglish: 'English',

  // The policy modal's field errors (policy/form.ts)
  notAHostName: (p: { word: string }) =>
    `"${p.word}" is not a host name: give names like docs.example.com, without https:// or a path, separated by commas.`,
  tooManyHosts: (p: { max: number }) => `At most ${p.max} hosts.`,
  approverGroupShape: 'A user group ID looks like S0123ABCD; separate several with commas.',
  orderersNoneListed: 'List who may order certificates, or choose another option above.',
  neededUnmeetable: (p: { listed: number; able: number; onlyApproversAsk: boolean }) =>
    `${count(p.listed, 'listed approver')} can give at most ${count(p.able, 'approval')}` +
    (p.onlyApproversAsk ? ' (only approvers may ask, and nobody approves their own request)' : '') +
    ': list more approvers, add an approver group, or lower this number.',

  // The approvals channel check (channel-probe.ts)
  probeText:
    ':wave: Regdesk is checking that it can post approval requests here. This message removes itself.',
  probeChooseChannel: 'Choose a channel: approval requests are posted where approvers can see them.',
  probeNotInChannel:
    'Regdesk is not in this channel: invite it with `/invite @Regdesk` there, or choose another.',
  probeChannelNotFound:
    'Regdesk cannot post in this conversation (a private channel it is not in): invite it with `/invite @Regdesk`, or choose another.',
  probeArchived: 'This channel is archived; choose another.',
  probeFailed: 'Regdesk could not check that it can post here; try again in a moment.',

  // A policy change, as the audit trail records it (policy/view.ts)
  policyChangeFromUnreadable: (p: { now: string }) => `was unreadable; now ${p.now}`,
  policyFieldChanged: (p: { field: string; before: string; after: string }) =>
    `${p.field}: ${p.before} → ${p.after}`,
  policyValueUnset: 'unset',
  policyNoChange: 'no change',
} satisfies TextArea;
