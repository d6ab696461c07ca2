import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';

/** ` The registrar says: “…”.` after a registrar error's own sentence, when the registrar said anything. */
const registrarSays = (upstream: string): string =>
  upstream === '' ? '' : ` The registrar says: “${upstream}”.`;

/** What the Slack layer and shared errors say: usage, refusals, platform errors, unavailability (see ../index.ts). */
export const slack = {
  /** People or things named in a sentence: `A, B, and C` (the language's own list, Intl.ListFormat). */
  list: (p: { items: readonly (string | Markup)[] }) =>
    new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(p.items.map(String)),
  /** A modal opened at once (a trigger_id lasts 3 s), filled once the registrar has answered. */
  loading: ':hourglass_flowing_sand: Loading…',
  // The command router's help: `/domain help`, an unknown subcommand, a command without its argument
  helpIntro: (p: { command: string }) => `*${p.command}* — what you can do:`,
  unknownSubcommand: (p: { typed: string; suggestion: string | undefined }) =>
    `I don't know \`${p.typed}\`.${p.suggestion === undefined ? '' : ` Did you mean \`${p.suggestion}\`?`}`,
  nothingUnderCommand: (p: { command: string }) => `Nothing is available under ${p.command} yet.`,
  usageLine: (p: { command: string; usage: string; summary: string }) =>
    `\`${p.command} ${p.usage}\` — ${p.summary}`,
  helpSummary: 'this list',
  helpOthers: (p: { command: string }) =>
    `More: ${[
      ['/domain', '`/domain help` domains, watches, approvals and the policy'],
      ['/dns', '`/dns help` DNS records, DNSSEC and `/dns check`'],
      ['/tls', '`/tls help` TLS certificates'],
      ['/ask', "`/ask QUESTION` the registrar's assistant"],
    ]
      .filter(([command]) => command !== p.command)
      .map(([, line]) => line)
      .join(' · ')}`,
  usage: (p: { usage: string }) => `Usage: ${p.usage}`,

  // Failures as the error reply tells them (slack/error-reply.ts)
  warning: (p: { message: Markup }) => `:warning: ${p.message}`,
  unexpectedError: (p: { nothingChanged: boolean; reference: string }) =>
    `:x: Something went wrong on Regdesk's side.${p.nothingChanged ? ' Nothing was changed.' : ''} ` +
    `If it keeps happening, give your Regdesk operator this reference: \`${p.reference}\`.`,
  errorModalTitle: 'Regdesk',

  // Refusals: the person may not do this, or is not of this workspace
  refused: (p: { reason: string }) => `:lock: ${p.reason}`,
  outsiderRefusal: ':lock: Regdesk acts only for members of the workspace that installed it.',

  // Slack platform errors, and what to do about each (slack/platform-errors.ts)
  notInChannel:
    'Regdesk is not in this channel: invite it with `/invite @Regdesk`, or set an approvals channel in `/domain policy`.',
  channelNotFound:
    'Regdesk cannot post in this conversation (a private channel or DM it is not part of): invite it with `/invite @Regdesk`, or set an approvals channel in `/domain policy`.',
  channelArchived: 'This channel is archived, so Regdesk cannot post in it; use another channel.',
  messageDeleted: 'The message this belonged to was deleted.',
  triggerExpired: 'Slack allows a dialog to open only within 3 seconds; run the command again.',
  userNotInChannel: 'You are not a member of that channel.',
  slackRateLimited: 'Slack is limiting how fast Regdesk may post right now; try again in a minute.',
  cannotPostHere: 'Regdesk cannot post here.',

  // Look-up cards shared in the channel (slack/share.ts)
  shareButton: 'Share in channel',
  cardExpired: 'This card has expired; run the command again.',
  sharedBy: (p: { user: string }) => `Shared by <@${p.user}>`,

  // Shared buttons and modal parts
  watchButton: 'Watch',
  cancelButton: 'Cancel',
  closeButton: 'Close',
  badViewMetadata:
    'This dialog was opened by an older version of Regdesk or has been altered; open it again.',

  // Regdesk's own data store (shared/redis.ts, shared/durable-claim.ts)
  redisUnavailable:
    'Regdesk is temporarily unavailable (its data store does not answer). Please try again in a minute.',
  claimNotDurable:
    'Regdesk could not make sure this approval runs only once (its data store did not confirm the write and the local claim file could not be written), so nothing was done. Ask again once an operator has checked Redis and REGDESK_DATA_DIR.',

  // Registrar errors by status (registrar/errors.ts); `upstream` is what the registrar said, or ''
  registrarBadRequest: (p: { upstream: string }) =>
    `The registrar refused the request as invalid.${registrarSays(p.upstream)}`,
  registrarUnauthorized:
    "The registrar rejected this workspace's API key. A workspace admin can replace it with `/domain key`.",
  registrarAssistantUnavailable: "The assistant is not available for this workspace's key.",
  registrarGuardBlocked: (p: { upstream: string }) =>
    `The domain guard blocked this action. It must be allowed in the registrar's dashboard first.${registrarSays(p.upstream)}`,
  registrarNotFound: (p: { upstream: string }) =>
    `Not found in this registrar account.${registrarSays(p.upstream)}`,
  registrarConflict: (p: { upstream: string }) =>
    `The current state does not allow this.${registrarSays(p.upstream)}`,
  registrarRecordSetInvalid: (p: { upstream: string }) =>
    `The registrar refused the record set for this domain's registry or provider.${registrarSays(p.upstream)}`,
  registrarDuplicateRecord: (p: { upstream: string }) =>
    `This DNS record already exists; nothing was added.${registrarSays(p.upstream)}`,
  registrarDnsWriteDenied:
    "Nothing was changed: this workspace's key may not change DNS records. A workspace admin can give the key the DNS administrator role at the registrar, or replace it with `/domain key`.",
  registrarNotOffered: 'This is not available with this registrar; nothing was changed.',
  registrarRateLimited: (p: { seconds: number | undefined }) =>
    `The registrar's limit for this is reached; try again ${p.seconds === undefined ? 'later' : `in ${p.seconds} s`}.`,
  registrarInternal: 'The registrar had an unexpected error. Try again in a few minutes.',
  registrarAvailabilityUnknown: 'Availability could not be determined right now; try again.',
  registrarUpstreamFailed: (p: { upstream: string }) =>
    `The registry or certificate provider failed.${registrarSays(p.upstream)} Try again later.`,
  registrarAssistantBusy: 'The assistant is busy; your question will be retried.',
  registrarUnexpectedStatus: (p: { status: number }) =>
    `The registrar answered with an unexpected status (${p.status}).`,
  registrarTimeout: 'The registrar did not answer in time. Try again in a moment.',
  registrarUnreachable: 'The registrar could not be reached. Try again in a moment.',
  registrarMalformed: 'The registrar sent an answer Regdesk cannot read; nothing is shown from it.',
} satisfies TextArea;
