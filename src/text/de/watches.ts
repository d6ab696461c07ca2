import type { watches as en } from '../en/watches.js';
import type { Markup } from '../escape.js';
import { cadenceAdverb, count, n, weekday } from './grammar.js';

/** Tage im Dativ: „in 1 Tag“, „in 3 Tagen“, „innerhalb von 3 Tagen“. */
const daysDative = (value: number): string => count(value, 'Tag', 'Tagen');

/** Tage bis zu einem Ablauf (src/shared/days.ts): 0 ist der letzte Tag selbst. */
const inDays = (value: number): string => (value === 0 ? 'heute' : `in ${daysDative(value)}`);

/** Tage im Akkusativ: „die üblichen 7 Tage“. */
const daysAccusative = (value: number): string => count(value, 'Tag', 'Tage');

/** Wer Überwachungen verwalten darf, in Klammern hinter „Admins“. */
const ADMINS = 'Admins (Admins und Inhaber des Workspace sowie die Regdesk-Admins aus `/domain policy`)';

/** Was Regdesk über Überwachungen sagt (siehe ../index.ts). */
export const watches = {
  // `/domain watch …` und `/tls watch …`: Aufruf und Hilfe
  domainCommandUsage: 'watch add|remove|list|all|settings|digest …',
  domainCommandSummary:
    'Warnungen zu Ablauf und Abweichungen von Domains; Einstellungen der Übersicht; `digest` sendet die Übersicht sofort',
  tlsCommandUsage: 'watch add|remove|list …',
  tlsCommandSummary: 'Warnungen zu Ablauf, Widerruf und hängenden Bestellungen von Zertifikaten',
  domainUsage:
    '`/domain watch add DOMAIN…`, `/domain watch remove DOMAIN…`, `/domain watch list`, `/domain watch all`, `/domain watch settings` oder `/domain watch digest`.',

  // `/domain watch all`
  watchAllAdminsOnly: `Nur ${ADMINS} dürfen alles überwachen, was der Registrar auflistet: Das beansprucht die Obergrenze des ganzen Workspace. Es wurde nichts hinzugefügt.`,
  watchAllNotOffered:
    'Bei diesem Registrar lassen sich die Zonen des Kontos nicht auflisten: Es wurde nichts hinzugefügt. Überwachen Sie Domains einzeln mit `/domain watch add DOMAIN…`.',
  watchAllOverLimit: (p: { limit: number }) =>
    `Der Registrar listet mehr auf, als dieser Workspace überwachen darf (\`WATCH_LIMIT\`, ${n(p.limit)}): Es wurde nichts hinzugefügt.`,
  watchAllDone: (p: { domains: number; certificates: number; channel: Markup }) =>
    `Regdesk überwacht jetzt alles, was der Registrar für den API-Schlüssel dieses Workspace auflistet: ${count(p.domains, 'neue Domain', 'neue Domains')} und ${count(p.certificates, 'neues Zertifikat', 'neue Zertifikate')}; später hinzukommende Zonen und Zertifikate werden innerhalb einer Stunde erfasst. Warnungen gehen an ${p.channel} (oder an den Channel der Übersicht).`,
  watchAllNoCertificates: 'Der Registrar listet keine Zertifikate auf: Nur Zonen werden überwacht.',
  watchAllForeign: (p: { ids: string }) => `Nicht über Regdesk bestellt: ${p.ids}.`,
  digestForeign: (p: { ids: string; more: number }) =>
    `Nicht über Regdesk bestellte Zertifikate: ${p.ids}${p.more > 0 ? ` und ${n(p.more)} weitere` : ''}.`,
  tlsUsage: '`/tls watch add CERTIFICATE_ID…`, `/tls watch remove CERTIFICATE_ID…` oder `/tls watch list`.',
  addDomainsUsage: '`/domain watch add DOMAIN…`, z. B. `/domain watch add example.com example.org`.',
  addCertificatesUsage: '`/tls watch add CERTIFICATE_ID…`, z. B. `/tls watch add cert-123`.',
  removeDomainsUsage: '`/domain watch remove DOMAIN…`',
  removeCertificatesUsage: '`/tls watch remove CERTIFICATE_ID…`',
  tooManyDomains: (p: { max: number }) =>
    `höchstens ${n(p.max)} Namen pro \`/domain watch add\`; fügen Sie die übrigen mit einem weiteren Befehl hinzu.`,
  tooManyCertificates: (p: { max: number }) =>
    `höchstens ${n(p.max)} Zertifikats-IDs pro \`/tls watch add\`.`,
  /** `usage` ist einer der Aufrufe zum Entfernen oben. */
  tooManyToRemove: (p: { max: number; usage: string }) => `höchstens ${n(p.max)} pro ${p.usage}.`,

  // Ablehnungen nach den Rollen und der Richtlinie des Workspace
  locked: (p: { reason: Markup }) => `:lock: ${p.reason}`,
  removalRefused: (p: { items: Markup; more: number }) =>
    `Nicht entfernt: ${p.items}${p.more > 0 ? ` und ${n(p.more)} weitere` : ''}. Nach der Richtlinie dieses Workspace dürfen nur die Person, die eine Überwachung hinzugefügt hat, und ${ADMINS} sie entfernen; wenden Sie sich an eine dieser Personen.`,
  removalRefusedItem: (p: { name: string; addedBy: string }) => `${p.name} (hinzugefügt von <@${p.addedBy}>)`,
  settingsRefused: `Nach der Richtlinie dieses Workspace dürfen nur ${ADMINS} die Einstellungen der Überwachung ändern (der Channel der Übersicht bestimmt, wohin jede Warnung geht). Es wurde nichts geändert.`,
  settingsRefusedBySaver: (p: { setBy: string }) =>
    `Nach der Richtlinie dieses Workspace dürfen nur die Person, die die Einstellungen der Überwachung gespeichert hat (<@${p.setBy}>), und ${ADMINS} sie ändern (der Channel der Übersicht bestimmt, wohin jede Warnung geht). Es wurde nichts geändert.`,

  // Überwachungen hinzufügen
  domainNotAdded: (p: { name: string; reason: string }) =>
    `:warning: ${p.name} wurde nicht hinzugefügt: ${p.reason}.`,
  notCertificateIds: (p: { ids: string }) => `Keine Zertifikats-ID: ${p.ids}. Es wurde nichts hinzugefügt.`,
  unknownDomainsNotAdded: (p: { names: string }) =>
    `:warning: Nicht hinzugefügt – der Registrar kennt diese Domains für den API-Schlüssel dieses Workspace nicht: ${p.names}.`,
  unknownCertificatesNotAdded: (p: { names: string }) =>
    `:warning: Nicht hinzugefügt – der Registrar kennt diese Zertifikate für den API-Schlüssel dieses Workspace nicht: ${p.names}.`,
  unreadableNotAdded: (p: { name: string; why: string }) =>
    `:warning: ${p.name} wurde nicht hinzugefügt: Die Abfrage ist gerade fehlgeschlagen. ${p.why}`,
  nothingAdded: 'Es wurde nichts hinzugefügt.',
  nothingToAdd: 'Nichts hinzuzufügen.',
  nowWatching: (p: { items: string }) =>
    `:eyes: Jetzt überwacht: ${p.items}. Regdesk prüft innerhalb einer Minute und meldet sich hier, wenn etwas ansteht.`,
  alreadyWatched: (p: { items: string }) => `Bereits überwacht: ${p.items}.`,
  overPersonCap: (p: { mine: number; cap: number; more: number }) =>
    `:no_entry: Eine Person darf in diesem Workspace ${n(p.cap)} Überwachungen hinzufügen; Sie haben bereits ${n(p.mine)}, und ${n(p.more)} ${p.more === 1 ? 'weitere würde' : 'weitere würden'} das überschreiten. Es wurde nichts hinzugefügt. Entfernen Sie einige Ihrer Überwachungen mit \`/domain watch remove\` oder \`/tls watch remove\`, oder bitten Sie die Admins, sie hinzuzufügen (für Admins gilt nur die Obergrenze des Workspace).`,
  overWorkspaceLimit: (p: { total: number; limit: number; more: number }) =>
    `:no_entry: Dieser Workspace überwacht ${n(p.total)} von höchstens ${n(p.limit)} Domains und Zertifikaten; ${n(p.more)} ${p.more === 1 ? 'weitere würde' : 'weitere würden'} die Obergrenze überschreiten. Es wurde nichts hinzugefügt. Entfernen Sie einige mit \`/domain watch remove\` oder \`/tls watch remove\`.`,
  paceExceeded:
    'Regdesk fragt mit diesem API-Schlüssel gerade sehr viel ab; versuchen Sie es in einer Minute erneut.',

  // Überwachungen entfernen
  noLongerWatching: (p: { items: string }) => `:wastebasket: Nicht mehr überwacht: ${p.items}.`,
  notWatched: (p: { ids: string }) => `Nicht überwacht: ${p.ids}.`,

  // Ergebnisse im Audit-Protokoll (das Audit-Protokoll zeigt sie an)
  auditAlertsIn: (p: { channel: string }) => `Warnungen in <#${p.channel}>`,
  auditRemovalRefused: (p: { addedBy: string }) =>
    `hinzugefügt von ${p.addedBy}; nach der Richtlinie dürfen nur die Person, die sie hinzugefügt hat, und Admins sie entfernen`,
  auditSettingsChanged: (p: { settings: string; before: string }) => `${p.settings} (vorher ${p.before})`,
  auditSettingsNeverSet: 'nie festgelegt',
  auditSettings: (p: { channel: string; when: string }) => `Channel ${p.channel}, ${p.when}`,
  auditNoChannel: 'keiner',
  auditNoDigest: 'keine Übersicht',
  auditDigestAt: (p: { cadence: string; hour: number; timeZone: string }) =>
    `${cadenceAdverb(p.cadence)} ${p.hour}:00 Uhr ${p.timeZone}`,

  // Listen der Überwachungen (`/domain watch list`, `/tls watch list`) und ihre Zeilen, auch in der Übersicht und auf der App-Startseite
  listTitleDomains: (p: { count: number }) => `Überwachte Domains (${n(p.count)})`,
  listTitleCertificates: (p: { count: number }) => `Überwachte Zertifikate (${n(p.count)})`,
  listTitleAll: (p: { count: number }) => `Überwachte Domains und Zertifikate (${n(p.count)})`,
  listEmptyDomains: 'Noch wird nichts überwacht. Fügen Sie etwas mit `/domain watch add DOMAIN` hinzu.',
  listEmptyCertificates:
    'Noch wird nichts überwacht. Fügen Sie etwas mit `/tls watch add CERTIFICATE_ID` hinzu.',
  listUsed: (p: { used: number; limit: number }) =>
    `${n(p.used)} von ${n(p.limit)} Überwachungen dieses Workspace belegt.`,
  listTruncated: (p: { shown: number }) => `Angezeigt werden die ersten ${n(p.shown)}.`,
  lineDomain: (p: { name: string }) => `:globe_with_meridians: ${p.name}`,
  lineCertificate: (p: { id: string }) => `:lock: ${p.id}`,
  lineCouldNotCheck: (p: { label: string; since: Markup }) =>
    `${p.label} · :warning: seit ${p.since} nicht prüfbar`,
  lineFirstLookPending: (p: { label: string }) => `${p.label} · _erste Prüfung steht aus_`,
  lineExpires: (p: { date: Markup }) => `Ablauf ${p.date}`,
  lineExpiryNotKnown: 'Ablauf unbekannt',
  lineRenewal: (p: { id: string; ordered: Markup; status: string }) =>
    `Verlängerung ${p.id}, bestellt am ${p.ordered} (${p.status})`,
  lineAutoRenewOff: '*automatische Verlängerung aus*',
  lineCancelled: '*gekündigt*',

  // Die Übersicht
  digestTitle: 'Übersicht der Überwachung',
  digestSummary: (p: { expiring: number; changes: number }) =>
    `Übersicht der Überwachung: ${n(p.expiring)} ${p.expiring === 1 ? 'läuft' : 'laufen'} in den nächsten 60 Tagen ab, ${count(p.changes, 'Änderung', 'Änderungen')}`,
  digestExpiringHeading: (p: { count: number }) => `*Läuft in den nächsten 60 Tagen ab (${n(p.count)})*`,
  digestNothingExpiring: 'In den nächsten 60 Tagen läuft nichts ab.',
  digestChangesHeading: (p: { count: number }) => `*Was sich geändert hat (${n(p.count)})*`,
  digestNoChanges: 'Keine Änderungen seit der letzten Übersicht.',
  digestChange: (p: { at: Markup; change: Markup }) => `${p.at} ${p.change}`,
  digestFailingHeading: (p: { count: number }) => `*Nicht prüfbar (${n(p.count)})*`,
  digestFooter: (p: { watched: number; asOf: Markup }) =>
    `${n(p.watched)} überwacht · Stand: ${p.asOf} · \`/domain watch list\` zeigt alle`,
  digestPosted: (p: { channel: string | undefined }) => `:newspaper: Übersicht in <#${p.channel}> gesendet.`,
  digestWentToDm: (p: { channel: string | undefined }) =>
    `Regdesk konnte nicht in <#${p.channel}> senden, daher kam die Übersicht als Direktnachricht von Regdesk. Laden Sie Regdesk mit \`/invite @Regdesk\` in den Channel ein.`,
  digestNotPosted:
    'Die Übersicht konnte nicht gesendet werden: Legen Sie mit `/domain watch settings` einen Channel fest, in dem Regdesk Mitglied ist.',
  deliveryRefused: (p: { channel: string; refusal: string }) =>
    `Regdesk konnte dies nicht in <#${p.channel}> senden (${p.refusal}): Laden Sie Regdesk mit \`/invite @Regdesk\` ein, oder wählen Sie mit \`/domain watch settings\` einen Channel, in dem Regdesk Mitglied ist.`,

  // „Demnächst“ auf der App-Startseite
  homeTitle: 'Demnächst',
  homeNothingComing:
    'Nichts Überwachtes läuft in den nächsten 60 Tagen ab. Überwachen Sie mehr mit `/domain watch add` und `/tls watch add`.',
  homeMore: (p: { count: number }) => `…und ${n(p.count)} weitere: \`/domain watch list\`.`,
  homeNoChannel:
    'Kein Channel für die Übersicht: Warnungen gehen an den Channel, in dem die jeweilige Überwachung hinzugefügt wurde. Legen Sie einen mit `/domain watch settings` fest.',
  homeSettings: (p: { channel: string; when: string }) =>
    `Übersicht und Warnungen in <#${p.channel}>: ${p.when}.`,
  homeSettingsNext: (p: { channel: string; when: string; next: Markup }) =>
    `Übersicht und Warnungen in <#${p.channel}>: ${p.when} (nächste: ${p.next}).`,
  homeNoSchedule: 'keine regelmäßige Übersicht',
  homeDaily: (p: { hour: string; timeZone: string }) => `täglich um ${p.hour}:00 Uhr (${p.timeZone})`,
  /** `day` ist der Rhythmus, wie er gespeichert ist (`monday` …). */
  homeWeekly: (p: { day: string; hour: string; timeZone: string }) =>
    `jeden ${weekday(p.day)} um ${p.hour}:00 Uhr (${p.timeZone})`,
  digestSettingsButton: 'Übersicht einstellen',
  postDigestNowButton: 'Übersicht jetzt senden',

  // Das Formular für die Einstellungen der Übersicht
  settingsTitle: 'Übersicht und Warnungen',
  settingsSubmit: 'Speichern',
  settingsChannelLabel: 'Channel für Übersicht und Warnungen',
  settingsChannelHint:
    'Leer: Warnungen gehen an den Channel, in dem die jeweilige Überwachung hinzugefügt wurde, und es wird keine Übersicht gesendet. Laden Sie Regdesk zuerst in einen privaten Channel ein.',
  settingsCadenceLabel: 'Wann',
  settingsHourLabel: 'Uhrzeit',
  settingsTimeZoneLabel: 'Zeitzone',
  settingsTimeZoneHint: 'Eine IANA-Zeitzone wie Europe/Berlin oder America/New_York.',
  cadenceOff: 'Keine regelmäßige Übersicht',
  cadenceDaily: 'Jeden Tag',
  /** `day` ist der Wochentag, großgeschrieben (`Monday` …). */
  cadenceWeekly: (p: { day: string }) => `Jeden ${weekday(p.day)}`,
  hourOption: (p: { hour: string }) => `${p.hour}:00 Uhr`,
  chooseCadence: 'Wählen Sie, wann die Übersicht gesendet wird.',
  chooseHour: 'Wählen Sie eine Uhrzeit.',
  enterTimeZone: 'Geben Sie eine Zeitzone ein, z. B. Europe/Berlin.',
  unknownTimeZone:
    'Diese Zeitzone kennt Regdesk nicht; verwenden Sie einen IANA-Namen wie Europe/Berlin oder America/New_York.',
  settingsSlackTooSlow:
    'Slack hat zu lange für die Antwort gebraucht; führen Sie `/domain watch settings` bitte noch einmal aus.',
  settingsSavedNoChannel:
    ':gear: Einstellungen der Überwachung gespeichert: kein Channel für die Übersicht, daher gehen Warnungen an den Channel, in dem die jeweilige Überwachung hinzugefügt wurde, und es ist keine Übersicht geplant.',
  settingsSavedNoSchedule: (p: { channel: string }) =>
    `:gear: Einstellungen der Überwachung gespeichert: Warnungen gehen an <#${p.channel}> (keine regelmäßige Übersicht).`,
  settingsSaved: (p: { channel: string; next: Markup }) =>
    `:gear: Einstellungen der Überwachung gespeichert: Warnungen und Übersicht gehen an <#${p.channel}>, nächste Übersicht: ${p.next}.`,

  // Schaltflächen der Warnungen (`item` ist itemDomain oder itemCertificate, für Screenreader)
  buttonShow: 'Anzeigen',
  buttonRenew: 'Verlängern',
  buttonReissue: 'Neu ausstellen',
  buttonVerifyDnssec: 'DNSSEC prüfen',
  itemDomain: (p: { id: string }) => `Domain ${p.id}`,
  itemCertificate: (p: { id: string }) => `Zertifikat ${p.id}`,
  showItem: (p: { item: string }) => `${p.item} anzeigen`,
  renewItem: (p: { item: string }) => `${p.item} verlängern`,
  reissueItem: (p: { item: string }) => `${p.item} neu ausstellen`,
  verifyDnssecOf: (p: { item: string }) => `DNSSEC von ${p.item} prüfen`,
  /** `remove` ist der Befehl, der die Überwachung beendet. */
  alertFooter: (p: { since: Markup; addedBy: string; remove: string }) =>
    `Überwacht seit ${p.since} (hinzugefügt von <@${p.addedBy}>) · \`${p.remove}\` beendet die Überwachung`,

  // Warnungen zu einer Domain (allein; die `line`-Einträge sind ihre Zeile in einer Nachricht über mehrere)
  domainExpired: (p: { name: string; when: Markup }) =>
    `:rotating_light: ${p.name} ist am ${p.when} *abgelaufen*.`,
  domainExpiresLapsing: (p: { name: string; when: Markup; days: number }) =>
    `:rotating_light: ${p.name} läuft am ${p.when} ab (${inDays(p.days)}).`,
  domainExpiresRenewing: (p: { name: string; when: Markup; days: number }) =>
    `:calendar: ${p.name} läuft am ${p.when} ab (${inDays(p.days)}).`,
  domainCancelledWhy:
    'Die Domain ist *gekündigt* und wird nicht verlängert. Nehmen Sie die Kündigung beim Registrar zurück, falls die Domain noch gebraucht wird.',
  domainAutoRenewOffWhy:
    'Die automatische Verlängerung ist *aus*: Verlängern Sie die Domain beim Registrar oder schalten Sie die automatische Verlängerung ein, sonst verfällt die Domain.',
  domainAutoRenewOnWhy:
    'Die automatische Verlängerung ist an: Stellen Sie sicher, dass das Konto die Verlängerung bezahlen kann.',
  /** `state` ist domainStateCancelled, domainStateAutoRenewOff oder nichts. */
  domainExpiredLine: (p: { name: string; when: Markup; state: string | undefined }) =>
    `${p.name}: am ${p.when} abgelaufen${p.state === undefined ? '' : `, ${p.state}`}`,
  domainExpiresLine: (p: { name: string; when: Markup; days: number; state: string | undefined }) =>
    `${p.name}: läuft am ${p.when} ab (${inDays(p.days)})${p.state === undefined ? '' : `, ${p.state}`}`,
  domainStateCancelled: '*gekündigt*',
  domainStateAutoRenewOff: 'automatische Verlängerung *aus*',
  delegationChanged: (p: { name: string; from: string; to: string }) =>
    `${p.name}: Die Delegierung hat sich geändert, von ${p.from} auf ${p.to}.`,
  /** `change` ist delegationChanged. */
  delegationAlert: (p: { change: string }) =>
    `:twisted_rightwards_arrows: ${p.change} Falls hier niemand sie geändert hat, prüfen Sie sofort das Konto beim Registrar.`,
  delegationLine: (p: { name: string; from: string; to: string }) => `${p.name}: von ${p.from} auf ${p.to}`,
  nameserversNone: '_keine_',
  /** `finding` ist der Satz des Befunds, `fixes` sind seine Korrekturzeilen (features/diagnostics/blocks.ts). */
  dnsFindingAlert: (p: { name: string; finding: string; fixes: string; domain: string }) =>
    `:mag: ${p.name}: ${p.finding}${p.fixes === '' ? '' : `\n${p.fixes}`}\n\`/dns check ${p.domain}\` zeigt das Gesamtbild.`,
  dnsFindingLine: (p: { name: string; finding: string }) => `${p.name}: ${p.finding}`,
  dnssecDrift: (p: { name: string; desired: string; live: string; domain: string }) =>
    `:closed_lock_with_key: DNSSEC von ${p.name} sollte *${p.desired}* sein, die Registry zeigt aber *${p.live}*. Prüfen Sie den Zustand (\`/dns dnssec ${p.domain} verify\`) und korrigieren Sie die Einträge, falls die Abweichung bleibt.`,
  dnssecDriftLine: (p: { name: string; desired: string; live: string }) =>
    `${p.name}: sollte *${p.desired}* sein, die Registry zeigt *${p.live}*`,
  dnssecStuck: (p: { name: string; since: Markup; domain: string }) =>
    `:hourglass: Eine DNSSEC-Änderung von ${p.name} steht seit ${p.since} aus. Prüfen Sie sie (\`/dns dnssec ${p.domain} verify\`) oder brechen Sie sie ab (\`/dns dnssec ${p.domain} cancel\`).`,
  pendingSinceLine: (p: { name: string; since: Markup }) => `${p.name}: steht seit ${p.since} aus`,

  // Warnungen zu einem Zertifikat
  certificateExpired: (p: { name: string; when: Markup }) =>
    `:rotating_light: Zertifikat ${p.name} ist am ${p.when} *abgelaufen*.`,
  certificateRenewIt: 'Verlängern Sie das Zertifikat und installieren Sie dann das neue.',
  certificateRenewalOrdered: (p: { id: string; date: Markup; status: string }) =>
    `Die Verlängerung ${p.id} wurde am ${p.date} bestellt (${p.status}): Installieren Sie das neue Zertifikat, sobald es ausgestellt ist.`,
  certificateExpires: (p: { name: string; when: Markup; days: number }) =>
    `:lock: Zertifikat ${p.name} läuft am ${p.when} ab (${inDays(p.days)}), und über Regdesk ist keine Verlängerung bestellt. Verlängern Sie es jetzt: Die Validierung kann Tage dauern.`,
  /** `renewal` ist certificateLineRenewal oder nichts. */
  certificateExpiredLine: (p: { name: string; when: Markup; renewal: string | undefined }) =>
    `${p.name}: am ${p.when} abgelaufen${p.renewal === undefined ? '' : `, ${p.renewal}`}`,
  certificateExpiresLine: (p: { name: string; when: Markup; renewal: string | undefined }) =>
    `${p.name}: läuft am ${p.when} ab${p.renewal === undefined ? '' : `, ${p.renewal}`}`,
  certificateLineRenewal: (p: { id: string; status: string }) => `Verlängerung ${p.id} (${p.status})`,
  certificateRevoked: (p: { name: string; status: string }) =>
    `:no_entry: Zertifikat ${p.name} ist *${p.status}*: Browser werden es ablehnen.`,
  certificateReissueIt:
    'Stellen Sie es über dieselbe Bestellung neu aus und installieren Sie das neue Zertifikat.',
  certificateReplaceIt:
    'Bestellen Sie mit `/tls order` einen Ersatz und installieren Sie das neue Zertifikat.',
  certificateStuck: (p: { name: string; since: Markup; days: number }) =>
    `:hourglass: Zertifikat ${p.name} wartet seit ${p.since} auf die Ausstellung, länger als die üblichen ${daysAccusative(p.days)}.`,
  certificateDetailsMissing: 'Es fehlen Angaben: Ergänzen Sie sie beim Registrar.',
  certificateCheckValidation: 'Prüfen Sie, ob die Validierungseinträge veröffentlicht sind.',
  certificateStuckLineDetailsMissing: (p: { name: string; since: Markup }) =>
    `${p.name}: steht seit ${p.since} aus, Angaben fehlen`,

  // Warnungen, wenn eine Prüfung fehlschlägt (sweep.ts)
  notFoundDomain: (p: { name: string; remove: string }) =>
    `:grey_question: Der Registrar kennt ${p.name} nicht (404): Vielleicht ist die Domain nicht mehr im Konto, oder der Name ist falsch. Ist sie endgültig weg, beenden Sie die Überwachung mit \`${p.remove}\`.`,
  notFoundCertificate: (p: { name: string; remove: string }) =>
    `:grey_question: Der Registrar kennt ${p.name} nicht (404): Vielleicht ist das Zertifikat nicht mehr im Konto, oder die ID ist falsch. Ist es endgültig weg, beenden Sie die Überwachung mit \`${p.remove}\`.`,
  couldNotCheck: (p: { name: string; times: number; reason: string }) =>
    `:warning: Regdesk konnte ${p.name} ${n(p.times)}-mal hintereinander nicht prüfen (zuletzt: ${p.reason}). Ein Problem damit ist nicht bekannt; Regdesk versucht es weiter und meldet sich hier, wenn etwas ansteht.`,

  // Änderungen, für „Was sich geändert hat“ in der Übersicht
  domainExpiryMoved: (p: { name: string; when: Markup; was: Markup }) =>
    `${p.name} läuft jetzt am ${p.when} ab (vorher ${p.was}).`,
  autoRenewTurnedOn: (p: { name: string }) => `${p.name}: automatische Verlängerung *eingeschaltet*.`,
  autoRenewTurnedOff: (p: { name: string }) => `${p.name}: automatische Verlängerung *ausgeschaltet*.`,
  dnssecChanged: (p: { name: string; live: string; desired: string }) =>
    `${p.name}: DNSSEC ist jetzt ${p.live} (Soll: ${p.desired}).`,
  certificateRenewalStatus: (p: { name: string; id: string; ordered: Markup; status: string }) =>
    `Zertifikat ${p.name}: Die am ${p.ordered} bestellte Verlängerung ${p.id} ist *${p.status}*.`,
  certificateRenewalGone: (p: { name: string; id: string }) =>
    `Zertifikat ${p.name}: Die Verlängerung ${p.id} zählt nicht mehr (storniert, fehlgeschlagen oder nicht mehr vorhanden).`,
  certificateStatusChanged: (p: { name: string; status: string; was: string }) =>
    `Zertifikat ${p.name} ist jetzt *${p.status}* (vorher ${p.was}).`,

  // Mehrere Warnungen mit einer Ursache als eine Nachricht (`items` ist countDomains, countCertificates oder countItems)
  countDomains: (p: { count: number }) => count(p.count, 'Domain', 'Domains'),
  countCertificates: (p: { count: number }) => count(p.count, 'Zertifikat', 'Zertifikate'),
  countItems: (p: { count: number }) => `${n(p.count)} Domains und Zertifikate`,
  batchExpired: (p: { items: string }) => `:rotating_light: ${p.items} sind *abgelaufen*.`,
  batchDomainsLapse: (p: { items: string; days: number }) =>
    `:rotating_light: ${p.items} laufen innerhalb von ${daysDative(p.days)} ab und werden nicht verlängert: Die automatische Verlängerung ist *aus*, oder sie sind *gekündigt*. Verlängern Sie sie beim Registrar, sonst verfallen sie.`,
  batchDomainsExpire: (p: { items: string; days: number }) =>
    `:calendar: ${p.items} laufen innerhalb von ${daysDative(p.days)} ab. Die automatische Verlängerung ist an: Stellen Sie sicher, dass das Konto die Verlängerungen bezahlen kann.`,
  batchCertificatesExpired: (p: { items: string }) =>
    `:rotating_light: ${p.items} sind *abgelaufen*. Verlängern Sie sie und installieren Sie die neuen Zertifikate.`,
  batchCertificatesExpire: (p: { items: string; days: number }) =>
    `:lock: ${p.items} laufen innerhalb von ${daysDative(p.days)} ab, und über Regdesk ist keine Verlängerung bestellt. Verlängern Sie sie jetzt: Die Validierung kann Tage dauern.`,
  batchDnsFinding: (p: { items: string }) =>
    `:mag: Die Live-Prüfung des DNS hat bei ${p.items} etwas Neues gefunden. \`/dns check DOMAIN\` zeigt, was wo einzutragen ist.`,
  batchDelegation: (p: { items: string }) =>
    `:twisted_rightwards_arrows: Die Delegierung von ${p.items} hat sich geändert. Falls hier niemand sie geändert hat, prüfen Sie sofort das Konto beim Registrar.`,
  batchDnssecDrift: (p: { items: string }) =>
    `:closed_lock_with_key: DNSSEC von ${p.items} entspricht nicht dem Sollzustand. Prüfen Sie jede Domain mit \`/dns dnssec DOMAIN verify\` und korrigieren Sie die Einträge, falls die Abweichung bleibt.`,
  batchDnssecStuck: (p: { items: string }) =>
    `:hourglass: Bei ${p.items} steht eine DNSSEC-Änderung seit mehr als einem Tag aus. Prüfen Sie jede mit \`/dns dnssec DOMAIN verify\`, oder brechen Sie sie mit \`cancel\` ab.`,
  batchCertificateStatus: (p: { items: string; status: string }) =>
    `:no_entry: ${p.items} sind *${p.status}*: Browser werden sie ablehnen. Ersetzen Sie sie und installieren Sie die neuen Zertifikate.`,
  batchCertificateStuck: (p: { items: string; days: number }) =>
    `:hourglass: ${p.items} warten länger als die üblichen ${daysAccusative(p.days)} auf die Ausstellung. Prüfen Sie ihre Validierungseinträge, oder ergänzen Sie ihre Angaben beim Registrar.`,
  batchNotFound: (p: { items: string }) =>
    `:grey_question: Der Registrar kennt ${p.items} nicht (404): Vielleicht sind sie nicht mehr im Konto, oder der API-Schlüssel gehört jetzt zu einem anderen Konto. Beenden Sie die Überwachung der endgültig entfernten mit \`/domain watch remove\` oder \`/tls watch remove\`.`,
  batchUnreachable: (p: { items: string; times: number; reason: string }) =>
    `:warning: ${p.items} konnten ${n(p.times)}-mal hintereinander nicht geprüft werden: ${p.reason} Ein Problem damit ist nicht bekannt; Regdesk versucht es weiter und meldet sich hier, wenn etwas ansteht.`,
  batchLine: (p: { line: string }) => `• ${p.line}`,
  batchMore: (p: { count: number }) => `…und ${n(p.count)} weitere.`,
  batchFooter:
    '`/domain watch list` und `/tls watch list` zeigen alle Überwachungen · `/domain watch remove` oder `/tls watch remove` beendet eine',
} satisfies typeof en;
