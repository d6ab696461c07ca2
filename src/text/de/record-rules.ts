import type { recordRules as en } from '../en/record-rules.js';
import { n } from './grammar.js';

/**
 * Warum eine Änderung an einem DNS-Eintrag abgelehnt wird (features/records/rules.ts und record-data.ts):
 * unter dem betroffenen Formularfeld, oder über dem Formular, wenn sie den Eintrag als Ganzes betrifft.
 * Jeder Satz nennt den Wert und sagt, was zu tun ist. Namen kommen ohne ihren abschließenden Punkt.
 */
export const recordRules = {
  /** Ein Eintrag auf einer Zeile, wie die Sätze unten ihn zitieren. */
  record: (p: { name: string; type: string; data: string }) => `${p.name} ${p.type} ${p.data}`,

  // Der Typ
  typeMissing: (p: { types: string }) => `Wählen Sie einen Eintragstyp: ${p.types}.`,
  typeUnknown: (p: { type: string; types: string }) =>
    `${p.type} ist kein Eintragstyp, den Regdesk schreiben kann. Wählen Sie einen dieser Typen: ${p.types}.`,
  typeChanged: (p: { from: string; to: string }) =>
    `Der Typ eines Eintrags lässt sich nicht ändern (${p.from} → ${p.to}): Löschen Sie diesen Eintrag, und legen Sie stattdessen einen ${p.to}-Eintrag an.`,

  // Der Name
  nameInvalid: (p: { name: string }) =>
    `${p.name} ist kein gültiger Name: Verwenden Sie Buchstaben, Ziffern, Bindestriche und Unterstriche in Labels, die durch Punkte getrennt sind, und * nur als erstes Label (Wildcard).`,
  nameTooLong: (p: { name: string }) =>
    `${p.name} ist zu lang: Ein vollständiger Name hat höchstens 253 Zeichen. Wählen Sie einen kürzeren Namen.`,
  nameOutside: (p: { name: string; zone: string }) =>
    `Der Name muss in ${p.zone} liegen – ${p.name} liegt außerhalb. Schreiben Sie einen Namen wie www oder www.${p.zone}, oder @ (oder nichts) für ${p.zone} selbst.`,
  nameElsewhere: (p: { name: string; zone: string; tld: string }) =>
    `Der Name muss in ${p.zone} liegen: ${p.name} endet auf die Top-Level-Domain .${p.tld} und gilt daher als Name außerhalb von ${p.zone}. Wenn Sie ${p.name}.${p.zone} meinen, schreiben Sie den Namen vollständig aus.`,

  // Die TTL
  ttlInvalid: (p: { value: string; min: number; max: number; fallback: number }) =>
    `${p.value} ist keine TTL: Geben Sie ganze Sekunden von ${n(p.min)} bis ${n(p.max)} ein (1 Minute bis 1 Woche), oder lassen Sie das Feld leer, dann gilt ${n(p.fallback)}.`,
  ttlRange: (p: { value: string; min: number; max: number }) =>
    `Eine TTL von ${p.value} Sekunden liegt außerhalb des zulässigen Bereichs: Geben Sie ${n(p.min)} bis ${n(p.max)} Sekunden ein (1 Minute bis 1 Woche).`,

  // Die Priorität (MX und SRV)
  priorityRequired: (p: { type: string }) =>
    `Ein ${p.type}-Eintrag braucht eine Priorität: Geben Sie eine ganze Zahl von 0 bis 65.535 ein (niedrigere Werte werden zuerst versucht).`,
  priorityInvalid: (p: { value: string }) =>
    `${p.value} ist keine Priorität: Geben Sie eine ganze Zahl von 0 bis 65.535 ein (niedrigere Werte werden zuerst versucht).`,
  priorityNotUsed: (p: { type: string }) =>
    `Ein ${p.type}-Eintrag hat keine Priorität: Lassen Sie das Feld leer (nur MX- und SRV-Einträge haben eine).`,

  // Der Wert, je Typ
  dataEmpty: (p: { type: string }) => `Geben Sie den Wert des ${p.type}-Eintrags ein.`,
  notIpv4: (p: { value: string }) =>
    `${p.value} ist keine IPv4-Adresse: Ein A-Eintrag enthält eine solche, etwa 192.0.2.1 (eine IPv6-Adresse gehört in einen AAAA-Eintrag).`,
  notIpv6: (p: { value: string }) =>
    `${p.value} ist keine IPv6-Adresse: Ein AAAA-Eintrag enthält eine solche, etwa 2001:db8::1 (eine IPv4-Adresse gehört in einen A-Eintrag).`,
  ipNotHost: (p: { value: string; type: string }) =>
    `${p.value} ist eine IP-Adresse, aber ein ${p.type}-Eintrag verweist auf einen Hostnamen wie host.example.de: Tragen Sie die Adresse in einen A- oder AAAA-Eintrag dieses Hosts ein.`,
  notHost: (p: { value: string }) =>
    `${p.value} ist kein Hostname: Schreiben Sie einen vollständigen Namen, etwa host.example.de.`,
  txtControl:
    'Der Text enthält ein Steuerzeichen (einen Zeilenumbruch, einen Tabulator …): Schreiben Sie ihn ohne solche Zeichen in eine Zeile.',
  invisible: (p: { characters: string }) =>
    `Der Wert enthält unsichtbare Zeichen (${p.characters}), die Text bei der Anzeige umordnen oder verbergen: Entfernen Sie sie, damit alle lesen, was eingetragen wird.`,
  txtTooLong: (p: { length: number; max: number }) =>
    `Der Text hat ${n(p.length)} Zeichen, erlaubt sind höchstens ${n(p.max)}: Kürzen Sie ihn.`,
  srvFormat: (p: { value: string }) =>
    `${p.value} hat nicht die Form „Gewichtung Port Ziel“: Schreiben Sie drei Werte, etwa 5 5060 sip.example.de (die Priorität hat ein eigenes Feld).`,
  srvWeight: (p: { value: string }) =>
    `Die SRV-Gewichtung ${p.value} liegt außerhalb des zulässigen Bereichs: Verwenden Sie 0 bis 65.535.`,
  srvPort: (p: { value: string }) =>
    `Der SRV-Port ${p.value} liegt außerhalb des zulässigen Bereichs: Verwenden Sie 0 bis 65.535.`,
  caaFormat: (p: { value: string }) =>
    `${p.value} hat nicht die Form „Flags Tag Wert“: Schreiben Sie drei Werte, etwa 0 issue "letsencrypt.org".`,
  caaFlags: (p: { value: string }) =>
    `Die CAA-Flags ${p.value} liegen außerhalb des zulässigen Bereichs: Verwenden Sie 0 bis 255 (0, oder 128 für „kritisch“).`,
  caaTag: (p: { tag: string; tags: string }) =>
    `${p.tag} ist kein CAA-Tag. Verwenden Sie eines dieser Tags: ${p.tags}.`,
  caaValue: (p: { value: string }) =>
    `Der CAA-Wert ${p.value} darf weder doppelte Anführungszeichen noch Steuerzeichen enthalten: Entfernen Sie sie.`,

  // Die Änderung, geprüft gegen die Einträge der Zone
  noRecord: (p: { id: number; zone: string }) =>
    `In ${p.zone} gibt es keinen Eintrag mit der ID ${p.id}; vielleicht wurde er inzwischen gelöscht. Lassen Sie sich die Einträge der Zone erneut anzeigen, und wählen Sie ihn dort aus.`,
  autoRecord: (p: { record: string }) =>
    `${p.record} wird vom Registrar verwaltet (ein automatischer Eintrag): Regdesk ändert ihn nie.`,
  unchanged: 'Nichts geändert: Der Eintrag ist bereits genau so. Ändern Sie ein Feld, oder brechen Sie ab.',
  apexNs: (p: { zone: string }) =>
    `Die NS-Einträge von ${p.zone} selbst sind ihre Delegierung und werden nicht hier geändert, sondern mit \`/domain ns\`.`,
  apexCname: (p: { zone: string }) =>
    `Ein CNAME kann nicht bei ${p.zone} selbst stehen (dort stehen der SOA- und die NS-Einträge der Zone): Verwenden Sie ALIAS, den Ersatz des Registrars für einen CNAME an der Zonenspitze.`,
  twoCnames: (p: { name: string; record: string }) =>
    `${p.name} hat bereits einen CNAME (${p.record}), und ein Name kann nur einen haben: Bearbeiten Sie stattdessen diesen Eintrag.`,
  cnameBeside: (p: { name: string; records: string }) =>
    `${p.name} hat bereits andere Einträge (${p.records}), und ein CNAME muss allein unter seinem Namen stehen: Wählen Sie einen anderen Namen, oder löschen Sie zuerst diese Einträge.`,
  besideCname: (p: { name: string; record: string; type: string }) =>
    `${p.name} ist ein CNAME (${p.record}), und neben einem CNAME darf nichts stehen: Wählen Sie einen anderen Namen für den ${p.type}-Eintrag, oder löschen Sie zuerst den CNAME.`,
  spfTwice: (p: { name: string; record: string }) =>
    `${p.name} hat bereits einen SPF-Eintrag (${p.record}), und bei zweien schlägt SPF fehl (RFC 7208 §4.5): Führen Sie stattdessen beide in diesem Eintrag zusammen.`,
  dmarcTwice: (p: { name: string; record: string }) =>
    `${p.name} hat bereits einen DMARC-Eintrag (${p.record}), und Empfänger ignorieren einen Namen mit zweien (RFC 7489 §6.6.3): Bearbeiten Sie stattdessen diesen Eintrag.`,
  dmarcName: (p: { name: string }) =>
    `Ein DMARC-Eintrag gehört unter _dmarc. und die Domain (etwa _dmarc.${p.name}), nicht unter ${p.name}: Ändern Sie den Namen.`,
  duplicate: (p: { record: string }) =>
    `${p.record} gibt es bereits: Die Zone enthält genau diesen Eintrag, es gibt nichts hinzuzufügen.`,
} satisfies typeof en;
