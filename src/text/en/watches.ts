import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** Days until an expiry in the one day count (src/shared/days.ts): 0 is the last day itself. */
const inDays = (days: number): string => (days === 0 ? 'today' : `in ${count(days, 'day')}`);

/** What Regdesk says about watches (see ../index.ts). */
export const watches = {
  // `/domain watch …` and `/tls watch …`: usage and help
  domainCommandUsage: 'watch add|remove|list|all|settings|digest …',
  domainCommandSummary: 'expiry and drift alerts for domains; digest settings; `digest` posts the digest now',
  tlsCommandUsage: 'watch add|remove|list …',
  tlsCommandSummary: 'expiry, revocation and stuck-order alerts for certificates',
  domainUsage:
    '`/domain watch add DOMAIN…`, `/domain watch remove DOMAIN…`, `/domain watch list`, `/domain watch all`, `/domain watch settings` or `/domain watch digest`.',

  // `/domain watch all`
  watchAllAdminsOnly:
    "Only admins (workspace admins, owners and the Regdesk admins of `/domain policy`) may watch everything the registrar lists: it uses the whole workspace's watch limit. Nothing was added.",
  watchAllNotOffered:
    "Listing the account's zones is not available with this registrar: nothing was added. Watch domains by name with `/domain watch add DOMAIN…`.",
  watchAllOverLimit: (p: { limit: number }) =>
    `The registrar lists more than this workspace may watch (\`WATCH_LIMIT\`, ${n(p.limit)}): nothing was added.`,
  watchAllDone: (p: { domains: number; certificates: number; channel: Markup }) =>
    `Now watching everything the registrar lists for this workspace's key: ${count(p.domains, 'new domain')} and ${count(p.certificates, 'new certificate')}; zones and certificates added later are picked up within the hour. Alerts go to ${p.channel} (or the digest channel).`,
  watchAllNoCertificates: 'The registrar does not list certificates: only zones are watched.',
  watchAllForeign: (p: { ids: string }) => `Not ordered through Regdesk: ${p.ids}.`,
  digestForeign: (p: { ids: string; more: number }) =>
    `Certificates not ordered through Regdesk: ${p.ids}${p.more > 0 ? ` and ${n(p.more)} more` : ''}.`,
  tlsUsage: '`/tls watch add CERTIFICATE_ID…`, `/tls watch remove CERTIFICATE_ID…` or `/tls watch list`.',
  addDomainsUsage: '`/domain watch add DOMAIN…`, e.g. `/domain watch add example.com example.org`.',
  addCertificatesUsage: '`/tls watch add CERTIFICATE_ID…`, e.g. `/tls watch add cert-123`.',
  removeDomainsUsage: '`/domain watch remove DOMAIN…`',
  removeCertificatesUsage: '`/tls watch remove CERTIFICATE_ID…`',
  tooManyDomains: (p: { max: number }) =>
    `at most ${n(p.max)} names per \`/domain watch add\`; add the rest in another command.`,
  tooManyCertificates: (p: { max: number }) => `at most ${n(p.max)} certificate ids per \`/tls watch add\`.`,
  /** `usage` is one of the remove usages above. */
  tooManyToRemove: (p: { max: number; usage: string }) => `at most ${n(p.max)} per ${p.usage}.`,

  // Refusals of the workspace's roles and policy
  locked: (p: { reason: Markup }) => `:lock: ${p.reason}`,
  removalRefused: (p: { items: Markup; more: number }) =>
    `Not removed: ${p.items}${p.more > 0 ? ` and ${n(p.more)} more` : ''}. In this workspace's policy only the person who added a watch and admins (workspace admins, owners and the Regdesk admins of \`/domain policy\`) may remove it; ask one of them.`,
  removalRefusedItem: (p: { name: string; addedBy: string }) => `${p.name} (added by <@${p.addedBy}>)`,
  settingsRefused:
    "In this workspace's policy only admins (workspace admins, owners and the Regdesk admins of `/domain policy`) may change the watch settings (the digest channel decides where every alert goes). Nothing was changed.",
  settingsRefusedBySaver: (p: { setBy: string }) =>
    `In this workspace's policy only <@${p.setBy}>, who saved them, and admins (workspace admins, owners and the Regdesk admins of \`/domain policy\`) may change the watch settings (the digest channel decides where every alert goes). Nothing was changed.`,

  // Adding watches
  domainNotAdded: (p: { name: string; reason: string }) => `:warning: ${p.name} was not added: ${p.reason}.`,
  notCertificateIds: (p: { ids: string }) => `Not a certificate id: ${p.ids}. Nothing was added.`,
  unknownDomainsNotAdded: (p: { names: string }) =>
    `:warning: Not added, the registrar does not know these domains for this workspace's key: ${p.names}.`,
  unknownCertificatesNotAdded: (p: { names: string }) =>
    `:warning: Not added, the registrar does not know these certificates for this workspace's key: ${p.names}.`,
  unreadableNotAdded: (p: { name: string; why: string }) =>
    `:warning: ${p.name} was not added: it could not be read now. ${p.why}`,
  nothingAdded: 'Nothing was added.',
  nothingToAdd: 'Nothing to add.',
  nowWatching: (p: { items: string }) =>
    `:eyes: Now watching ${p.items}: Regdesk looks within a minute and says here if anything is due.`,
  alreadyWatched: (p: { items: string }) => `Already watched: ${p.items}.`,
  overPersonCap: (p: { mine: number; cap: number; more: number }) =>
    `:no_entry: You have added ${n(p.mine)} of the ${n(p.cap)} watches one person may add in this workspace; ${n(p.more)} more would pass that. Nothing was added. Remove some of yours with \`/domain watch remove\` or \`/tls watch remove\`, or ask an admin (admins are held only by the workspace's limit).`,
  overWorkspaceLimit: (p: { total: number; limit: number; more: number }) =>
    `:no_entry: This workspace watches ${n(p.total)} of at most ${n(p.limit)} domains and certificates; ${n(p.more)} more would pass the limit. Nothing was added. Remove some with \`/domain watch remove\` or \`/tls watch remove\`.`,
  paceExceeded: 'Regdesk is reading a lot with this key right now; try again in a minute.',

  // Removing watches
  noLongerWatching: (p: { items: string }) => `:wastebasket: No longer watching ${p.items}.`,
  notWatched: (p: { ids: string }) => `Not watched: ${p.ids}.`,

  // The audit trail's outcomes (shown by the audit log)
  auditAlertsIn: (p: { channel: string }) => `alerts in <#${p.channel}>`,
  auditRemovalRefused: (p: { addedBy: string }) =>
    `added by ${p.addedBy}; the policy lets only the adder and admins remove it`,
  auditSettingsChanged: (p: { settings: string; before: string }) => `${p.settings} (was ${p.before})`,
  auditSettingsNeverSet: 'never set',
  auditSettings: (p: { channel: string; when: string }) => `channel ${p.channel}, ${p.when}`,
  auditNoChannel: 'none',
  auditNoDigest: 'no digest',
  auditDigestAt: (p: { cadence: string; hour: number; timeZone: string }) =>
    `${p.cadence} ${p.hour}:00 ${p.timeZone}`,

  // Watch lists (`/domain watch list`, `/tls watch list`) and their lines, also in the digest and on App Home
  listTitleDomains: (p: { count: number }) => `Watched domains (${n(p.count)})`,
  listTitleCertificates: (p: { count: number }) => `Watched certificates (${n(p.count)})`,
  listTitleAll: (p: { count: number }) => `Watched domains and certificates (${n(p.count)})`,
  listEmptyDomains: 'Nothing is watched yet. Add with `/domain watch add DOMAIN`.',
  listEmptyCertificates: 'Nothing is watched yet. Add with `/tls watch add CERTIFICATE_ID`.',
  listUsed: (p: { used: number; limit: number }) =>
    `${n(p.used)} of ${n(p.limit)} watches used in this workspace.`,
  listTruncated: (p: { shown: number }) => `Showing the first ${n(p.shown)}.`,
  lineDomain: (p: { name: string }) => `:globe_with_meridians: ${p.name}`,
  lineCertificate: (p: { id: string }) => `:lock: ${p.id}`,
  lineCouldNotCheck: (p: { label: string; since: Markup }) =>
    `${p.label} · :warning: could not check since ${p.since}`,
  lineFirstLookPending: (p: { label: string }) => `${p.label} · _first look pending_`,
  lineExpires: (p: { date: Markup }) => `expires ${p.date}`,
  lineExpiryNotKnown: 'expiry not known',
  lineRenewal: (p: { id: string; ordered: Markup; status: string }) =>
    `renewal ${p.id} ordered ${p.ordered} (${p.status})`,
  lineAutoRenewOff: '*auto-renew off*',
  lineCancelled: '*cancelled*',

  // The digest
  digestTitle: 'Watch digest',
  digestSummary: (p: { expiring: number; changes: number }) =>
    `Watch digest: ${n(p.expiring)} expiring in the next 60 days, ${count(p.changes, 'change')}`,
  digestExpiringHeading: (p: { count: number }) => `*Expiring in the next 60 days (${n(p.count)})*`,
  digestNothingExpiring: 'Nothing expires in the next 60 days.',
  digestChangesHeading: (p: { count: number }) => `*What changed (${n(p.count)})*`,
  digestNoChanges: 'No changes since the last digest.',
  digestChange: (p: { at: Markup; change: Markup }) => `${p.at} ${p.change}`,
  digestFailingHeading: (p: { count: number }) => `*Could not be checked (${n(p.count)})*`,
  digestFooter: (p: { watched: number; asOf: Markup }) =>
    `${n(p.watched)} watched · as of ${p.asOf} · \`/domain watch list\` shows them all`,
  digestPosted: (p: { channel: string | undefined }) => `:newspaper: Digest posted in <#${p.channel}>.`,
  digestWentToDm: (p: { channel: string | undefined }) =>
    `Regdesk could not post in <#${p.channel}>, so the digest went to your DM with Regdesk. Invite it with \`/invite @Regdesk\`.`,
  digestNotPosted:
    'The digest could not be posted: set a channel Regdesk is in with `/domain watch settings`.',
  deliveryRefused: (p: { channel: string; refusal: string }) =>
    `Regdesk could not post this in <#${p.channel}> (${p.refusal}): invite it with \`/invite @Regdesk\`, or choose a channel it is in with \`/domain watch settings\`.`,

  // App Home's "Coming up"
  homeTitle: 'Coming up',
  homeNothingComing:
    'Nothing watched expires in the next 60 days. Watch more with `/domain watch add` and `/tls watch add`.',
  homeMore: (p: { count: number }) => `…and ${n(p.count)} more: \`/domain watch list\`.`,
  homeNoChannel:
    'No digest channel: alerts go to the channel where each watch was added. Set one with `/domain watch settings`.',
  homeSettings: (p: { channel: string; when: string }) => `Digest and alerts in <#${p.channel}>: ${p.when}.`,
  homeSettingsNext: (p: { channel: string; when: string; next: Markup }) =>
    `Digest and alerts in <#${p.channel}>: ${p.when} (next ${p.next}).`,
  homeNoSchedule: 'no scheduled digest',
  homeDaily: (p: { hour: string; timeZone: string }) => `daily at ${p.hour}:00 ${p.timeZone}`,
  /** `day` is the cadence as stored (`monday` …). */
  homeWeekly: (p: { day: string; hour: string; timeZone: string }) =>
    `every ${p.day} at ${p.hour}:00 ${p.timeZone}`,
  digestSettingsButton: 'Digest settings',
  postDigestNowButton: 'Post digest now',

  // The digest settings modal
  settingsTitle: 'Watch digest',
  settingsSubmit: 'Save',
  settingsChannelLabel: 'Digest and alert channel',
  settingsChannelHint:
    'Empty: alerts go where each watch was added, and no digest is posted. Invite Regdesk to a private channel first.',
  settingsCadenceLabel: 'When',
  settingsHourLabel: 'Hour',
  settingsTimeZoneLabel: 'Time zone',
  settingsTimeZoneHint: 'An IANA time zone such as Europe/Berlin or America/New_York.',
  cadenceOff: 'No scheduled digest',
  cadenceDaily: 'Every day',
  /** `day` is the weekday, capitalised (`Monday` …). */
  cadenceWeekly: (p: { day: string }) => `Every ${p.day}`,
  hourOption: (p: { hour: string }) => `${p.hour}:00`,
  chooseCadence: 'Choose when the digest is posted.',
  chooseHour: 'Choose an hour.',
  enterTimeZone: 'Enter a time zone such as Europe/Berlin.',
  unknownTimeZone:
    'Not a time zone Regdesk knows; use an IANA name such as Europe/Berlin or America/New_York.',
  settingsSlackTooSlow: 'Slack took too long to answer; please run `/domain watch settings` again.',
  settingsSavedNoChannel:
    ':gear: Watch settings saved: no digest channel, so alerts go where each watch was added and no digest is scheduled.',
  settingsSavedNoSchedule: (p: { channel: string }) =>
    `:gear: Watch settings saved: alerts go to <#${p.channel}> (no scheduled digest).`,
  settingsSaved: (p: { channel: string; next: Markup }) =>
    `:gear: Watch settings saved: alerts and the digest go to <#${p.channel}>, next digest ${p.next}.`,

  // Alert buttons (`item` is itemDomain or itemCertificate, for screen readers)
  buttonShow: 'Show',
  buttonRenew: 'Renew',
  buttonReissue: 'Reissue',
  buttonVerifyDnssec: 'Verify DNSSEC',
  itemDomain: (p: { id: string }) => `domain ${p.id}`,
  itemCertificate: (p: { id: string }) => `certificate ${p.id}`,
  showItem: (p: { item: string }) => `Show ${p.item}`,
  renewItem: (p: { item: string }) => `Renew ${p.item}`,
  reissueItem: (p: { item: string }) => `Reissue ${p.item}`,
  verifyDnssecOf: (p: { item: string }) => `Verify DNSSEC of ${p.item}`,
  /** `remove` is the command that stops the watch. */
  alertFooter: (p: { since: Markup; addedBy: string; remove: string }) =>
    `Watched since ${p.since} (added by <@${p.addedBy}>) · \`${p.remove}\` stops it`,

  // Alerts about a domain (alone; `line` entries are its line in a message about several)
  domainExpired: (p: { name: string; when: Markup }) => `:rotating_light: ${p.name} *expired* on ${p.when}.`,
  domainExpiresLapsing: (p: { name: string; when: Markup; days: number }) =>
    `:rotating_light: ${p.name} expires on ${p.when} (${inDays(p.days)}).`,
  domainExpiresRenewing: (p: { name: string; when: Markup; days: number }) =>
    `:calendar: ${p.name} expires on ${p.when} (${inDays(p.days)}).`,
  domainCancelledWhy:
    'It is *cancelled*: it will not be renewed. Withdraw the cancellation at the registrar if it is still needed.',
  domainAutoRenewOffWhy:
    'Auto-renew is *off*: renew it at the registrar or turn auto-renew on, or it lapses.',
  domainAutoRenewOnWhy: 'Auto-renew is on: make sure the account can pay for the renewal.',
  /** `state` is domainStateCancelled, domainStateAutoRenewOff or nothing. */
  domainExpiredLine: (p: { name: string; when: Markup; state: string | undefined }) =>
    `${p.name}: expired ${p.when}${p.state === undefined ? '' : `, ${p.state}`}`,
  domainExpiresLine: (p: { name: string; when: Markup; days: number; state: string | undefined }) =>
    `${p.name}: expires ${p.when} (${inDays(p.days)})${p.state === undefined ? '' : `, ${p.state}`}`,
  domainStateCancelled: '*cancelled*',
  domainStateAutoRenewOff: 'auto-renew *off*',
  delegationChanged: (p: { name: string; from: string; to: string }) =>
    `${p.name}: the delegation changed from ${p.from} to ${p.to}.`,
  /** `change` is delegationChanged. */
  delegationAlert: (p: { change: string }) =>
    `:twisted_rightwards_arrows: ${p.change} If nobody here changed it, check the registrar account now.`,
  delegationLine: (p: { name: string; from: string; to: string }) => `${p.name}: from ${p.from} to ${p.to}`,
  nameserversNone: '_none_',
  /** `finding` is the finding's sentence, `fixes` its fix lines (features/diagnostics/blocks.ts). */
  dnsFindingAlert: (p: { name: string; finding: string; fixes: string; domain: string }) =>
    `:mag: ${p.name}: ${p.finding}${p.fixes === '' ? '' : `\n${p.fixes}`}\n\`/dns check ${p.domain}\` shows the whole picture.`,
  dnsFindingLine: (p: { name: string; finding: string }) => `${p.name}: ${p.finding}`,
  dnssecDrift: (p: { name: string; desired: string; live: string; domain: string }) =>
    `:closed_lock_with_key: DNSSEC of ${p.name} should be *${p.desired}* but the registry shows *${p.live}*. Verify it (\`/dns dnssec ${p.domain} verify\`) and, if it stays so, fix the records.`,
  dnssecDriftLine: (p: { name: string; desired: string; live: string }) =>
    `${p.name}: should be *${p.desired}*, the registry shows *${p.live}*`,
  dnssecStuck: (p: { name: string; since: Markup; domain: string }) =>
    `:hourglass: A DNSSEC change of ${p.name} has been pending since ${p.since}. Verify it (\`/dns dnssec ${p.domain} verify\`) or cancel it (\`/dns dnssec ${p.domain} cancel\`).`,
  pendingSinceLine: (p: { name: string; since: Markup }) => `${p.name}: pending since ${p.since}`,

  // Alerts about a certificate
  certificateExpired: (p: { name: string; when: Markup }) =>
    `:rotating_light: Certificate ${p.name} *expired* on ${p.when}.`,
  certificateRenewIt: 'Renew it, then install the new one.',
  certificateRenewalOrdered: (p: { id: string; date: Markup; status: string }) =>
    `Renewal ${p.id} was ordered on ${p.date} (${p.status}): install the new certificate once it is issued.`,
  certificateExpires: (p: { name: string; when: Markup; days: number }) =>
    `:lock: Certificate ${p.name} expires on ${p.when} (${inDays(p.days)}) and no renewal is ordered through Regdesk. Renew it now: validation can take days.`,
  /** `renewal` is certificateLineRenewal or nothing. */
  certificateExpiredLine: (p: { name: string; when: Markup; renewal: string | undefined }) =>
    `${p.name}: expired ${p.when}${p.renewal === undefined ? '' : `, ${p.renewal}`}`,
  certificateExpiresLine: (p: { name: string; when: Markup; renewal: string | undefined }) =>
    `${p.name}: expires ${p.when}${p.renewal === undefined ? '' : `, ${p.renewal}`}`,
  certificateLineRenewal: (p: { id: string; status: string }) => `renewal ${p.id} (${p.status})`,
  certificateRevoked: (p: { name: string; status: string }) =>
    `:no_entry: Certificate ${p.name} is *${p.status}*: browsers will refuse it.`,
  certificateReissueIt: 'Reissue it on the same order and install the new one.',
  certificateReplaceIt: 'Order a replacement with `/tls order` and install the new one.',
  certificateStuck: (p: { name: string; since: Markup; days: number }) =>
    `:hourglass: Certificate ${p.name} has been pending since ${p.since}, longer than the usual ${p.days} days.`,
  certificateDetailsMissing: 'Details are missing: complete them at the registrar.',
  certificateCheckValidation: 'Check that the validation records are published.',
  certificateStuckLineDetailsMissing: (p: { name: string; since: Markup }) =>
    `${p.name}: pending since ${p.since}, details missing`,

  // Alerts when a look fails (sweep.ts)
  notFoundDomain: (p: { name: string; remove: string }) =>
    `:grey_question: The registrar does not know ${p.name} (404): it may have left the account, or the name is wrong. If it is gone for good, stop watching it with \`${p.remove}\`.`,
  notFoundCertificate: (p: { name: string; remove: string }) =>
    `:grey_question: The registrar does not know ${p.name} (404): it may have left the account, or the id is wrong. If it is gone for good, stop watching it with \`${p.remove}\`.`,
  couldNotCheck: (p: { name: string; times: number; reason: string }) =>
    `:warning: Regdesk could not check ${p.name} ${n(p.times)} times in a row (last: ${p.reason}). Nothing is known to be wrong with it; Regdesk keeps trying and says here when something is due.`,

  // Changes, for the digest's "What changed"
  domainExpiryMoved: (p: { name: string; when: Markup; was: Markup }) =>
    `${p.name} now expires on ${p.when} (was ${p.was}).`,
  autoRenewTurnedOn: (p: { name: string }) => `${p.name}: auto-renew turned *on*.`,
  autoRenewTurnedOff: (p: { name: string }) => `${p.name}: auto-renew turned *off*.`,
  dnssecChanged: (p: { name: string; live: string; desired: string }) =>
    `${p.name}: DNSSEC is now ${p.live} (wanted ${p.desired}).`,
  certificateRenewalStatus: (p: { name: string; id: string; ordered: Markup; status: string }) =>
    `Certificate ${p.name}: renewal ${p.id} ordered ${p.ordered} is *${p.status}*.`,
  certificateRenewalGone: (p: { name: string; id: string }) =>
    `Certificate ${p.name}: renewal ${p.id} no longer counts (cancelled, failed or gone).`,
  certificateStatusChanged: (p: { name: string; status: string; was: string }) =>
    `Certificate ${p.name} is now *${p.status}* (was ${p.was}).`,

  // Several alerts with one cause as one message (`items` is countDomains, countCertificates or countItems)
  countDomains: (p: { count: number }) => `${n(p.count)} domains`,
  countCertificates: (p: { count: number }) => `${n(p.count)} certificates`,
  countItems: (p: { count: number }) => `${n(p.count)} domains and certificates`,
  batchExpired: (p: { items: string }) => `:rotating_light: ${p.items} have *expired*.`,
  batchDomainsLapse: (p: { items: string; days: number }) =>
    `:rotating_light: ${p.items} expire within ${count(p.days, 'day')} and will not be renewed: auto-renew is *off* or they are *cancelled*. Renew them at the registrar, or they lapse.`,
  batchDomainsExpire: (p: { items: string; days: number }) =>
    `:calendar: ${p.items} expire within ${count(p.days, 'day')}. Auto-renew is on: make sure the account can pay for the renewals.`,
  batchCertificatesExpired: (p: { items: string }) =>
    `:rotating_light: ${p.items} have *expired*. Renew them and install the new ones.`,
  batchCertificatesExpire: (p: { items: string; days: number }) =>
    `:lock: ${p.items} expire within ${count(p.days, 'day')} and no renewal is ordered through Regdesk. Renew them now: validation can take days.`,
  batchDnsFinding: (p: { items: string }) =>
    `:mag: The live DNS check found something new for ${p.items}. \`/dns check DOMAIN\` shows what to set and where.`,
  batchDelegation: (p: { items: string }) =>
    `:twisted_rightwards_arrows: The delegation of ${p.items} changed. If nobody here changed it, check the registrar account now.`,
  batchDnssecDrift: (p: { items: string }) =>
    `:closed_lock_with_key: DNSSEC of ${p.items} is not what it should be. Verify each with \`/dns dnssec DOMAIN verify\` and, if it stays so, fix the records.`,
  batchDnssecStuck: (p: { items: string }) =>
    `:hourglass: A DNSSEC change of ${p.items} has been pending for more than a day. Verify or cancel each with \`/dns dnssec DOMAIN verify\` or \`cancel\`.`,
  batchCertificateStatus: (p: { items: string; status: string }) =>
    `:no_entry: ${p.items} are *${p.status}*: browsers will refuse them. Replace them and install the new ones.`,
  batchCertificateStuck: (p: { items: string; days: number }) =>
    `:hourglass: ${p.items} have been pending longer than the usual ${p.days} days. Check their validation records, or complete their details at the registrar.`,
  batchNotFound: (p: { items: string }) =>
    `:grey_question: The registrar does not know ${p.items} (404): they may have left the account, or the key now belongs to another account. Stop watching the ones gone for good with \`/domain watch remove\` or \`/tls watch remove\`.`,
  batchUnreachable: (p: { items: string; times: number; reason: string }) =>
    `:warning: ${p.items} could not be checked ${n(p.times)} times in a row: ${p.reason} Nothing is known to be wrong with them; Regdesk keeps trying and says here when something is due.`,
  batchLine: (p: { line: string }) => `• ${p.line}`,
  batchMore: (p: { count: number }) => `…and ${n(p.count)} more.`,
  batchFooter:
    '`/domain watch list` and `/tls watch list` show every watch · `/domain watch remove` or `/tls watch remove` stops one',
} satisfies TextArea;
