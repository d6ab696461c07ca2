import type { TextArea } from './area.js';
import { count } from './numbers.js';

/** What Regdesk says when it publishes a certificate's validation records (features/publish). */
export const publish = {
  button: 'Publish validation records',
  requestSummary: (p: { id: string }) => `publish the DNS validation records of certificate ${p.id}`,
  buttonLabel: (p: { id: string }) => `Publish the DNS validation records of certificate ${p.id}`,

  // The plan, before anything is written or when nothing may be
  planTitle: (p: { id: string }) => `Validation records of certificate ${p.id}`,
  stepCreate: (p: { record: string }) => `• create ${p.record}`,
  stepPresent: (p: { record: string }) => `• already there: ${p.record}`,
  stepReplace: (p: { record: string; old: string }) => `• replace Regdesk's stale ${p.old} with ${p.record}`,
  stepBlocked: (p: { record: string; existing: string }) =>
    `• blocked: ${p.existing} is at that name and Regdesk did not create it; remove it or publish ${p.record} by hand`,
  stepElsewhere: (p: { record: string; zone: string; nameservers: string }) =>
    `• ${p.zone} is not hosted at the registrar: create ${p.record} where the zone is served (${p.nameservers})`,
  blockedNothingWritten: 'Nothing was written: a record in the way belongs to someone else.',
  elsewhereNothingWritten:
    'Nothing was written: set the records where the zone is served, and the order validates.',

  // Outcomes
  writing: (p: { user: string; id: string }) =>
    `<@${p.user}> is publishing the validation records of certificate ${p.id}…`,
  written: (p: { id: string; count: number; present: number }) =>
    `Certificate ${p.id}: ${count(p.count, 'validation record')} written at the registrar (TTL 60)${p.present > 0 ? `, ${p.present} already there` : ''}. Regdesk says "published" once the zone's nameservers serve them, and removes its own records once the certificate is issued.`,
  allPresent: (p: { id: string }) =>
    `Certificate ${p.id}: every validation record is already there; nothing was written. Regdesk checks the zone's nameservers and says when they serve them.`,
  readOnlyKey:
    "This workspace's key may not change DNS records (a read-only key): nothing was written. Publish the records by hand, or give the workspace a key with the DNS role (`/domain key`).",
  notOffered:
    'Publishing records is not available with this registrar: nothing was written. Publish the records by hand.',
  notOurs: (p: { id: string }) =>
    `Regdesk did not place the order or reissue of certificate ${p.id}, so it does not know its validation records. Publish them from the registrar's dashboard.`,
  notPending: (p: { id: string; status: string }) =>
    `Certificate ${p.id} is ${p.status}: there is nothing to validate any more.`,
  partial: (p: { id: string; written: number; reason: string }) =>
    `Certificate ${p.id}: ${count(p.written, 'record')} written, then the registrar refused: ${p.reason}. Press the button again to finish.`,
  published: (p: { id: string; nameservers: string }) =>
    `:white_check_mark: The validation records of certificate ${p.id} are published: ${p.nameservers} serve them. The CA can validate now.`,
  notYetServed: (p: { id: string; missing: string }) =>
    `The validation records of certificate ${p.id} are written, but the zone's nameservers still do not serve ${p.missing} after an hour. \`/dns check\` shows why.`,
  removed: (p: { id: string; count: number; status: string }) =>
    `Certificate ${p.id} is ${p.status}: Regdesk removed its ${count(p.count, 'validation record')}.`,
  removeFailed: (p: { id: string; reason: string }) =>
    `Certificate ${p.id}: Regdesk could not remove its validation records (${p.reason}); remove them by hand.`,
  auditPublished: 'published validation records',
  auditRemoved: 'removed its validation records',
  auditRemovedOutcome: (p: { removed: number; status: string; left: number }) =>
    `${p.removed} removed (certificate ${p.status})${p.left > 0 ? `, ${p.left} left: changed since Regdesk wrote them` : ''}`,
} satisfies TextArea;
