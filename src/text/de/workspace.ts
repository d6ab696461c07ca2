import type { workspace as en } from '../en/workspace.js';
import type { Markup } from '../escape.js';
import { count, n } from './grammar.js';

/** „1 Eintrag“, „1.234 Einträge“. */
const entries = (value: number): string => count(value, 'Eintrag', 'Einträge');

/** Was Regdesk über den Workspace sagt: App-Startseite, Schlüssel, Audit, Installation, Verfolgen (siehe ../index.ts). */
export const workspace = {
  // `/domain key`: Aufruf, Hilfezeile und Ablehnungen des Befehls
  keyUsage: 'key',
  keySummary: 'API-Schlüssel des Registrars für diesen Workspace festlegen, ersetzen oder entfernen (Admins)',
  keyNotAdmin:
    ':lock: Nur Admins und Inhaber des Workspace sowie Regdesk-Admins können den API-Schlüssel des Registrars ändern. Bitten Sie eine dieser Personen, `/domain key` auszuführen.',
  keySlackTooSlow: 'Slack hat zu lange für die Antwort gebraucht; bitte führen Sie `/domain key` erneut aus.',

  // Der Status des gespeicherten Schlüssels, im Schlüsselformular und auf der App-Startseite (`who` und `when` kommen als mrkdwn)
  keyStatusSet: (p: { masked: string; who: Markup; when: Markup; readable: boolean }) =>
    `Gespeicherter Schlüssel \`${p.masked}\`, festgelegt von ${p.who}, ${p.when}.${p.readable ? '' : ' :warning: Er lässt sich mit dem aktuellen Tresorschlüssel nicht öffnen; legen Sie ihn neu fest.'}`,
  keyStatusUnknownTime: 'Zeitpunkt unbekannt',
  keyStatusSandbox:
    'Für diesen Workspace ist kein eigener Schlüssel gespeichert: Regdesk nutzt den Demo-Schlüssel der Sandbox.',
  keyStatusMissing:
    'Es ist kein Schlüssel gespeichert. Befehle für den Registrar funktionieren erst, wenn ein Admin einen hinzufügt.',

  // Das Schlüsselformular: Titel, Felder und der Hinweis, während der Registrar den Schlüssel prüft
  keyModalTitle: 'Registrar-API-Schlüssel',
  keyModalSubmit: 'Speichern',
  keyFieldLabel: 'API-Schlüssel',
  keyFieldLabelNew: 'Neuer API-Schlüssel',
  keyFieldPlaceholder: 'API-Schlüssel des Registrars einfügen',
  keyFieldHint:
    'Wird vor dem Speichern beim Registrar geprüft und dann verschlüsselt aufbewahrt. Niemand kann ihn wieder auslesen.',
  keyRemoveLabel: 'Entfernen',
  keyRemoveOption: 'Gespeicherten Schlüssel entfernen',
  keyChecking: ':hourglass_flowing_sand: Der Registrar prüft den Schlüssel …',

  // Die Feldfehler des Schlüsselformulars (response_action: errors)
  keyBothGiven:
    'Fügen Sie entweder einen neuen Schlüssel ein oder entfernen Sie den gespeicherten, nicht beides.',
  keyNotGiven: 'Fügen Sie den API-Schlüssel ein, der gespeichert werden soll.',
  keyHasSpaces: 'Ein API-Schlüssel enthält keine Leerzeichen oder Zeilenumbrüche.',

  // Das Ergebnis einer Schlüsseleingabe
  keyChangeNotAdmin:
    ':lock: Nur Admins und Inhaber des Workspace können den API-Schlüssel des Registrars ändern.',
  keyRemoved: ':wastebasket: Der gespeicherte Schlüssel wurde entfernt.',
  keyNoneStored: 'Es war kein Schlüssel gespeichert.',
  keyAccepted: (p: { masked: string | undefined }) =>
    `:white_check_mark: Der Registrar hat den Schlüssel${p.masked === undefined ? '' : ` \`${p.masked}\``} akzeptiert. Regdesk nutzt ihn ab jetzt für diesen Workspace.`,
  keyRejected:
    ':x: Der Registrar hat diesen Schlüssel abgelehnt (401 Unauthorized). Es wurde nichts gespeichert.',
  keyUncheckable:
    ':x: Der Registrar war nicht erreichbar, um den Schlüssel zu prüfen; versuchen Sie es gleich noch einmal. Es wurde nichts gespeichert.',

  // Warum ein Aufruf beim Registrar keinen Schlüssel hat (NoApiKeyError, UnreadableApiKeyError)
  noApiKey:
    'Dieser Workspace hat noch keinen API-Schlüssel für den Registrar. Ein Admin des Workspace kann mit `/domain key` einen hinzufügen.',
  unreadableApiKey:
    'Der gespeicherte API-Schlüssel dieses Workspace lässt sich mit dem aktuellen Tresorschlüssel nicht öffnen. ' +
    'Ein Admin des Workspace kann ihn mit `/domain key` neu festlegen.',

  // App-Startseite: Schlüsselstatus, Schnellaktionen, offene Freigaben, laufende Vorgänge, letzte Aktivitäten
  homeHeader: 'Regdesk',
  homeKeySection: (p: { status: Markup }) => `*API-Schlüssel des Registrars*\n${p.status}`,
  homeKeyButton: 'Registrar-API-Schlüssel',
  homeRefreshButton: 'Aktualisieren',
  homePendingHeader: (p: { count: number }) => `Offene Freigaben (${p.count.toLocaleString('de-DE')})`,
  homeNothingPending: 'Nichts wartet auf Freigabe.',
  homeMorePending: (p: { count: number }) => `… und ${p.count.toLocaleString('de-DE')} weitere.`,
  homeRunningHeader: 'Laufende Vorgänge',
  homeNothingRunning: 'Es werden keine offenen Vorgänge verfolgt.',
  homeRunningExecution: (p: { id: string }) => `:gear: Freigegebene Anfrage \`${p.id}\` wird ausgeführt`,
  homeRunningFollow: (p: { kind: string; resource: string; check: number }) =>
    `:hourglass_flowing_sand: ${
      p.kind === 'dnssec' ? 'DNSSEC von' : p.kind === 'record' ? 'Die Eintragsänderung' : 'Zertifikat'
    } \`${p.resource}\` wird verfolgt (${n(p.check)}. Prüfung)`,
  homeRecentHeader: 'Letzte Aktivitäten',
  nothingRecorded: 'Noch nichts aufgezeichnet.',

  // App-Startseite beim ersten Besuch einer Person
  welcomeHeader: 'Willkommen bei Regdesk',
  welcomeIntro:
    'Regdesk verwaltet Ihre Domains, DNS und TLS-Zertifikate direkt in Slack. Antworten auf Abfragen sehen nur Sie; ' +
    'mit *Im Channel teilen* zeigen Sie sie allen. Heikle Aktionen (Widerrufe, AuthInfo-Codes, Änderungen an Delegierung ' +
    'und DNSSEC) brauchen die Freigabe einer zweiten Person, und alles wird im Audit-Protokoll festgehalten.',
  welcomeCommands:
    '*Befehle*\n' +
    '• `/domain check NAME…` Verfügbarkeit von bis zu 50 Namen\n' +
    '• `/domain info DOMAIN` Registrierung, Ablauf und Nameserver\n' +
    '• `/dns records DOMAIN` und `/dns dnssec DOMAIN` Zonen und DNSSEC\n' +
    '• `/tls order`, `/tls show ID` Zertifikate, verfolgt bis zur Ausstellung\n' +
    '• `/domain watch add DOMAIN…`, `/tls watch add ID…` Warnungen vor dem Ablauf und bei Abweichungen\n' +
    '• `/ask FRAGE` der Assistent des Registrars, Antwort im Thread\n' +
    '• `/domain help`, `/dns help`, `/tls help` alles Weitere',
  welcomeAdmins:
    'Admins: Legen Sie unten den API-Schlüssel des Registrars fest und mit `/domain policy` die Freigebenden.',

  // App-Startseite für Gäste und Personen außerhalb des Workspace
  restrictedIntro:
    'Regdesk verwaltet die Domains, DNS und TLS-Zertifikate dieses Workspace direkt in Slack; heikle Änderungen ' +
    'brauchen die Freigabe einer zweiten Person.',
  restrictedNoAccess: (p: { reason: string }) =>
    `:lock: ${p.reason} Sie haben hier keinen Zugriff auf Freigaben.`,
  restrictedNote:
    'Offene Freigaben, laufende Vorgänge und das Audit-Protokoll sind nur für Mitglieder dieses Workspace sichtbar.',

  // `/domain audit`: Aufruf, Hilfezeile, Titel und Hinweis des Protokolls
  auditUsage: 'audit [DOMAIN|export]',
  auditSummary:
    'das aktuelle Audit-Protokoll dieses Workspace, wahlweise für eine Domain oder Zertifikats-ID; `export` schickt Admins das ganze Protokoll',
  auditTitle: 'Audit-Protokoll',
  auditTitleFor: (p: { target: string }) => `Audit-Protokoll: ${p.target}`,
  auditEntries: (p: { count: number }) => `Audit-Protokoll (${entries(p.count)})`,
  auditHashesNote: 'Parameter werden als SHA-256-Hashes protokolliert, Geheimnisse nie.',

  // Eine Zeile des Protokolls: „<wann> <wer>: <was> `operation` für `target` – …“ (`when`, `actor` sind mrkdwn)
  auditLine: (p: { when: Markup; actor: Markup; action: string }) => `${p.when} ${p.actor}: ${p.action}`,
  auditOnTarget: (p: { target: string }) => `für ${p.target}`,

  // Wie jede protokollierte Handlung in einer Zeile lautet (als Partizip: „<wer>: freigegeben …“)
  auditRequested: 'angefragt',
  auditApproved: 'freigegeben',
  auditDenied: 'abgelehnt',
  auditWithdrew: 'zurückgezogen',
  auditExpired: 'abgelaufen',
  auditStarted: 'gestartet',
  auditSucceeded: 'erfolgreich',
  auditFailed: 'fehlgeschlagen',
  auditSetKey: 'API-Schlüssel festgelegt',
  auditReplacedKey: 'API-Schlüssel ersetzt',
  auditRemovedKey: 'API-Schlüssel entfernt',
  auditChangedPolicy: 'Freigaberichtlinie geändert',
  auditRevealed: 'eigenen AuthInfo-Code eingeblendet',
  auditReminded: 'Freigebende erinnert (die Anfrage war noch offen)',
  auditBrokeGlass: 'hat eine Sperre per Notfall-Freigabe umgangen für',
  auditEscalated: 'hat die Eskalationskontakte informiert über',
  auditUninstalled: 'deinstalliert',
  auditRefused: 'abgewiesen',
  auditOrdered: 'bestellt',
  auditReissued: 'neu ausgestellt',
  auditExported: 'Audit-Protokoll exportiert',
  auditAddedWatch: 'Überwachung hinzugefügt',
  auditRemovedWatch: 'Überwachung entfernt',
  auditChangedWatchSettings: 'Überwachungseinstellungen geändert',

  // `/domain audit export`: die Datei per Direktnachricht, was das Protokoll davon festhält, und die Antwort
  auditExportTitle: (p: { count: number }) => `Regdesk-Audit-Protokoll (${entries(p.count)})`,
  auditExportComment:
    'Das Audit-Protokoll dieses Workspace, älteste Einträge zuerst: ein JSON-Objekt pro Zeile.',
  auditExportOutcome: (p: { count: number }) => entries(p.count),
  auditExportSent: (p: { count: number }) =>
    `:white_check_mark: Das Audit-Protokoll (${entries(p.count)}) finden Sie in Ihrer Direktnachricht mit Regdesk.`,

  // Eine Änderung verfolgen: im Channel angekündigt oder privat mitgeteilt, wo Regdesk nicht posten kann
  followNote: 'Regdesk verfolgt den Vorgang und berichtet in diesem Thread.',
  followNotPosted: 'Regdesk konnte die Nachricht nicht im Channel posten.',
  followToldPrivately: (p: { why: string; following: boolean }) =>
    `${p.why}${p.following ? ' Regdesk verfolgt den Vorgang und meldet sich in Ihrer Direktnachricht mit Regdesk, sobald er abgeschlossen ist.' : ''}`,
  followNotStarted: (p: { reason: string; command: string }) =>
    `${p.reason}\nRegdesk konnte das Verfolgen nicht starten; den Fortschritt zeigt \`${p.command}\`.`,

  // Was das Verfolgen im Thread berichtet (`resource` und `when` kommen als mrkdwn)
  followAddressed: (p: { user: string; text: string }) => `<@${p.user}> ${p.text}`,
  followStopped: (p: { resource: string; reason: string }) =>
    `:warning: Verfolgung von ${p.resource} beendet: ${p.reason}`,
  followSettled: (p: { when: Markup }) => `Abgeschlossen: ${p.when}`,
  followDeadline: (p: { resource: string; deadline: Markup; command: string }) =>
    `:alarm_clock: ${p.resource} war bei Fristende (${p.deadline}) noch nicht abgeschlossen; Regdesk verfolgt den Vorgang nicht mehr. Prüfen Sie ihn mit \`${p.command}\`.`,
} satisfies typeof en;
