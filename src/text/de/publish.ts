import type { publish as en } from '../en/publish.js';
import { count, registrarState } from './grammar.js';

/** „1 Validierungseintrag“, „3 Validierungseinträge“: nach der Anzahl gewählt. */
const validationRecords = (value: number) => count(value, 'Validierungseintrag', 'Validierungseinträge');

/** Was Regdesk sagt, wenn es die Validierungseinträge eines Zertifikats veröffentlicht (features/publish). */
export const publish = {
  button: 'Validierungseinträge veröffentlichen',
  requestSummary: (p: { id: string }) =>
    `die DNS-Validierungseinträge von Zertifikat ${p.id} veröffentlichen`,
  buttonLabel: (p: { id: string }) => `DNS-Validierungseinträge von Zertifikat ${p.id} veröffentlichen`,

  // Der Plan, bevor etwas geschrieben wird oder wenn nichts geschrieben werden darf
  planTitle: (p: { id: string }) => `Validierungseinträge von Zertifikat ${p.id}`,
  stepCreate: (p: { record: string }) => `• ${p.record} anlegen`,
  stepPresent: (p: { record: string }) => `• bereits vorhanden: ${p.record}`,
  stepReplace: (p: { record: string; old: string }) =>
    `• veralteten Eintrag ${p.old} von Regdesk durch ${p.record} ersetzen`,
  stepBlocked: (p: { record: string; existing: string }) =>
    `• blockiert: ${p.existing} steht unter diesem Namen und stammt nicht von Regdesk. Entfernen Sie diesen Eintrag, oder veröffentlichen Sie ${p.record} von Hand`,
  stepElsewhere: (p: { record: string; zone: string; nameservers: string }) =>
    `• ${p.zone} liegt nicht beim Registrar: Legen Sie ${p.record} dort an, wo die Zone ausgeliefert wird (${p.nameservers})`,
  blockedNothingWritten: 'Es wurde nichts geändert: Ein Eintrag, der im Weg steht, stammt nicht von Regdesk.',
  elsewhereNothingWritten:
    'Es wurde nichts geändert: Setzen Sie die Einträge dort, wo die Zone ausgeliefert wird; dann lässt sich die Bestellung validieren.',

  // Ergebnisse
  writing: (p: { user: string; id: string }) =>
    `<@${p.user}> veröffentlicht die Validierungseinträge von Zertifikat ${p.id} …`,
  written: (p: { id: string; count: number; present: number }) =>
    `Zertifikat ${p.id}: ${validationRecords(p.count)} beim Registrar gesetzt (TTL 60)${p.present > 0 ? `, ${p.present.toLocaleString('de-DE')} bereits vorhanden` : ''}. Regdesk meldet „veröffentlicht“, sobald die Nameserver der Zone sie ausliefern, und entfernt seine eigenen Einträge, sobald das Zertifikat ausgestellt ist.`,
  allPresent: (p: { id: string }) =>
    `Zertifikat ${p.id}: Alle Validierungseinträge sind bereits vorhanden; es wurde nichts geändert. Regdesk prüft die Nameserver der Zone und meldet, sobald sie die Einträge ausliefern.`,
  readOnlyKey:
    'Der API-Schlüssel dieses Workspace darf keine DNS-Einträge ändern (ein Nur-Lese-Schlüssel): Es wurde nichts geändert. Veröffentlichen Sie die Einträge von Hand, oder hinterlegen Sie für den Workspace einen Schlüssel mit der DNS-Rolle (`/domain key`).',
  notOffered:
    'Mit diesem Registrar lassen sich keine Einträge veröffentlichen: Es wurde nichts geändert. Veröffentlichen Sie die Einträge von Hand.',
  notOurs: (p: { id: string }) =>
    `Die Bestellung oder Neuausstellung von Zertifikat ${p.id} stammt nicht von Regdesk, daher kennt Regdesk die Validierungseinträge nicht. Veröffentlichen Sie sie im Dashboard des Registrars.`,
  notPending: (p: { id: string; status: string }) =>
    `Zertifikat ${p.id} hat den Status ${p.status}: Es gibt nichts mehr zu validieren.`,
  partial: (p: { id: string; written: number; reason: string }) =>
    `Zertifikat ${p.id}: ${p.written === 1 ? '1 Eintrag' : `${p.written.toLocaleString('de-DE')} Einträge`} gesetzt, dann hat der Registrar abgelehnt: ${p.reason}. Klicken Sie noch einmal auf die Schaltfläche, um den Rest zu veröffentlichen.`,
  published: (p: { id: string; nameservers: string }) =>
    `:white_check_mark: Die Validierungseinträge von Zertifikat ${p.id} sind veröffentlicht und werden von ${p.nameservers} ausgeliefert. Die Zertifizierungsstelle kann jetzt validieren.`,
  notYetServed: (p: { id: string; missing: string }) =>
    `Die Validierungseinträge von Zertifikat ${p.id} sind gesetzt, aber die Nameserver der Zone liefern ${p.missing} auch nach einer Stunde noch nicht aus. \`/dns check\` zeigt, warum.`,
  removed: (p: { id: string; count: number; status: string }) =>
    `Zertifikat ${p.id} hat den Status ${registrarState(p.status)}: Regdesk hat ${p.count === 1 ? 'seinen Validierungseintrag' : `seine ${p.count.toLocaleString('de-DE')} Validierungseinträge`} entfernt.`,
  removeFailed: (p: { id: string; reason: string }) =>
    `Zertifikat ${p.id}: Regdesk konnte die Validierungseinträge nicht entfernen (${p.reason}); entfernen Sie sie von Hand.`,
  auditPublished: 'Validierungseinträge veröffentlicht',
  auditRemoved: 'Validierungseinträge entfernt',
  auditRemovedOutcome: (p: { removed: number; status: string; left: number }) =>
    `${p.removed} entfernt (Zertifikat ${registrarState(p.status)})${p.left > 0 ? `, ${p.left} belassen: seit Regdesk sie schrieb geändert` : ''}`,
} satisfies typeof en;
