import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { n } from './numbers.js';

/** What Regdesk says about the workspace: App Home, keys, audit, install, following (see ../index.ts). */
export const workspace = {
  // `/domain key`: the command's usage, help line and refusals
  keyUsage: 'key',
  keySummary: "set, replace or remove this workspace's registrar API key (workspace admins)",
  keyNotAdmin:
    ':lock: Only workspace admins, owners and Regdesk admins can change the registrar API key. Ask one of them to run `/domain key`.',
  keySlackTooSlow: 'Slack took too long to answer; please run `/domain key` again.',

  // The stored key's status, in the key modal and on App Home (`who` and `when` arrive as mrkdwn)
  keyStatusSet: (p: { masked: string; who: Markup; when: Markup; readable: boolean }) =>
    `Stored key \`${p.masked}\`, set by ${p.who} on ${p.when}.${p.readable ? '' : ' :warning: It cannot be opened with the current vault key; set it again.'}`,
  keyStatusUnknownTime: 'an unknown time',
  keyStatusSandbox: "No key of this workspace's own is stored: Regdesk uses the sandbox's demo key.",
  keyStatusMissing: 'No key is stored. Registrar commands will not work until an admin adds one.',

  // The key modal: title, fields, and the notice while the registrar checks the key
  keyModalTitle: 'Registrar API key',
  keyModalSubmit: 'Save',
  keyFieldLabel: 'API key',
  keyFieldLabelNew: 'New API key',
  keyFieldPlaceholder: 'Paste the registrar API key',
  keyFieldHint:
    'Checked with the registrar before it is stored, then kept encrypted. Nobody can read it back.',
  keyRemoveLabel: 'Remove',
  keyRemoveOption: 'Remove the stored key',
  keyChecking: ':hourglass_flowing_sand: Checking the key with the registrar…',

  // The key modal's field errors (response_action: errors)
  keyBothGiven: 'Either paste a new key or remove the stored one, not both.',
  keyNotGiven: 'Paste the API key to store.',
  keyHasSpaces: 'An API key has no spaces or line breaks.',

  // The outcome of a key submission
  keyChangeNotAdmin: ':lock: Only workspace admins and owners can change the registrar API key.',
  keyRemoved: ':wastebasket: The stored key was removed.',
  keyNoneStored: 'No key was stored.',
  keyAccepted: (p: { masked: string | undefined }) =>
    `:white_check_mark: The registrar accepted the key${p.masked === undefined ? '' : ` \`${p.masked}\``}. Regdesk now uses it for this workspace.`,
  keyRejected: ':x: The registrar rejected this key (401 Unauthorized). Nothing was stored.',
  keyUncheckable:
    ':x: The registrar could not be reached to check the key; try again in a moment. Nothing was stored.',

  // Why a registrar call has no key to use (NoApiKeyError, UnreadableApiKeyError)
  noApiKey: 'This workspace has no registrar API key yet. A workspace admin can add one with `/domain key`.',
  unreadableApiKey:
    "This workspace's stored API key cannot be opened with the current vault key. " +
    'A workspace admin can set it again with `/domain key`.',

  // App Home: key status, quick actions, pending approvals, running jobs, recent activity
  homeHeader: 'Regdesk',
  homeKeySection: (p: { status: Markup }) => `*Registrar API key*\n${p.status}`,
  homeKeyButton: 'Registrar API key',
  homeRefreshButton: 'Refresh',
  homePendingHeader: (p: { count: number }) => `Pending approvals (${p.count})`,
  homeNothingPending: 'Nothing is waiting for approval.',
  homeMorePending: (p: { count: number }) => `…and ${p.count} more.`,
  homeRunningHeader: 'Running jobs',
  homeNothingRunning: 'No pending work is being followed.',
  homeRunningExecution: (p: { id: string }) => `:gear: Executing approved request \`${p.id}\``,
  homeRunningFollow: (p: { kind: string; resource: string; check: number }) =>
    `:hourglass_flowing_sand: Following ${
      p.kind === 'dnssec' ? 'DNSSEC of' : p.kind === 'record' ? 'the record change' : 'certificate'
    } \`${p.resource}\` (check ${n(p.check)})`,
  homeRecentHeader: 'Recent activity',
  nothingRecorded: 'Nothing recorded yet.',

  // App Home on a person's first visit
  welcomeHeader: 'Welcome to Regdesk',
  welcomeIntro:
    'Regdesk runs your domains, DNS and TLS certificates from Slack. Look-ups answer only you, with a ' +
    '*Share in channel* button; dangerous actions (revocations, auth codes, delegation and DNSSEC ' +
    "changes) need a second person's approval, and everything is audited.",
  welcomeCommands:
    '*Commands*\n' +
    '• `/domain check NAME…` availability of up to 50 names\n' +
    '• `/domain info DOMAIN` registration, expiry and nameservers\n' +
    '• `/dns records DOMAIN` and `/dns dnssec DOMAIN` zones and DNSSEC\n' +
    '• `/tls order`, `/tls show ID` certificates, followed until issued\n' +
    '• `/domain watch add DOMAIN…`, `/tls watch add ID…` alerts before expiries and on drift\n' +
    "• `/ask QUESTION` the registrar's assistant, answered in a thread\n" +
    '• `/domain help`, `/dns help`, `/tls help` everything else',
  welcomeAdmins: 'Admins: set the registrar API key below, and approvers with `/domain policy`.',

  // App Home for guests and people from outside the workspace
  restrictedIntro:
    "Regdesk runs this workspace's domains, DNS and TLS certificates from Slack, with a second person's " +
    'approval for dangerous changes.',
  restrictedNoAccess: (p: { reason: string }) => `:lock: ${p.reason} You have no access to approvals here.`,
  restrictedNote:
    'Pending approvals, running work and the audit trail are for members of this workspace only.',

  // `/domain audit`: usage, help line, the trail's title and note
  auditUsage: 'audit [DOMAIN|export]',
  auditSummary:
    "this workspace's recent audit trail, optionally for one domain or certificate id; `export` sends admins the whole trail",
  auditTitle: 'Audit trail',
  auditTitleFor: (p: { target: string }) => `Audit trail: ${p.target}`,
  auditEntries: (p: { count: number }) => `Audit trail (${p.count} entries)`,
  auditHashesNote: 'Parameters are recorded as SHA-256 hashes; secrets are never recorded.',

  // An audit line: "<when> <who> <did what> `operation` on `target` — …" (`when`, `actor` are mrkdwn)
  auditLine: (p: { when: Markup; actor: Markup; action: string }) => `${p.when} ${p.actor} ${p.action}`,
  auditOnTarget: (p: { target: string }) => `on ${p.target}`,

  // What each audited action reads as in an audit line
  auditRequested: 'requested',
  auditApproved: 'approved',
  auditDenied: 'denied',
  auditWithdrew: 'withdrew',
  auditExpired: 'expired',
  auditStarted: 'started',
  auditSucceeded: 'succeeded',
  auditFailed: 'failed',
  auditSetKey: 'set the API key',
  auditReplacedKey: 'replaced the API key',
  auditRemovedKey: 'removed the API key',
  auditChangedPolicy: 'changed the approval policy',
  auditRevealed: 'revealed their auth code',
  auditReminded: 'reminded the approvers (the request was still undecided)',
  auditBrokeGlass: 'broke the glass of a freeze for',
  auditEscalated: 'told the escalation contacts of',
  auditUninstalled: 'uninstalled',
  auditRefused: 'was refused',
  auditOrdered: 'ordered',
  auditReissued: 'reissued',
  auditExported: 'exported the audit trail',
  auditAddedWatch: 'added a watch',
  auditRemovedWatch: 'removed the watch',
  auditChangedWatchSettings: 'changed the watch settings',

  // `/domain audit export`: the file sent by DM, what the trail records of it, and the reply
  auditExportTitle: (p: { count: number }) => `Regdesk audit trail (${p.count} entries)`,
  auditExportComment: 'The audit trail of this workspace, oldest first: one JSON object per line.',
  auditExportOutcome: (p: { count: number }) => `${p.count} entries`,
  auditExportSent: (p: { count: number }) =>
    `:white_check_mark: The audit trail (${p.count} entries) is in your DM with Regdesk.`,

  // Following a change: announced in the channel, or told privately where Regdesk cannot post
  followNote: 'Regdesk follows it and reports in this thread.',
  followNotPosted: 'Regdesk could not post it in the channel.',
  followToldPrivately: (p: { why: string; following: boolean }) =>
    `${p.why}${p.following ? ' Regdesk follows it and tells you in your DM with Regdesk when it settles.' : ''}`,
  followNotStarted: (p: { reason: string; command: string }) =>
    `${p.reason}\nRegdesk could not start following it; \`${p.command}\` shows its progress.`,

  // What following reports in the thread (`resource` and `when` arrive as mrkdwn)
  followAddressed: (p: { user: string; text: string }) => `<@${p.user}> ${p.text}`,
  followStopped: (p: { resource: string; reason: string }) =>
    `:warning: Stopped following ${p.resource}: ${p.reason}`,
  followSettled: (p: { when: Markup }) => `Settled ${p.when}`,
  followDeadline: (p: { resource: string; deadline: Markup; command: string }) =>
    `:alarm_clock: ${p.resource} was still pending at the deadline (${p.deadline}); Regdesk stopped following it. Check it with \`${p.command}\`.`,
} satisfies TextArea;
