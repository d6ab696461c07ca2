import type { policyModal as en } from '../en/policy-modal.js';
import type { Markup } from '../escape.js';

/**
 * Die Zeilen „Je Aktion“ von `/domain policy` (features/policy/action-rows.ts): eine je Aktionsklasse,
 * mit ihren Freigaben und ob eine Begründung nötig ist, und wie das Audit-Protokoll eine Änderung daran
 * nennt (features/policy/change.ts).
 */
export const policyModal = {
  actionsIntro:
    '*Je Aktion*: wie viele Freigaben jede Art von Aktion braucht (keine: Die Aktion läuft sofort, wird im ' +
    'Channel angekündigt und protokolliert) und ob die anfragende Person eine Begründung geben muss (mindestens ' +
    '10 Zeichen, steht in der Anfrage und im Audit-Protokoll). *Wie die Vorgabe* folgt „Benötigte Freigaben“ ' +
    'oben. Freigebende und Ablaufzeit je Aktion, Abweichungen je Zone und Sperrzeiten kommen aus `regdesk policy set` und ' +
    'bleiben, wie sie sind.',
  recordsIntro:
    '*DNS-Einträge*: Wer einen Eintrag hinzufügt, bearbeitet, löscht oder rückgängig macht, ändert, was ' +
    'weltweit aufgelöst wird. Sofern die Zeile „Änderungen an DNS-Einträgen“ oben nicht „keine“ sagt, ' +
    'braucht jede Änderung eine Freigabe, außer Eintragstyp oder Person sind unten ausgenommen.',

  actionRevoke: 'Zertifikat widerrufen oder stornieren',
  actionAuthcode: 'AuthInfo-Code anzeigen',
  actionDelegation: 'Nameserver ändern',
  actionDnssec: 'Änderungen an DNSSEC',
  actionRecord: 'Änderungen an DNS-Einträgen',
  actionOrder: 'Zertifikatsbestellungen',
  actionPublish: 'Validierungseinträge veröffentlichen',
  coversRevoke: '/tls revoke und /tls cancel.',
  coversAuthcode: '/domain authcode: Den Code sieht nur die anfragende Person.',
  coversDelegation: '/domain ns … set.',
  coversDnssec: 'DNSSEC deaktivieren und externe DNSSEC-Einträge.',
  coversRecord:
    'Änderungen an Einträgen, Zonenimporte und Rückgängigmachen. Die Ausnahmen unten brauchen keine Freigabe.',
  coversOrder:
    'Bestellungen, Neuausstellungen und das Abschließen einer Bestellung. Wer bestellen darf, steht unten.',
  coversPublish:
    'Keine: die eigenen Validierungseinträge der bestellenden Person sofort, die aller anderen immer mit Freigabe.',

  rowReasonLabel: (p: { action: Markup }) => `${p.action}: Begründung`,
  approvalsDefault: (p: { count: number }) => `Wie die Vorgabe (${p.count})`,
  approvalsNone: 'Keine: läuft sofort, wird angekündigt',
  approvalsCount: (p: { count: number }) => (p.count === 1 ? '1 Freigabe' : `${p.count} Freigaben`),
  reasonRequired: 'Nötig: Die anfragende Person sagt, warum',

  approvalsUnknown: 'Wählen Sie eine der angebotenen Möglichkeiten.',

  changeClass: (p: { actionClass: string; changes: readonly string[] }) =>
    `${p.actionClass}: ${p.changes.join(', ')}`,
  changeApprovals: (p: { before: string; after: string }) => `Freigaben ${p.before} → ${p.after}`,
  changeDefault: (p: { count: number }) => `Vorgabe (${p.count})`,
  changeReasonRequired: 'Begründung nötig',
  changeReasonOptional: 'Begründung freiwillig',
  changeField: (p: { field: string; before: string; after: string }) => `${p.field} ${p.before} → ${p.after}`,
} satisfies typeof en;
