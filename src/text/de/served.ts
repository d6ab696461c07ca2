import type { served as en } from '../en/served.js';
import type { Markup } from '../escape.js';
import { count, n } from './grammar.js';

/** Was Regdesk über ausgelieferte Zertifikate und Certificate Transparency sagt (siehe ../en/served.ts). */
export const served: typeof en = {
  staleOlder: (p: { name: string; where: string; serial: string; id: string; issued: Markup }) =>
    `:arrows_counterclockwise: ${p.name} liefert unter ${p.where} noch ein älteres Zertifikat aus (Seriennummer ${p.serial}), obwohl ${p.id} am ${p.issued} ausgestellt wurde. Installieren Sie dort das neue Zertifikat und laden Sie den Server neu.`,
  staleSooner: (p: { name: string; where: string; ends: Markup; id: string; expected: Markup }) =>
    `:hourglass_flowing_sand: ${p.name} liefert unter ${p.where} ein Zertifikat aus, das am ${p.ends} endet, vor ${p.id} (endet am ${p.expected}). Installieren Sie dort ${p.id} und laden Sie den Server neu.`,
  staleLine: (p: { name: string; where: string; id: string }) => `${p.name} unter ${p.where} (${p.id})`,
  batchOlder: (p: { items: string }) =>
    `:arrows_counterclockwise: Namen von ${p.items} liefern einen Tag nach Ausstellung eines neueren Zertifikats noch ein älteres aus. Installieren Sie dort die neuen Zertifikate und laden Sie die Server neu:`,
  batchSooner: (p: { items: string }) =>
    `:hourglass_flowing_sand: Namen von ${p.items} liefern Zertifikate aus, die früher enden als die überwachten. Installieren Sie dort die überwachten Zertifikate:`,
  servedUnchecked: (p: { name: string; times: number; reasons: string }) =>
    `:warning: Regdesk konnte ${n(p.times)}-mal hintereinander keinen Namen von ${p.name} fragen, welches Zertifikat er ausliefert (${p.reasons}). Ob die Server das neue Zertifikat haben, ist nicht bekannt.`,
  batchServedUnchecked: (p: { items: string }) =>
    `:warning: Für ${p.items} konnte mehrmals hintereinander kein Name gefragt werden, welches Zertifikat er ausliefert. Ob die Server die neuen Zertifikate haben, ist nicht bekannt:`,

  reasonTimeout: 'keine Antwort in der Zeit',
  reasonRefused: 'Verbindung abgelehnt',
  reasonHandshake: 'der TLS-Handshake schlug fehl',
  reasonTooLarge: 'der Server sandte zu viel',
  reasonNoCertificate: 'kein Zertifikat ausgeliefert',
  reasonLimit: 'über der Grenze eines Durchgangs',
  reasonUnresolved: 'die Resolver konnten seine Adressen nicht nennen',
  reasonNoAddress: 'er hat keine Adresse',
  reasonNotPublic: (p: { kind: string }) =>
    `seine Adresse ist nicht öffentlich (${p.kind}), daher nicht gefragt`,
  reasonUnreadable: 'die Kopie des Zertifikats beim Registrar war nicht lesbar',

  followAllServe: (p: { id: string; count: number }) =>
    `:white_check_mark: Alle Namen von ${p.id} liefern jetzt das neue Zertifikat aus (${n(p.count)} geprüft).`,
  followNotYet: (p: { id: string; lines: string }) =>
    `:warning: Einen Tag nach Ausstellung von ${p.id} liefern diese Namen es noch nicht aus:\n${p.lines}`,
  followLineOther: (p: { name: string; where: string; serial: string }) =>
    `• ${p.name} liefert unter ${p.where} ein anderes Zertifikat aus (Seriennummer ${p.serial})`,
  followLineUnchecked: (p: { name: string; where: string; reason: string }) =>
    `• ${p.name}${p.where}: nicht prüfbar (${p.reason})`,
  followMore: (p: { count: number }) => `…und ${n(p.count)} weitere.`,

  servedPart: (p: { state: Markup }) => `Auslieferung: ${p.state}`,
  servedAll: (p: { count: number }) =>
    p.count === 1
      ? 'sein Name liefert es aus'
      : p.count === 2
        ? 'beide Namen liefern es aus'
        : `alle ${n(p.count)} Namen liefern es aus`,
  servedSome: (p: { serving: number; asked: number }) =>
    p.serving === 0
      ? p.asked === 1
        ? 'sein Name liefert es nicht aus'
        : `keiner seiner ${n(p.asked)} Namen liefert es aus`
      : `${n(p.serving)} von ${count(p.asked, 'Name', 'Namen')} ${p.serving === 1 ? 'liefert' : 'liefern'} es aus`,
  servedStillOlder: (p: { name: string }) => `${p.name} liefert noch das ältere aus`,
  servedEndsSooner: (p: { name: string }) => `${p.name} liefert eines aus, das früher endet`,
  servedMoreStale: (p: { count: number }) => `und ${count(p.count, 'weiterer Name', 'weitere Namen')}`,
  servedNamesUnchecked: (p: { count: number }) => `${count(p.count, 'Name', 'Namen')} nicht prüfbar`,
  servedCouldNotCheck: (p: { since: Markup }) => `:warning: seit ${p.since} nicht prüfbar`,
  ctPart: (p: { state: Markup }) => `CT: ${p.state}`,
  ctClear: (p: { at: Markup }) => `zuletzt gesucht ${p.at}, nichts Fremdes`,
  ctReading: (p: { at: Markup }) => `zuletzt gesucht ${p.at}, der Verlauf wird noch gelesen`,
  ctCouldNotCheck: (p: { since: Markup }) => `:warning: seit ${p.since} nicht prüfbar`,
  ctUnknown: (p: { count: number }) =>
    `:sleuth_or_spy: ${count(p.count, 'unbekanntes Zertifikat', 'unbekannte Zertifikate')}`,
  attentionHeading: (p: { count: number }) =>
    `*Ausgeliefert und ausgestellt: ${count(p.count, 'Überwachung', 'Überwachungen')} zu prüfen*`,
  attentionFine: (p: { certificates: number; zones: number }) =>
    `${count(p.certificates, 'Zertifikat', 'Zertifikate')} von allen Namen ausgeliefert · ${count(p.zones, 'Zone', 'Zonen')} ohne Fremdes in Certificate Transparency`,
  attentionMore: (p: { count: number }) =>
    `…und ${n(p.count)} weitere: \`/tls watch list\`, \`/domain watch list\`.`,

  ctForeign: (p: { zone: string; issuer: string; names: string; from: Markup; until: Markup }) =>
    `:sleuth_or_spy: Certificate Transparency zeigt ein Zertifikat für ${p.zone}, das der Registrar für dieses Konto nicht führt: ausgestellt von *${p.issuer}* für ${p.names}, gültig vom ${p.from} bis ${p.until}. Hat es hier niemand anderswo bestellt, bitten Sie die CA, es zu widerrufen; ist es Ihres, klicken Sie auf *Als bekannt markieren*.`,
  ctForeignLine: (p: { zone: string; issuer: string; names: string }) =>
    `${p.zone}: *${p.issuer}* für ${p.names}`,
  batchCtForeign: (p: { items: string }) =>
    `:sleuth_or_spy: Certificate Transparency zeigt Zertifikate für ${p.items}, die der Registrar für dieses Konto nicht führt. Prüfen Sie jedes:`,
  ctUnknownIssuer: 'eine ungenannte CA',
  ctUnknownDate: 'einem unbekannten Datum',
  ctMoreNames: (p: { count: number }) => `und ${n(p.count)} weitere`,
  ctUnchecked: (p: { zone: string; times: number; reason: string }) =>
    `:warning: Die Suche in Certificate Transparency für ${p.zone} schlug ${n(p.times)}-mal hintereinander fehl (zuletzt: ${p.reason}). Was inzwischen dafür ausgestellt wurde, ist nicht bekannt: Das ist keine Entwarnung.`,
  batchCtUnchecked: (p: { items: string }) =>
    `:warning: Die Suche in Certificate Transparency schlug für ${p.items} mehrmals hintereinander fehl. Was inzwischen dafür ausgestellt wurde, ist nicht bekannt:`,
  ctReasonStatus: (p: { status: number }) => `die Suche antwortete mit HTTP ${p.status}`,
  ctReasonTimeout: 'die Suche antwortete nicht in der Zeit',
  ctReasonNetwork: 'die Suche war nicht erreichbar',
  ctReasonTooLarge: 'die Antwort war zu groß',
  ctReasonMalformed: 'die Antwort war nicht lesbar',
  ctReasonRateLimited: 'die Suche bat zu warten (Ratenbegrenzung)',
  ctReasonNoList: 'der Registrar führt die Zertifikate des Kontos nicht auf',
  ctReasonPending: 'eine Bestellung für diese Namen ist beim Registrar noch offen',
  ctReasonRegistrar: 'die Zertifikate beim Registrar waren nicht lesbar',

  buttonMarkKnown: 'Als bekannt markieren',
  markKnownOf: (p: { zone: string }) => `Das Zertifikat für ${p.zone} als bekannt markieren`,
  markedKnown: (p: { zone: string }) =>
    `:white_check_mark: Als bekannt markiert: Dieses Zertifikat für ${p.zone} wird nicht mehr gemeldet. Das Audit-Protokoll hält fest, wer es markiert hat.`,
  markedKnownAlready: 'Dieses Zertifikat war schon als bekannt markiert.',
  auditActionKnown: 'ein Zertifikat aus Certificate Transparency als bekannt markiert',
  auditMarkedKnown: (p: { zone: string; issuance: string }) =>
    `Zertifikat ${p.issuance} (TBS-SHA-256) für ${p.zone} als bekannt markiert`,
};
