import type { changesets as en } from '../en/changesets.js';
import type { Markup } from '../escape.js';

const einträge = (count: number) => (count === 1 ? '1 Eintrag' : `${count} Einträge`);
const schritte = (count: number) => (count === 1 ? '1 Schritt' : `${count} Schritte`);

/** Was Regdesk über Zonendateien und Änderungssätze sagt (features/changesets). */
export const changesets = {
  zoneUsage: 'zone DOMAIN | zone export DOMAIN | zone import DOMAIN',
  zoneSummary:
    'SOA, Delegation, DNSSEC und Einträge je Typ; die Zone als Datei exportieren oder eine als Änderungssatz importieren',
  exportUsageReply: '`/dns zone export DOMAIN`.',
  importUsageReply: '`/dns zone import DOMAIN`.',
  exportTitle: (p: { domain: string }) => `Zonendatei von ${p.domain}`,
  exportComment: (p: { domain: string; count: number }) =>
    `Die Zone ${p.domain} als RFC-1035-Zonendatei: SOA, NS der Zone und ${einträge(p.count)}.`,
  commentAuto: 'vom Registrar verwaltet (auto): ein Import ändert ihn nie',
  commentAlias: 'ALIAS ist ein eigener Typ des Registrars, kein Standardtyp: als Kommentar erhalten',
  commentInactive: 'beim Registrar inaktiv: wird nicht ausgeliefert',
  commentUnwritable: 'Daten, die eine Zonendatei nicht fassen kann',

  importTitle: 'Einträge importieren',
  importSubmit: 'Planen',
  importIntro: (p: { domain: string }) =>
    `Einträge für *${p.domain}* im Format einer Zonendatei (RFC 1035: relative Namen, \`$ORIGIN\`, \`$TTL\`, Klammern und Kommentare). Nichts ändert sich, bevor der Plan freigegeben ist.`,
  importTextLabel: 'Einträge',
  importTextHint:
    'Eine Zonendatei oder einen Teil davon einfügen (bis zu 3.000 Zeichen). SOA und NS der Zone bleiben, wie sie sind.',
  importModeLabel: 'Modus',
  modeMerge: 'Zusammenführen: anlegen und ändern, nie löschen',
  modeReplace: 'Ersetzen: auch die Einträge der Zone löschen, die nicht im Text stehen',
  importEmpty: 'Bitte mindestens einen Eintrag einfügen.',
  importLineError: (p: { line: number; problem: string }) => `Zeile ${p.line}: ${p.problem}`,
  importMoreErrors: (p: { count: number }) => `… und ${p.count} weitere.`,
  nothingToChange: (p: { domain: string; unchanged: number }) =>
    `In ${p.domain} ist nichts zu ändern: ${p.unchanged === 1 ? 'der Eintrag des Textes ist' : `die ${p.unchanged} Einträge des Textes sind`} schon da.`,

  fileUnterminatedQuote: 'ein Anführungszeichen wird in seiner Zeile nicht geschlossen',
  fileUnbalancedParen: 'die Klammern passen nicht zueinander',
  fileBadEscape: (p: { value: string }) => `${p.value} ist keine gültige Escape-Sequenz`,
  fileIncludeRefused: '$INCLUDE wird nicht unterstützt: bitte die Einträge selbst einfügen',
  fileUnknownDirective: (p: { directive: string }) =>
    `${p.directive} wird nicht unterstützt (nur $ORIGIN und $TTL)`,
  fileBadDirective: (p: { directive: string }) => `${p.directive} nimmt genau einen Wert`,
  fileNoOwner: 'die Zeile beginnt leer, aber kein Eintrag davor nennt einen Namen',
  fileBadName: (p: { name: string }) => `${p.name} ist kein Domainname`,
  fileOutsideOrigin: (p: { name: string; origin: string }) => `${p.name} liegt nicht in der Zone ${p.origin}`,
  fileBadTtl: (p: { value: string }) => `${p.value} ist keine TTL in Sekunden`,
  fileBadClass: (p: { value: string }) => `Klasse ${p.value}: nur IN`,
  fileMissingType: 'dem Eintrag fehlt der Typ',
  fileUnknownType: (p: { type: string }) =>
    `Typ ${p.type} kann nicht geschrieben werden (A, AAAA, CNAME, TXT, MX, NS, SRV, CAA)`,
  fileBadRdata: (p: { type: string; expected: number }) =>
    `ein ${p.type}-Eintrag nimmt ${p.expected === 1 ? 'einen Wert' : `${p.expected} Werte`}`,
  fileBadAddress: (p: { type: string; value: string }) => `${p.value} ist keine Adresse für ${p.type}`,
  fileBadNumber: (p: { type: string; value: string; max: number }) =>
    `${p.value} liegt für ${p.type} außerhalb des Bereichs (0 bis ${p.max})`,
  fileBadTarget: (p: { type: string; value: string }) => `${p.value} ist kein Hostname für ${p.type}`,
  fileBadCaa: (p: { value: string }) => `${p.value} ist keine CAA-Eigenschaft (flags tag "value")`,
  fileBadText: 'der Text ist kein UTF-8',
  fileTooManyErrors: (p: { max: number }) => `mehr als ${p.max} Fehler: bitte zuerst diese beheben`,

  summary: (p: { domain: string; creates: number; changes: number; deletes: number }) =>
    `Änderungssatz für ${p.domain}: ${p.creates} anlegen, ${p.changes} ändern, ${p.deletes} löschen`,
  summaryRevert: (p: { domain: string; of: string }) =>
    `Änderungssatz ${p.of} von ${p.domain} rückgängig machen`,
  planCounts: (p: { creates: number; changes: number; deletes: number; unchanged: number }) =>
    `*Plan:* ${p.creates} anlegen, ${p.changes} ändern, ${p.deletes} löschen, ${p.unchanged} unverändert.`,
  planCreate: (p: { record: string }) => `➕ ${p.record}`,
  planChange: (p: { before: string; after: string }) => `✏️ ${p.before} → ${p.after}`,
  planDelete: (p: { record: string }) => `➖ ${p.record}`,
  planMore: (p: { count: number }) =>
    `… und ${schritte(p.count)} mehr: der ganze Plan steht in der Datei im Thread.`,
  planLarge: (p: { share: number }) =>
    `:warning: Dieser Satz ändert oder löscht ${p.share} % der Einträge der Zone (mehr als 30 %): Er braucht eine Freigabe mehr.`,
  planFileTitle: (p: { domain: string }) => `Plan des Änderungssatzes für ${p.domain}`,
  planNoAuto: 'Vom Registrar verwaltete Einträge (auto) und die NS der Zone werden nie angefasst.',

  applying: (p: { steps: number }) =>
    `${schritte(p.steps)} werden ausgeführt; der Thread sagt, wann sie fertig sind.`,
  applied: (p: { domain: string; done: number; id: string }) =>
    `:white_check_mark: Änderungssatz \`${p.id}\` in ${p.domain} ausgeführt: ${schritte(p.done)} erledigt.`,
  stopped: (p: { domain: string; done: number; total: number; id: string; reason: string }) =>
    `:warning: Änderungssatz \`${p.id}\` in ${p.domain} nach ${p.done} von ${schritte(p.total)} angehalten: ${p.reason}`,
  notDone: (p: { steps: Markup }) => `*Nicht erledigt:* ${p.steps}`,
  writeFailed: 'der Registrar hat den Schreibvorgang nicht angenommen.',
  auditOutcome: (p: { id: string; done: number; total: number }) =>
    `Änderungssatz ${p.id}: ${p.done} von ${p.total} Schritt(en) erledigt`,
  revertButton: 'Änderungssatz rückgängig machen',
  revertGone:
    'Dieser Änderungssatz lässt sich nicht mehr rückgängig machen: was er geändert hat, ist nicht mehr gespeichert.',
  revertNothing: 'Nichts rückgängig zu machen: der Änderungssatz hat nichts geändert.',
  planCutover: (p: { at: Markup }) => `*Umstellung:* wird ${p.at} ausgeführt.`,
  planCutoverLowered: (p: { at: Markup }) =>
    `*Umstellung:* wird ${p.at} ausgeführt; nach der Freigabe erhalten die geänderten oder gelöschten Einträge sofort TTL 60.`,
  scheduledOutcome: (p: { at: Markup; lowered: number }) =>
    `Geplant für ${p.at}${p.lowered === 0 ? '.' : `; ${einträge(p.lowered)} jetzt auf TTL 60 gesenkt.`}`,
  scheduled: (p: { id: string; domain: string; at: Markup; lowered: number }) =>
    `:calendar: Änderungssatz \`${p.id}\` für ${p.domain} wird ${p.at} ausgeführt` +
    (p.lowered === 0 ? '.' : ` (${einträge(p.lowered)} jetzt mit TTL 60).`) +
    ' *Abbrechen* davor stellt die TTLs wieder her.',
  cancelButton: 'Umstellung abbrechen',
  cancelled: (p: { id: string; restored: number }) =>
    `:no_entry_sign: Änderungssatz \`${p.id}\` vor der Umstellung abgebrochen; ${p.restored} TTL(s) wiederhergestellt. Sonst wurde nichts geändert.`,
  cancelTooLate: (p: { state: string }) => `Zu spät zum Abbrechen: Der Änderungssatz ist ${p.state}.`,
  importAtLabel: 'Ausführen am (optional)',
  importAtHint: 'Leer lassen, um nach der Freigabe sofort auszuführen.',
  importLowerLabel: 'Umstellung',
  importLowerOption: 'Zuerst TTLs senken (nach der Freigabe auf 60 s)',
  importAtPast: 'Bitte einen Zeitpunkt in der Zukunft wählen.',
  auditCancelled: (p: { id: string }) => `Änderungssatz ${p.id} vor der Umstellung abgebrochen`,
  showCommand: (p: { domain: string }) => `/dns check ${p.domain}`,
  served: (p: { id: string; domain: string; count: number; nameservers: string }) =>
    `:satellite_antenna: Änderungssatz \`${p.id}\`: Alle Nameserver von ${p.domain} liefern ${schritte(p.count)} aus (${p.nameservers}).`,
} satisfies typeof en;
