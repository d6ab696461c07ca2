import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** What Regdesk says about served certificates and Certificate Transparency (features/watches served-*, ct-*). */
export const served = {
  // A name serving another certificate than the one issued (served-look.ts)
  staleOlder: (p: { name: string; where: string; serial: string; id: string; issued: Markup }) =>
    `:arrows_counterclockwise: ${p.name} at ${p.where} still serves an older certificate (serial ${p.serial}), though ${p.id} was issued ${p.issued}. Install the new certificate there and reload the server.`,
  staleSooner: (p: { name: string; where: string; ends: Markup; id: string; expected: Markup }) =>
    `:hourglass_flowing_sand: ${p.name} at ${p.where} serves a certificate that ends ${p.ends}, before ${p.id} (ends ${p.expected}). Install ${p.id} there and reload the server.`,
  staleLine: (p: { name: string; where: string; id: string }) => `${p.name} at ${p.where} (${p.id})`,
  batchOlder: (p: { items: string }) =>
    `:arrows_counterclockwise: Names of ${p.items} still serve an older certificate a day after a newer one was issued. Install the new certificates there and reload the servers:`,
  batchSooner: (p: { items: string }) =>
    `:hourglass_flowing_sand: Names of ${p.items} serve certificates that end sooner than the watched ones. Install the watched certificates there:`,
  servedUnchecked: (p: { name: string; times: number; reasons: string }) =>
    `:warning: Regdesk could not ask any name of ${p.name} which certificate it serves, ${n(p.times)} looks in a row (${p.reasons}). Whether the servers have the new certificate is not known.`,
  batchServedUnchecked: (p: { items: string }) =>
    `:warning: For ${p.items}, no name could be asked which certificate it serves, several looks in a row. Whether the servers have the new certificates is not known:`,

  // Why a name could not be asked (probe.ts)
  reasonTimeout: 'no answer in time',
  reasonRefused: 'connection refused',
  reasonHandshake: 'the TLS handshake failed',
  reasonTooLarge: 'the server sent too much',
  reasonNoCertificate: 'no certificate was served',
  reasonLimit: 'over the limit of one look',
  reasonUnresolved: 'the resolvers could not say its addresses',
  reasonNoAddress: 'it has no address',
  reasonNotPublic: (p: { kind: string }) => `its address is not public (${p.kind}), so it was not asked`,
  reasonUnreadable: "the registrar's copy of the certificate could not be read",

  // After an issuance or reissue through Regdesk, in the order's thread (served-follow.ts)
  followAllServe: (p: { id: string; count: number }) =>
    `:white_check_mark: Every name of ${p.id} now serves the new certificate (${n(p.count)} checked).`,
  followNotYet: (p: { id: string; lines: string }) =>
    `:warning: A day after ${p.id} was issued, these names do not serve it yet:\n${p.lines}`,
  followLineOther: (p: { name: string; where: string; serial: string }) =>
    `• ${p.name} at ${p.where} serves another certificate (serial ${p.serial})`,
  followLineUnchecked: (p: { name: string; where: string; reason: string }) =>
    `• ${p.name}${p.where}: could not check (${p.reason})`,
  followMore: (p: { count: number }) => `…and ${n(p.count)} more.`,

  // The state in /tls watch list, /domain watch list, the digest and App Home (served-words.ts)
  servedPart: (p: { state: Markup }) => `served: ${p.state}`,
  servedAll: (p: { count: number }) =>
    p.count === 1
      ? 'its name serves it'
      : p.count === 2
        ? 'both names serve it'
        : `all ${n(p.count)} names serve it`,
  servedSome: (p: { serving: number; asked: number }) =>
    p.serving === 0
      ? p.asked === 1
        ? 'its name does not serve it'
        : `none of its ${n(p.asked)} names serves it`
      : `${n(p.serving)} of ${count(p.asked, 'name')} ${p.serving === 1 ? 'serves' : 'serve'} it`,
  servedStillOlder: (p: { name: string }) => `${p.name} still serves the older one`,
  servedEndsSooner: (p: { name: string }) => `${p.name} serves one that ends sooner`,
  servedMoreStale: (p: { count: number }) => `and ${count(p.count, 'more name')}`,
  servedNamesUnchecked: (p: { count: number }) => `${count(p.count, 'name')} could not be checked`,
  servedCouldNotCheck: (p: { since: Markup }) => `:warning: could not check since ${p.since}`,
  ctPart: (p: { state: Markup }) => `CT: ${p.state}`,
  ctClear: (p: { at: Markup }) => `last searched ${p.at}, nothing foreign`,
  ctReading: (p: { at: Markup }) => `last searched ${p.at}, still reading its history`,
  ctCouldNotCheck: (p: { since: Markup }) => `:warning: could not check since ${p.since}`,
  ctUnknown: (p: { count: number }) => `:sleuth_or_spy: ${count(p.count, 'unknown issuance')}`,
  attentionHeading: (p: { count: number }) =>
    `*Served and issued: ${count(p.count, 'watch', 'watches')} to look at*`,
  attentionFine: (p: { certificates: number; zones: number }) =>
    `${count(p.certificates, 'certificate')} served by all their names · ${count(p.zones, 'zone')} with nothing foreign in Certificate Transparency`,
  attentionMore: (p: { count: number }) =>
    `…and ${n(p.count)} more: \`/tls watch list\`, \`/domain watch list\`.`,

  // Certificate Transparency (ct-look.ts)
  ctForeign: (p: { zone: string; issuer: string; names: string; from: Markup; until: Markup }) =>
    `:sleuth_or_spy: Certificate Transparency shows a certificate for ${p.zone} that the registrar does not list for this account: issued by *${p.issuer}* for ${p.names}, valid ${p.from} to ${p.until}. If nobody here ordered it elsewhere, ask the CA to revoke it; if it is yours, press *Mark as known*.`,
  ctForeignLine: (p: { zone: string; issuer: string; names: string }) =>
    `${p.zone}: *${p.issuer}* for ${p.names}`,
  batchCtForeign: (p: { items: string }) =>
    `:sleuth_or_spy: Certificate Transparency shows certificates for ${p.items} that the registrar does not list for this account. Check each:`,
  ctUnknownIssuer: 'an unnamed CA',
  ctUnknownDate: 'an unknown date',
  ctMoreNames: (p: { count: number }) => `and ${n(p.count)} more`,
  ctUnchecked: (p: { zone: string; times: number; reason: string }) =>
    `:warning: The Certificate Transparency search for ${p.zone} failed ${n(p.times)} times in a row (last: ${p.reason}). Certificates issued for it meanwhile are not known: this is not an all-clear.`,
  batchCtUnchecked: (p: { items: string }) =>
    `:warning: The Certificate Transparency search failed several times in a row for ${p.items}. Certificates issued for them meanwhile are not known:`,
  ctReasonStatus: (p: { status: number }) => `the search answered HTTP ${p.status}`,
  ctReasonTimeout: 'the search did not answer in time',
  ctReasonNetwork: 'the search could not be reached',
  ctReasonTooLarge: 'the answer was too large',
  ctReasonMalformed: 'the answer could not be read',
  ctReasonRateLimited: 'the search asked to wait (rate limit)',
  ctReasonNoList: 'the registrar does not list the account’s certificates',
  ctReasonPending: 'an order for these names is still pending at the registrar',
  ctReasonRegistrar: "the registrar's certificates could not be read",

  // Mark as known (known-issuance.ts)
  buttonMarkKnown: 'Mark as known',
  markKnownOf: (p: { zone: string }) => `Mark the certificate for ${p.zone} as known`,
  markedKnown: (p: { zone: string }) =>
    `:white_check_mark: Marked as known: this certificate for ${p.zone} is not alerted again. The audit trail records who marked it.`,
  markedKnownAlready: 'This certificate was already marked as known.',
  auditActionKnown: 'marked a certificate in Certificate Transparency as known',
  auditMarkedKnown: (p: { zone: string; issuance: string }) =>
    `certificate ${p.issuance} (TBS SHA-256) for ${p.zone} marked as known`,
} satisfies TextArea;
