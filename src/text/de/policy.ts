import type { policy as en } from '../en/policy.js';

/** Was Regdesk über die Freigaberichtlinie sagt: `/domain policy`, das Formular und Änderungen (siehe ../index.ts). */
export const policy = {
  // `/domain policy`: der Befehl und das Formular (policy/view.ts)
  policyUsage: 'policy [export]',
  policySummary:
    'Freigebende, wer anfragen und bestellen darf, Freigaben für DNS-Einträge, Freigabe-Channel, Antworten des Assistenten (Admins); `export` sendet die Richtlinie als YAML',
  policyExportTitle: 'Regdesk-Freigaberichtlinie (YAML, Version 2)',
  policyExportComment:
    'Die Freigaberichtlinie dieses Workspaces als ein YAML-Dokument: Bearbeiten Sie es und speichern Sie es mit `regdesk policy set`.',
  policyExportSent:
    ':white_check_mark: Die Freigaberichtlinie als YAML finden Sie in Ihrer Direktnachricht mit Regdesk.',
  policyExportOutcome: 'Freigaberichtlinie als YAML exportiert',
  policyTitle: 'Freigaberichtlinie',
  policySubmit: 'Speichern',
  policyUnreadable:
    ':warning: *Die gespeicherte Richtlinie ließ sich nicht lesen*, daher werden heikle Anfragen, Zertifikatsbestellungen und ' +
    'Neuausstellungen abgelehnt. Unten stehen die strengsten Einstellungen: Prüfen Sie sie und speichern Sie, damit wieder eine Richtlinie gilt.',
  policyRepaired: (p: { fields: readonly string[] }) =>
    ':warning: *Einige gespeicherte Einstellungen sind in dieser Version ungültig* und gelten bis zum Speichern mit ihrem ' +
    `strengsten Wert: ${p.fields.join(', ')}.`,
  policySensitiveIntro:
    '*Heikle Aktionen* (Widerruf, Stornieren einer Bestellung, AuthInfo-Code, Änderung der Delegierung, Deaktivieren von DNSSEC ' +
    'und externe DNSSEC-Einträge) brauchen die Freigabe einer anderen Person als der anfragenden. Sind keine Freigebenden ' +
    'festgelegt, geben die Admins und Inhaber des Workspace frei.',
  policyCertificatesIntro:
    '*Zertifikate*: Bestellungen, Verlängerungen und Neuausstellungen kosten Geld, und TLS-Organisationen bestimmen, wofür ein Zertifikat bürgt.',
  policyAssistantIntro:
    '*Assistent*: wo Antworten auf `/ask` erscheinen und auf welche Websites sie außer der des Registrars verlinken dürfen.',
  policyWatchesIntro:
    '*Überwachungen*: Wer eine Überwachung entfernt, schaltet ihre Warnungen stumm, und die Einstellungen der Übersicht bestimmen, wohin jede Warnung geht. Admins sind die Admins und Inhaber des Workspace sowie die unten aufgeführten Regdesk-Admins.',
  policySaving: ':hourglass_flowing_sand: Wird gespeichert …',
  policySaved: ':white_check_mark: Die Freigaberichtlinie ist gespeichert und gilt für neue Anfragen.',

  // Die Feldbezeichnungen des Formulars; so heißt auch ein Feld, das auf seinen strengsten Wert zurückgesetzt wurde (R41)
  labelApprovers: 'Freigebende',
  labelApproverGroup: 'Benutzergruppen-IDs der Freigebenden',
  labelNeeded: 'Benötigte Freigaben',
  labelExpiryHours: 'Anfragen laufen ab nach (Stunden)',
  labelRequesters: 'Wer anfragen darf',
  labelRequesterUsers: 'Aufgeführte anfragende Personen',
  labelApprovalsChannel: 'Freigabe-Channel',
  labelOrderers: 'Wer bestellen und neu ausstellen darf',
  labelOrdererUsers: 'Aufgeführte bestellende Personen',
  labelOrdersNeedApproval: 'Freigabe für Bestellungen',
  labelRecordChangesNeedApproval: 'Freigabe für Änderungen an DNS-Einträgen',
  labelRecordChangeExemptTypes: 'Von der Freigabe ausgenommene Eintragstypen',
  labelRecordChangeExemptUsers: 'Von der Freigabe für Einträge ausgenommene Personen',
  labelValidationPublishing: 'Veröffentlichen von Validierungseinträgen',
  labelAssistantAnswers: 'Antworten erscheinen',
  labelAssistantLinkHosts: 'Erlaubte Link-Hosts',
  labelAdmins: 'Regdesk-Admins',
  labelWatchManagers: 'Wer Überwachungen entfernen und Einstellungen der Übersicht ändern darf',
  labelLanguage: 'Sprache',
  labelActions: 'Regeln je Aktionsklasse über die Zeilen oben hinaus (regdesk policy set)',
  labelZones: 'Abweichungen je Zone (regdesk policy set)',
  labelFreezes: 'Sperrzeiten (regdesk policy set)',
  labelEscalateTo: 'Eskalation (regdesk policy set)',
  labelMcp: 'Agenten über /mcp (regdesk policy set)',

  // Die Hinweise des Formulars
  hintApproverGroup: 'Mitglieder dieser Benutzergruppen (S…, durch Kommas getrennt) geben ebenfalls frei.',
  hintApprovalsChannel: 'Anfragen erscheinen hier statt dort, wo sie gestellt wurden.',
  hintAssistantLinkHosts: 'Hostnamen, durch Kommas getrennt, z. B. docs.example.com, status.example.com.',
  hintRecordChangeExemptTypes: 'Änderungen an Einträgen dieser Typen gelten ohne Anfrage.',
  hintRecordChangeExemptUsers: 'Änderungen dieser Personen an Einträgen gelten ohne Anfrage.',
  hintAdmins: 'Dürfen diese Richtlinie und den API-Schlüssel ändern und das Audit-Protokoll exportieren.',
  hintLanguage:
    'Freigabeanfragen, Warnungen, Übersichten und Folgeberichte in Channels erscheinen in der Sprache des Workspace.',

  // Die Optionen des Formulars (policy/form.ts, policy/view.ts)
  requestersAnyone: 'Alle im Workspace',
  requestersApprovers: 'Nur Freigebende',
  requestersListed: 'Aufgeführte Personen (und Freigebende)',
  orderersMembers: 'Alle Mitglieder (nie Gäste oder Externe)',
  orderersApprovers: 'Nur Freigebende',
  orderersListed: 'Nur aufgeführte Personen',
  answersSharedPrivate: 'Im Thread; in Channels mit anderen Organisationen nur privat',
  answersChannel: 'Im Thread der Frage',
  answersAsker: 'Nur an die fragende Person',
  watchManagersAdderAndAdmins: 'Wer die Überwachung angelegt (Einstellungen gespeichert) hat, und Admins',
  watchManagersAnyone: 'Alle Mitglieder',
  languageAuto: 'Die eigene Slack-Sprache jeder Person (Channels auf Englisch)',
  languageGerman: 'Deutsch',
  languageEnglish: 'English',

  // Die Feldfehler des Formulars (policy/form.ts)
  notAHostName: (p: { word: string }) =>
    `„${p.word}“ ist kein Hostname: Geben Sie Namen wie docs.example.com an, ohne https:// oder Pfad, durch Kommas getrennt.`,
  tooManyHosts: (p: { max: number }) => `Höchstens ${p.max} Hosts.`,
  approverGroupShape: 'Eine Benutzergruppen-ID sieht so aus: S0123ABCD; mehrere durch Kommas trennen.',
  orderersNoneListed:
    'Führen Sie auf, wer Zertifikate bestellen darf, oder wählen Sie oben eine andere Option.',
  neededUnmeetable: (p: { listed: number; able: number; onlyApproversAsk: boolean }) =>
    (p.listed === 1
      ? 'Eine aufgeführte freigebende Person kann'
      : `${p.listed} aufgeführte Freigebende können`) +
    ` höchstens ${p.able === 1 ? 'eine Freigabe' : `${p.able} Freigaben`} erteilen` +
    (p.onlyApproversAsk
      ? ' (nur Freigebende dürfen anfragen, und niemand gibt die eigene Anfrage frei)'
      : '') +
    ': Führen Sie weitere Freigebende auf, fügen Sie eine Benutzergruppe hinzu oder senken Sie diese Zahl.',

  // Die Prüfung des Freigabe-Channels (channel-probe.ts)
  probeText:
    ':wave: Regdesk prüft, ob es hier Freigabeanfragen posten kann. Diese Nachricht entfernt sich von selbst.',
  probeChooseChannel: 'Wählen Sie einen Channel: Freigabeanfragen erscheinen dort, wo Freigebende sie sehen.',
  probeNotInChannel:
    'Regdesk ist nicht in diesem Channel: Laden Sie es dort mit `/invite @Regdesk` ein oder wählen Sie einen anderen.',
  probeChannelNotFound:
    'Regdesk kann in dieser Unterhaltung nicht posten (ein privater Channel, in dem es nicht Mitglied ist): Laden Sie es mit `/invite @Regdesk` ein oder wählen Sie einen anderen.',
  probeArchived: 'Dieser Channel ist archiviert; wählen Sie einen anderen.',
  probeFailed: 'Regdesk konnte nicht prüfen, ob es hier posten kann; versuchen Sie es gleich noch einmal.',

  // Eine Änderung der Richtlinie, wie das Audit-Protokoll sie festhält (policy/view.ts)
  policyChangeFromUnreadable: (p: { now: string }) => `war nicht lesbar; jetzt ${p.now}`,
  policyFieldChanged: (p: { field: string; before: string; after: string }) =>
    `${p.field}: ${p.before} → ${p.after}`,
  policyValueUnset: 'nicht gesetzt',
  policyNoChange: 'keine Änderung',
} satisfies typeof en;
