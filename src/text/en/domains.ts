import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** What Regdesk says about domains (see ../index.ts). */
export const domains = {
  // Values shown where the registrar reported nothing, and yes/no fields
  unknown: 'unknown',
  yes: 'yes',
  no: 'no',
  noneReported: '_none reported_',
  none: '_none_',

  // The domain card (`/domain info`)
  ownerField: (p: { owner: string }) => `*Owner*\n${p.owner}`,
  dnssecField: (p: { state: string }) => `*DNSSEC*\n${p.state}`,
  registeredField: (p: { when: Markup }) => `*Registered*\n${p.when}`,
  expiresField: (p: { when: Markup }) => `*Expires*\n${p.when}`,
  autoRenewField: (p: { value: string }) => `*Auto-renew*\n${p.value}`,
  cancelledField: (p: { value: string }) => `*Cancelled*\n${p.value}`,
  delegatedNameservers: (p: { nameservers: string }) => `*Delegated nameservers*\n${p.nameservers}`,
  asciiForm: (p: { ascii: string }) => `ASCII form: ${p.ascii}`,
  watchButton: (p: { name: string }) => `Watch ${p.name}`,
  cardFallback: (p: { name: string; expires: Markup }) => `${p.name}: expires ${p.expires}`,

  // Warnings on the domain card, worst first
  cancelledWarning: ':no_entry: The domain is *cancelled*.',
  expiredWarning: (p: { at: Markup }) => `:rotating_light: Expired ${p.at}.`,
  expiresSoonWarning: (p: { at: Markup }) => `:warning: Expires ${p.at}.`,
  autoRenewOffWarning: ':warning: Auto-renew is *off*: the domain will lapse unless renewed by hand.',

  // `/domain check`: the router's usage and help line, and the usage reply
  checkUsage: 'check NAME [NAME…]',
  checkSummary: (p: { max: number }) =>
    `availability of up to ${n(p.max)} names (spaces, commas or new lines between them)`,
  checkUsageReply: (p: { max: number }) =>
    `Usage: \`/domain check example.com [more names…]\` (up to ${n(p.max)}, IDN welcome).`,

  // `/domain check`: one line per name
  checkWaiting: (p: { name: string }) => `:hourglass_flowing_sand: ${p.name}`,
  checkAvailable: (p: { name: string }) => `:white_check_mark: ${p.name} is available`,
  checkTaken: (p: { name: string }) => `:x: ${p.name} is taken`,
  checkTakenWithStatus: (p: { name: string; status: string }) => `:x: ${p.name} is taken (${p.status})`,
  checkInvalid: (p: { name: string; reason: string }) => `:warning: ${p.name}: ${p.reason}`,
  // Why a typed name is not one a registrar sells (shared/domain-names.ts)
  nameEmpty: 'empty',
  nameEmptyLabel: 'empty label',
  nameNotADomain: 'not a domain name',
  nameInvalid: 'not a valid domain name',
  nameUnknownTld: 'unknown top-level domain',
  namePublicSuffix: 'a public suffix, not a registrable name',
  nameSubdomain: (p: { domain: string }) => `a subdomain; did you mean ${p.domain}?`,
  /** After a name whose label mixes scripts (a look-alike), where someone decides. */
  nameMixedScripts: '⚠ mixed scripts',
  checkUnknown: (p: { name: string; reason: string }) =>
    `:grey_question: ${p.name}: could not check — try again (${p.reason})`,

  // `/domain check`: the message around the lines
  checkTitle: (p: { count: number }) => `Availability of ${count(p.count, 'name')}`,
  checkProgress: (p: { done: number; total: number }) => `Checking… ${n(p.done)} of ${n(p.total)} done.`,
  checkDone: (p: { available: number; taken: number; invalid: number; unknown: number }) =>
    `${n(p.available)} available, ${n(p.taken)} taken, ${n(p.invalid)} invalid, ${n(p.unknown)} could not be checked.`,
  checkOverflow: (p: { overflow: number; max: number }) =>
    `${count(p.overflow, 'more name')} ${p.overflow === 1 ? 'was' : 'were'} ignored: at most ${n(p.max)} per check.`,
  checkFallback: (p: { summary: string }) => `Availability: ${p.summary}`,

  // `/domain check`: why a name could not be checked, or is invalid
  checkLimitReached: 'availability limit reached',
  checkNameRefused: 'the registry does not accept this name',
  checkRegistryUnreachable: 'registry unreachable',
  checkRegistrarLimit: 'registrar limit',
  checkNoAnswer: 'no answer',
  checkRegistrarError: (p: { status: number }) => `registrar error ${p.status}`,

  // `/domain check`: a person's share used up (CheckCapError)
  checkAlreadyRunning: 'You already have a `/domain check` running; wait for its answer first.',
  checkShareUsed: (p: { max: number }) =>
    `You have checked ${n(p.max)} names this minute, your share of the registrar's limit; try again in a minute.`,

  // `/domain info`
  infoUsage: 'info DOMAIN',
  infoSummary: 'registration details, expiry and delegated nameservers',
  infoUsageReply: '`/domain info DOMAIN`, e.g. `/domain info example.com`.',

  // `/domain ns`: usage, and the delegation card
  nsUsage: 'ns DOMAIN [set VANITY_SET_ID|standard]',
  nsSummary: 'current delegation; `set` changes it (needs approval)',
  nsUsageReply: '`/domain ns DOMAIN` or `/domain ns DOMAIN set VANITY_SET_ID|standard`.',
  nsSetUsageReply: '`/domain ns DOMAIN set VANITY_SET_ID|standard`, e.g. `/domain ns example.com set 11`.',
  delegationTitle: (p: { name: string }) => `Delegation of ${p.name}`,
  nameserversSection: (p: { nameservers: string }) => `*Nameservers*\n${p.nameservers}`,
  vanitySetsSection: (p: { sets: string }) => `*Vanity nameserver sets of the account*\n${p.sets}`,
  vanitySetLine: (p: { id: number; host: string; nameservers: string }) =>
    `\`${p.id}\` ${p.host}: ${p.nameservers}`,
  vanitySetsNotKnown: '_Not known yet: the registrar lists them only with a delegation change._',
  delegationChangeHint:
    'Change it with `/domain ns DOMAIN set VANITY_SET_ID` (one of the account’s vanity sets) or `set standard`; a second person must approve.',

  // `/domain authcode`
  authcodeUsage: 'authcode DOMAIN',
  authcodeSummary: 'transfer auth code, shown only to you (needs approval)',
  authcodeUsageReply: '`/domain authcode DOMAIN`.',

  // The auth code operation: approval summary, preview and outcome
  authCodeRequestSummary: (p: { domain: string }) =>
    `issue a transfer auth code for ${p.domain} (enables an outbound transfer)`,
  authCodePreviewDomain: (p: { domain: string; owner: string }) => `Domain ${p.domain}, owner ${p.owner}.`,
  authCodePreviewPrivacy:
    'The code is shown only to the requester. Every issued code is recorded in the domain guard log.',
  authCodePreviewCancelled: ':warning: The domain is cancelled.',
  authCodeIssued: 'Auth code issued; only the requester can reveal it',

  // The delegation change operation: approval summary, preview and outcome
  delegateToStandardSummary: (p: { domain: string }) => `delegate ${p.domain} to the standard nameservers`,
  delegateToVanitySummary: (p: { domain: string; vanitySetId: number }) =>
    `delegate ${p.domain} to vanity nameserver set ${p.vanitySetId}`,
  delegationNow: (p: { nameservers: string }) => `Now delegated to ${p.nameservers}.`,
  delegationToStandard: "To the registrar's standard nameservers.",
  delegationToUnknownVanitySet: (p: { vanitySetId: number; domain: string }) =>
    `To vanity nameserver set ${p.vanitySetId}; its nameservers are not known to Regdesk yet (\`/domain ns ${p.domain}\` lists the sets the registrar reported).`,
  delegationToVanitySet: (p: { vanitySetId: number; nameservers: string }) =>
    `To vanity nameserver set ${p.vanitySetId}: ${p.nameservers}.`,
  delegationChangeWarning:
    'Changing delegation moves DNS resolution for the whole domain; the registrar allows a few changes a day.',
  delegatedTo: (p: { nameservers: string }) => `Now delegated to ${p.nameservers}`,
  delegatedToStandard: 'Now delegated to the standard nameservers',
} satisfies TextArea;
