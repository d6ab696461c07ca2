import type { records as en } from '../en/records.js';
import type { Markup } from '../escape.js';
import { n } from './grammar.js';

/** Änderungen an Einträgen: `/dns record add|edit|delete`, Bearbeiten/Löschen auf Eintragsseiten, Rückgängig (features/records). */
export const records = {
  // Befehle
  recordUsage: 'record add DOMAIN | edit DOMAIN EINTRAGS_ID | delete DOMAIN EINTRAGS_ID',
  recordSummary: 'DNS-Einträge einer Zone hinzufügen, ändern oder löschen (standardmäßig mit Freigabe)',
  recordUsageReply:
    'Aufruf: `/dns record add DOMAIN`, `/dns record edit DOMAIN EINTRAGS_ID` oder `/dns record delete DOMAIN EINTRAGS_ID`. Die IDs der Einträge listet `/dns records DOMAIN` auf.',
  notOffered:
    'Dieser Registrar bietet über seine API keine Änderungen an Einträgen an: Es wurde nichts geändert. Ändern Sie die Einträge in seinem Dashboard.',
  notInZone: (p: { id: number; zone: string }) =>
    `In ${p.zone} gibt es keinen Eintrag mit der ID ${p.id}: Es wurde nichts geändert. \`/dns records\` listet die Einträge der Zone mit ihren IDs auf.`,

  // Die Formulare
  addTitle: 'DNS-Eintrag hinzufügen',
  editTitle: 'DNS-Eintrag bearbeiten',
  deleteTitle: 'DNS-Eintrag löschen',
  addSubmit: 'Hinzufügen',
  editSubmit: 'Speichern',
  deleteSubmit: 'Löschen',
  modalIntro: (p: { zone: string }) =>
    `Ein Eintrag in ${p.zone}. Alle Regeln werden geprüft, bevor etwas gesendet wird; danach braucht die Änderung eine Freigabe, sofern die Richtlinie des Workspace sie nicht davon ausnimmt.`,
  typeLabel: 'Typ',
  editingType: (p: { type: string; id: number }) =>
    `Eintrag vom Typ *${p.type}*, ID ${p.id} (der Typ bleibt).`,
  nameLabel: 'Name',
  nameHint: (p: { zone: string }) =>
    `www, @ (oder leer) für ${p.zone} selbst, oder ein vollständiger Name in ${p.zone}.`,
  dataLabel: 'Wert',
  dataHint:
    'A: 192.0.2.1 · AAAA: 2001:db8::1 · CNAME, ALIAS, NS, MX: ein Hostname · TXT: der Text, Anführungszeichen unnötig · SRV: Gewichtung Port Ziel · CAA: 0 issue "letsencrypt.org"',
  ttlLabel: 'TTL (Sekunden)',
  ttlHint: '60 bis 604.800; leer für 3.600.',
  priorityLabel: 'Priorität',
  priorityHint: 'Nur für MX und SRV (0 bis 65.535).',
  deleteConfirm: (p: { zone: string; record: string }) =>
    `Diesen Eintrag aus ${p.zone} löschen?\n${p.record}\nDie Einträge der Zone werden vorher gesichert; danach steht „Rückgängig“ bereit.`,
  draftGone:
    'Die Kopie der Zone in diesem Formular ist nicht mehr vorhanden (es wurde vor über einer Stunde geöffnet, oder die Daten von Regdesk gingen verloren): Schließen Sie es, und führen Sie den Befehl erneut aus, damit die Regeln die Zone im aktuellen Stand sehen.',
  editOption: 'Bearbeiten',
  deleteOption: 'Löschen',

  // Anfragen und Ergebnisse
  before: (p: { record: string }) => `*Vorher:* ${p.record}`,
  after: (p: { record: string }) => `*Nachher:* ${p.record}`,
  nothing: '_nichts_',
  summaryAdd: (p: { type: string; name: string; zone: string }) =>
    `${p.type}-Eintrag ${p.name} in ${p.zone} hinzufügen`,
  summaryEdit: (p: { type: string; name: string; zone: string; id: number }) =>
    `${p.type}-Eintrag ${p.name} (ID ${p.id}) in ${p.zone} ändern`,
  summaryDelete: (p: { type: string; name: string; zone: string; id: number }) =>
    `${p.type}-Eintrag ${p.name} (ID ${p.id}) in ${p.zone} löschen`,
  summaryRevert: (p: { change: string; summary: string }) =>
    `Änderung ${p.change} rückgängig machen: ${p.summary}`,
  summaryRevertMade: (p: { change: string; made: string; summary: string }) =>
    `Änderung ${p.change} vom ${p.made} rückgängig machen: ${p.summary}`,
  changedSince: (p: { id: number }) =>
    `Eintrag ${p.id} hat sich seit der Anfrage geändert: Es wurde nichts getan. Sehen Sie ihn sich mit \`/dns records\` erneut an, und stellen Sie die Anfrage neu.`,
  changeMade: (p: { user: string; summary: string }) => `<@${p.user}>: ${p.summary} – erledigt.`,
  outcome: (p: { summary: string; id: string }) =>
    `Änderung ${p.id}: ${p.summary}; der vorige Stand der Zone ist gesichert, „Rückgängig“ stellt ihn wieder her`,
  changeKept: (p: { id: string; when: Markup }) =>
    `Änderung ${p.id}, ${p.when}. Der Stand der Zone vor dieser Änderung ist gesichert; „Rückgängig“ ist selbst eine Änderung, mit denselben Regeln und derselben Richtlinie.`,
  revertButton: 'Rückgängig',
  revertLabel: (p: { id: string }) => `Änderung ${p.id} am DNS-Eintrag rückgängig machen`,
  revertGone: (p: { id: string }) =>
    `Änderung ${p.id} ist Regdesk nicht mehr bekannt (Regdesk bewahrt Änderungen 90 Tage auf, oder die Daten gingen verloren): Es wurde nichts getan. Ändern Sie den Eintrag mit \`/dns record\`.`,
  servedBy: (p: { nameservers: string }) => `Ausgeliefert von den Nameservern der Zone: ${p.nameservers}.`,
  cachesMayHold: (p: { seconds: number; until: Markup }) =>
    `Resolver können noch bis zu ${n(p.seconds)} s lang mit dem Stand vor der Änderung antworten, also bis ${p.until}.`,
  settled: (p: { summary: string; nameservers: string; seconds: number; until: Markup }) =>
    `Die Nameserver der Zone liefern die Änderung aus (${p.summary}): ${p.nameservers}. Resolver können noch bis zu ${n(p.seconds)} s lang mit dem Stand davor antworten, also bis ${p.until}.`,
  changeUnknown: (p: { id: string }) =>
    `Änderung ${p.id} ist Regdesk nicht mehr bekannt, daher ließ sich nicht prüfen, ob die Nameserver sie ausliefern.`,
  showCommand: (p: { domain: string }) => `/dns check ${p.domain}`,
  auditChanged: 'DNS-Eintrag geändert',
} satisfies typeof en;
