import type { domains as en } from '../en/domains.js';
import type { Markup } from '../escape.js';
import { n } from './grammar.js';

/** Was Regdesk über Domains sagt (siehe ../index.ts). */
export const domains = {
  // Werte, wo der Registrar nichts gemeldet hat, und Ja/Nein-Felder
  unknown: 'unbekannt',
  yes: 'ja',
  no: 'nein',
  noneReported: '_keine gemeldet_',
  none: '_keine_',

  // Die Karte einer Domain (`/domain info`)
  ownerField: (p: { owner: string }) => `*Inhaber*\n${p.owner}`,
  dnssecField: (p: { state: string }) => `*DNSSEC*\n${p.state}`,
  registeredField: (p: { when: Markup }) => `*Registriert*\n${p.when}`,
  expiresField: (p: { when: Markup }) => `*Ablauf*\n${p.when}`,
  autoRenewField: (p: { value: string }) => `*Automatische Verlängerung*\n${p.value}`,
  cancelledField: (p: { value: string }) => `*Gekündigt*\n${p.value}`,
  delegatedNameservers: (p: { nameservers: string }) => `*Delegierte Nameserver*\n${p.nameservers}`,
  asciiForm: (p: { ascii: string }) => `ASCII-Form: ${p.ascii}`,
  watchButton: (p: { name: string }) => `${p.name} überwachen`,
  cardFallback: (p: { name: string; expires: Markup }) => `${p.name}: Ablauf ${p.expires}`,

  // Warnungen auf der Karte einer Domain, die schlimmste zuerst
  cancelledWarning: ':no_entry: Die Domain ist *gekündigt*.',
  expiredWarning: (p: { at: Markup }) => `:rotating_light: Abgelaufen ${p.at}.`,
  expiresSoonWarning: (p: { at: Markup }) => `:warning: Läuft ab ${p.at}.`,
  autoRenewOffWarning:
    ':warning: Die automatische Verlängerung ist *aus*: Die Domain verfällt, wenn sie nicht von Hand verlängert wird.',

  // `/domain check`: Aufruf und Hilfezeile des Routers, und die Antwort mit dem Aufruf
  checkUsage: 'check NAME [NAME…]',
  checkSummary: (p: { max: number }) =>
    `Verfügbarkeit von bis zu ${n(p.max)} Namen (getrennt durch Leerzeichen, Kommas oder Zeilenumbrüche)`,
  checkUsageReply: (p: { max: number }) =>
    `Aufruf: \`/domain check example.com [weitere Namen…]\` (bis zu ${n(p.max)}, auch IDN).`,

  // `/domain check`: eine Zeile je Name
  checkWaiting: (p: { name: string }) => `:hourglass_flowing_sand: ${p.name}`,
  checkAvailable: (p: { name: string }) => `:white_check_mark: ${p.name} ist frei`,
  checkTaken: (p: { name: string }) => `:x: ${p.name} ist vergeben`,
  checkTakenWithStatus: (p: { name: string; status: string }) => `:x: ${p.name} ist vergeben (${p.status})`,
  checkInvalid: (p: { name: string; reason: string }) => `:warning: ${p.name}: ${p.reason}`,
  // Warum ein eingegebener Name keiner ist, den ein Registrar verkauft (shared/domain-names.ts)
  nameEmpty: 'leer',
  nameEmptyLabel: 'leeres Label',
  nameNotADomain: 'kein Domainname',
  nameInvalid: 'kein gültiger Domainname',
  nameUnknownTld: 'unbekannte Top-Level-Domain',
  namePublicSuffix: 'eine öffentliche Endung, kein registrierbarer Name',
  nameSubdomain: (p: { domain: string }) => `eine Subdomain; meinten Sie ${p.domain}?`,
  nameMixedScripts: '⚠ gemischte Schriften',
  checkUnknown: (p: { name: string; reason: string }) =>
    `:grey_question: ${p.name}: nicht prüfbar – versuchen Sie es erneut (${p.reason})`,

  // `/domain check`: die Nachricht um die Zeilen
  checkTitle: (p: { count: number }) => `Verfügbarkeit von ${n(p.count)} Namen`,
  checkProgress: (p: { done: number; total: number }) =>
    `Wird geprüft … ${n(p.done)} von ${n(p.total)} erledigt.`,
  checkDone: (p: { available: number; taken: number; invalid: number; unknown: number }) =>
    `${n(p.available)} frei, ${n(p.taken)} vergeben, ${n(p.invalid)} ungültig, ${n(p.unknown)} nicht prüfbar.`,
  checkOverflow: (p: { overflow: number; max: number }) =>
    `${
      p.overflow === 1 ? '1 weiterer Name wurde' : `${n(p.overflow)} weitere Namen wurden`
    } ignoriert: höchstens ${n(p.max)} pro Prüfung.`,
  checkFallback: (p: { summary: string }) => `Verfügbarkeit: ${p.summary}`,

  // `/domain check`: warum ein Name nicht prüfbar oder ungültig ist
  checkLimitReached: 'Limit für Verfügbarkeitsabfragen erreicht',
  checkNameRefused: 'die Registry akzeptiert diesen Namen nicht',
  checkRegistryUnreachable: 'Registry nicht erreichbar',
  checkRegistrarLimit: 'Limit des Registrars erreicht',
  checkNoAnswer: 'keine Antwort',
  checkRegistrarError: (p: { status: number }) => `Fehler ${p.status} beim Registrar`,

  // `/domain check`: der Anteil einer Person ist aufgebraucht (CheckCapError)
  checkAlreadyRunning: 'Es läuft bereits ein `/domain check` von Ihnen; warten Sie zuerst auf die Antwort.',
  checkShareUsed: (p: { max: number }) =>
    `Sie haben in dieser Minute ${n(p.max)} Namen geprüft, Ihren Anteil am Limit des Registrars; versuchen Sie es in einer Minute erneut.`,

  // `/domain info`
  infoUsage: 'info DOMAIN',
  infoSummary: 'Registrierungsdaten, Ablauf und delegierte Nameserver',
  infoUsageReply: '`/domain info DOMAIN`, z. B. `/domain info example.com`.',

  // `/domain ns`: Aufruf und die Karte der Delegierung
  nsUsage: 'ns DOMAIN [set VANITY_SET_ID|standard]',
  nsSummary: 'aktuelle Delegierung; `set` ändert sie (braucht eine Freigabe)',
  nsUsageReply: '`/domain ns DOMAIN` oder `/domain ns DOMAIN set VANITY_SET_ID|standard`.',
  nsSetUsageReply: '`/domain ns DOMAIN set VANITY_SET_ID|standard`, z. B. `/domain ns example.com set 11`.',
  delegationTitle: (p: { name: string }) => `Delegierung von ${p.name}`,
  nameserversSection: (p: { nameservers: string }) => `*Nameserver*\n${p.nameservers}`,
  vanitySetsSection: (p: { sets: string }) => `*Vanity-Nameserver-Sets des Kontos*\n${p.sets}`,
  vanitySetLine: (p: { id: number; host: string; nameservers: string }) =>
    `\`${p.id}\` ${p.host}: ${p.nameservers}`,
  vanitySetsNotKnown: '_Noch nicht bekannt: Der Registrar nennt sie nur bei einer Änderung der Delegierung._',
  delegationChangeHint:
    'Ändern Sie die Delegierung mit `/domain ns DOMAIN set VANITY_SET_ID` (eines der Vanity-Sets des Kontos) oder `set standard`; eine zweite Person muss sie freigeben.',

  // `/domain authcode`
  authcodeUsage: 'authcode DOMAIN',
  authcodeSummary: 'AuthInfo-Code für den Transfer, nur für Sie sichtbar (braucht eine Freigabe)',
  authcodeUsageReply: '`/domain authcode DOMAIN`.',

  // Der Vorgang AuthInfo-Code: Zusammenfassung für die Freigabe, Vorschau und Ergebnis
  authCodeRequestSummary: (p: { domain: string }) =>
    `einen AuthInfo-Code für ${p.domain} ausstellen (ermöglicht den Transfer zu einem anderen Registrar)`,
  authCodePreviewDomain: (p: { domain: string; owner: string }) => `Domain ${p.domain}, Inhaber ${p.owner}.`,
  authCodePreviewPrivacy:
    'Nur die anfragende Person sieht den Code. Jeder ausgestellte Code wird im Protokoll des Domain-Schutzes festgehalten.',
  authCodePreviewCancelled: ':warning: Die Domain ist gekündigt.',
  authCodeIssued: 'AuthInfo-Code ausgestellt; nur die anfragende Person kann ihn einblenden',

  // Der Vorgang Delegierung ändern: Zusammenfassung für die Freigabe, Vorschau und Ergebnis
  delegateToStandardSummary: (p: { domain: string }) => `${p.domain} an die Standard-Nameserver delegieren`,
  delegateToVanitySummary: (p: { domain: string; vanitySetId: number }) =>
    `${p.domain} an das Vanity-Nameserver-Set ${p.vanitySetId} delegieren`,
  delegationNow: (p: { nameservers: string }) => `Derzeit delegiert an ${p.nameservers}.`,
  delegationToStandard: 'Künftig an die Standard-Nameserver des Registrars.',
  delegationToUnknownVanitySet: (p: { vanitySetId: number; domain: string }) =>
    `Künftig an das Vanity-Nameserver-Set ${p.vanitySetId}; dessen Nameserver kennt Regdesk noch nicht (\`/domain ns ${p.domain}\` listet die Sets, die der Registrar gemeldet hat).`,
  delegationToVanitySet: (p: { vanitySetId: number; nameservers: string }) =>
    `Künftig an das Vanity-Nameserver-Set ${p.vanitySetId}: ${p.nameservers}.`,
  delegationChangeWarning:
    'Eine Änderung der Delegierung verlagert die DNS-Auflösung der ganzen Domain; der Registrar erlaubt nur wenige Änderungen am Tag.',
  delegatedTo: (p: { nameservers: string }) => `Jetzt an ${p.nameservers} delegiert`,
  delegatedToStandard: 'Jetzt an die Standard-Nameserver delegiert',
} satisfies typeof en;
