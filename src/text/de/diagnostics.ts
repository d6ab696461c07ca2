import type { diagnostics as en, diagnosticFindings as enFindings } from '../en/diagnostics.js';
import type { Markup } from '../escape.js';
import { count, n, registrarState } from './grammar.js';

/** Kinds of address that are not public (dns/addresses.ts), as the notPublic finding names them. */
const ADDRESS_KINDS: Record<string, string> = {
  unspecified: 'unspezifiziert',
  loopback: 'Loopback',
  private: 'privates Netz',
  shared: 'Carrier-Grade-NAT',
  'link-local': 'Link-local',
  multicast: 'Multicast',
  broadcast: 'Broadcast',
  documentation: 'Dokumentationsbereich',
  benchmarking: 'Benchmark-Bereich',
  reserved: 'reserviert',
  translation: 'IPv4-Übersetzung',
  'unique-local': 'Unique Local',
  invalid: 'keine IP-Adresse',
};

/** Warum eine Kette ungültig ist (dns/validator.ts), wie der Befund „bogus“ es sagt. */
const BOGUS_REASONS: Record<string, string> = {
  noMatchingKey: 'kein Schlüssel passt zum DS',
  badSignature: 'eine Signatur ist ungültig',
  expired: 'Signaturen abgelaufen',
  notYetValid: 'Signaturen noch nicht gültig',
  missingSignature: 'Signaturen fehlen',
  noDenial: 'kein DS und kein Nachweis, dass es keinen gibt',
  resolvers: 'die Resolver können sie nicht validieren',
};

/** Was Regdesk über die Live-Diagnose des DNS sagt, `/dns check` (siehe ../index.ts). */
export const diagnostics = {
  checkUsage: 'check DOMAIN',
  checkSummary:
    'Live-Diagnose: Delegierung, DNSSEC-Kette, CAA, Mail-Einträge, ausstehende Validierungseinträge',
  checkUsageReply: '`/dns check DOMAIN`, z. B. `/dns check example.com`.',

  // Die Ergebniskarte
  title: (p: { name: string }) => `DNS-Prüfung von ${p.name}`,
  summaryClean: (p: { name: string }) =>
    `${p.name}: keine Befunde. Delegierung, DNSSEC, CAA und Mail sehen richtig aus.`,
  summaryFindings: (p: { name: string; broken: number; risky: number; advice: number }) =>
    `${p.name}: ${n(p.broken)} kritisch, ${n(p.risky)} riskant, ${count(p.advice, 'Hinweis', 'Hinweise')}.`,
  checkedAt: (p: { date: Markup }) =>
    `Live geprüft (${p.date}) über die konfigurierten Resolver und die Nameserver der Zone selbst.`,
  severityBroken: ':red_circle: *Kritisch*',
  severityRisky: ':large_orange_circle: *Riskant*',
  severityAdvice: ':large_blue_circle: *Hinweis*',
  fixLine: (p: { record: string; where: string }) => `Tragen Sie ${p.record} ${p.where} ein.`,
  removeLine: (p: { record: string; where: string }) => `Entfernen Sie ${p.record} ${p.where}.`,
  whereRegistrar: 'beim Registrar',
  whereZone: (p: { nameservers: string }) => `in der Zone (ausgeliefert von ${p.nameservers})`,
  whereParent: 'beim Registrar, der ihn an die Registry weitergibt',
  notCheckedTitle: '*Nicht prüfbar*',
  notCheckedLine: (p: { what: string; why: string }) => `• ${p.what}: ${p.why}`,
  factsDelegation: (p: { parent: string; zone: string; registrar: string }) =>
    `*Delegierung* übergeordnete Zone: ${p.parent} · Zone: ${p.zone} · Registrar: ${p.registrar}`,
  factsDnssec: (p: { registrar: string; verdict: string; ds: string }) =>
    `*DNSSEC* Registrar: ${p.registrar} · Kette: ${p.verdict} · DS in der übergeordneten Zone: ${p.ds}`,
  factsNone: '—',
  registrarDnssec: (p: { desired: string; live: string }) => `Soll ${p.desired}, Ist ${p.live}`,
  verdictSecure: 'sicher',
  verdictInsecure: 'unsicher (nicht signiert)',
  verdictBogus: 'ungültig (Validierung schlägt fehl)',
  verdictFailing: 'gestört (SERVFAIL)',
  verdictUnknown: 'unbekannt',
  verdictUnvalidated: 'nicht geprüft: signiert, aber die Resolver validieren DNSSEC nicht',
  byChain: (p: { verdict: string }) => `${p.verdict}, von Regdesk ab der Wurzel validiert`,
  byResolvers: (p: { verdict: string }) => `${p.verdict}, laut den Resolvern`,
  resolversDoNotValidate: 'die konfigurierten Resolver validieren DNSSEC nicht',
  truncated: (p: { more: number }) => `…und ${n(p.more)} weitere.`,

  // Warum etwas nicht prüfbar war
  whatParent: (p: { parent: string }) => `Die übergeordnete Zone ${p.parent}`,
  whatServer: (p: { host: string; address: string }) => `Nameserver ${p.host} (${p.address})`,
  whatServerAddress: (p: { host: string }) => `Die Adresse des Nameservers ${p.host}`,
  whatRegistrar: 'Die Sicht des Registrars',
  whatResolver: 'Die Sicht der Resolver',
  whatCaa: (p: { name: string }) => `CAA von ${p.name}`,
  whatMail: 'Mail-Einträge',
  whatValidation: (p: { id: string }) => `Validierungseinträge des Zertifikats ${p.id}`,
  whyTimeout: 'keine Antwort in der vorgesehenen Zeit',
  whyNetwork: (p: { detail: string }) => `konnte nicht abgefragt werden (${p.detail})`,
  whyAnswered: (p: { rcode: string }) => `antwortete mit ${p.rcode}`,
  whyNotInAccount: 'die Domain ist nicht in diesem Konto',
  whyRegistrar: (p: { message: string }) => p.message,
  whyNoAnswer: 'kein Server hat geantwortet',
  whyLimit:
    'nicht abgefragt: Die Grenzen der Prüfung waren erreicht (4 Adressen je Nameserver, 16 insgesamt, 20 Sekunden)',
  whyNotPublic: (p: { address: string }) => `nicht abgefragt: ${p.address} ist keine öffentliche Adresse`,
  whatUnasked: (p: { count: number }) =>
    p.count === 1 ? 'Eine weitere Nameserver-Adresse' : `${n(p.count)} weitere Nameserver-Adressen`,

  // Ablehnungen vor der Bestätigung (Prüfungen einer Person, Vertrag §3)
  checkRunning: 'Ihre vorige DNS-Prüfung läuft noch: Erst kommt ihre Antwort, dann können Sie erneut prüfen.',
  checkTooMany: (p: { seconds: number }) =>
    `Sie haben 10 DNS-Prüfungen innerhalb einer Minute gestartet: Versuchen Sie es in ${n(p.seconds)} Sekunden erneut.`,

  validationVisible: (p: { id: string; count: number }) =>
    `Zertifikat ${p.id}: ${count(p.count, 'Validierungseintrag wird', 'Validierungseinträge werden')} von den Nameservern der Zone ausgeliefert.`,

  // Die Vorabprüfung eines Zertifikats (Issue #45): bevor eine Bestellung, Verlängerung, Neuausstellung
  // oder Vervollständigung gesendet wird. Reiner Text, kein mrkdwn: Es sind auch Fehler an Formularfeldern.
  caaPreflightError: (p: { name: string; ca: string; issuers: string; record: string }) =>
    `CAA erlaubt für ${p.name} nur ${p.issuers}, nicht ${p.ca}: Fügen Sie „${p.record}“ hinzu, sonst schlägt die Bestellung fehl.`,
  caaPreflightMethods: (p: { name: string; ca: string; methods: string; record: string }) =>
    `CAA erlaubt ${p.ca} die Validierung von ${p.name} nur per ${p.methods}, nicht per DNS: Setzen Sie „${p.record}“, sonst schlägt eine per DNS validierte Bestellung fehl.`,
  caaPreflightMethodsEmail: (p: { name: string; ca: string; methods: string; record: string }) =>
    `CAA erlaubt ${p.ca} die Validierung von ${p.name} nur per ${p.methods}, nicht per E-Mail: Setzen Sie „${p.record}“ oder wählen Sie die Validierung per DNS, sonst schlägt eine per E-Mail validierte Bestellung fehl.`,
  caaPreflightAccount: (p: { name: string; ca: string; record: string }) =>
    `CAA beschränkt die Ausstellung für ${p.name} auf ein Konto bei ${p.ca} (accounturi); Regdesk kann nicht erkennen, ob das Konto des Registrars dieses ist, daher kann die Bestellung abgelehnt werden: Setzen Sie „${p.record}“, um sicherzugehen.`,
  caaPreflightCritical: (p: { name: string; tag: string; record: string }) =>
    `CAA für ${p.name} enthält das unbekannte Tag ${p.tag} als kritisch markiert, daher darf keine Zertifizierungsstelle ausstellen: Entfernen Sie „${p.record}“, sonst schlägt die Bestellung fehl.`,
  dnssecPreflightNoKey: (p: { name: string; zone: string; parent: string; records: readonly string[] }) =>
    `DNSSEC von ${p.name} ist defekt: Der DS für ${p.zone} in ${p.parent} passt zu keinem DNSKEY von ${p.zone}, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. ${p.records.length === 0 ? `Hinterlegen Sie beim Registrar den DS des aktuellen Schlüssels von ${p.zone}` : `Setzen Sie beim Registrar ${p.records.map((record) => `„${record}“`).join(', ')} anstelle des dortigen DS`}, oder entfernen Sie den DS, um DNSSEC abzuschalten.`,
  dnssecPreflightBadSignature: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: Die Signaturen in ${p.zone} lassen sich mit dem Schlüssel, den ihr DS in ${p.parent} nennt, nicht prüfen, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Lassen Sie ${p.zone} mit diesem Schlüssel neu signieren, oder entfernen Sie den DS beim Registrar.`,
  dnssecPreflightExpired: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: Die Signaturen in ${p.zone} sind abgelaufen, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Lassen Sie sie vom Signierer von ${p.zone} erneuern, oder entfernen Sie den DS in ${p.parent} beim Registrar.`,
  dnssecPreflightNotYetValid: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: Die Signaturen in ${p.zone} sind noch nicht gültig, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Prüfen Sie die Uhr des Signierers von ${p.zone} und lassen Sie neu signieren, oder entfernen Sie den DS in ${p.parent} beim Registrar.`,
  dnssecPreflightUnsigned: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: ${p.parent} hat einen DS für ${p.zone}, aber ${p.zone} liefert keine gültigen Signaturen, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Signieren Sie ${p.zone}, oder entfernen Sie den DS beim Registrar.`,
  dnssecPreflightNoDenial: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: ${p.parent} hat keinen DS für ${p.zone} und weist auch nicht nach, dass es keinen gibt, und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Der Betreiber von ${p.parent} muss seine Signierung reparieren.`,
  dnssecPreflightResolvers: (p: { name: string; zone: string; parent: string }) =>
    `DNSSEC von ${p.name} ist defekt: Validierende Resolver lehnen ${p.zone} ab (SERVFAIL), und über eine defekte Kette stellen Zertifizierungsstellen nicht aus. Regdesk konnte die Kette nicht selbst lesen: /dns check ${p.zone} zeigt, wo sie bricht.`,
  preflightOrderAnyway: 'Senden Sie das Formular erneut ab, um trotzdem zu bestellen.',
  preflightReissueAnyway: 'Senden Sie das Formular erneut ab, um trotzdem neu auszustellen.',
  preflightNotSent: (p: { id: string }) =>
    `Für Zertifikat ${p.id} wurde nichts an den Registrar gesendet: Die Zertifizierungsstelle würde es ablehnen.`,
  preflightTryAgain: 'Sobald es behoben ist, drücken Sie die Schaltfläche erneut.',
} satisfies typeof en;

/**
 * Die Befunde von `/dns check` und der Überwachung, einer je Art (features/diagnostics/findings.ts):
 * Jeder sagt, was falsch ist und was daraus folgt; die Korrekturzeile der Karte sagt, was wo einzutragen ist.
 */
export const diagnosticFindings = {
  notDelegated: (p: { name: string; parent: string }) =>
    `${p.name} ist nicht delegiert: ${p.parent} hat keine Nameserver dafür, daher kann niemand die Domain auflösen.`,
  noAddress: (p: { host: string }) =>
    `Nameserver ${p.host} hat keine Adresse: Resolver können ihn nicht erreichen.`,
  missingGlue: (p: { host: string; parent: string }) =>
    `${p.host} liegt in der Zone, die er ausliefert, aber ${p.parent} hat keine Adresse (Glue) für ihn: Resolver finden die Nameserver der Zone nicht.`,
  allLame: (p: { name: string }) =>
    `Kein Nameserver antwortet autoritativ für ${p.name}: Die Domain lässt sich nicht auflösen.`,
  lame: (p: { host: string; address: string; name: string; answer: string }) =>
    `${p.host} (${p.address}) ist für ${p.name} eingetragen, liefert die Zone aber nicht aus (Antwort: ${p.answer === 'NOERROR' ? 'ohne Autorität' : p.answer}): Abfragen, die bei ihm landen, schlagen fehl oder hängen.`,
  nsMismatch: (p: { parent: string; zone: string }) =>
    `Die übergeordnete Zone nennt ${p.parent}, die Zone selbst ${p.zone}: Resolver sehen andere Nameserver, je nachdem, wo sie fragen.`,
  registrarMismatch: (p: { registrar: string; parent: string }) =>
    `Der Registrar meldet ${p.registrar}, die übergeordnete Zone liefert ${p.parent}: Eine Änderung läuft noch oder hat die Registry nicht erreicht.`,
  serialMismatch: (p: { serials: string }) =>
    `Die Nameserver liefern unterschiedliche Versionen der Zone aus (SOA-Seriennummern ${p.serials}): Einer von ihnen ist nicht aktuell.`,
  notPublic: (p: { host: string; address: string; kind: string }) =>
    `Nameserver ${p.host} hat die Adresse ${p.address}, die nicht öffentlich ist (${ADDRESS_KINDS[p.kind] ?? p.kind}): Resolver im Internet erreichen ihn dort nicht, und Regdesk fragt ihn dort nicht ab.`,
  dsMatchesNoKey: (p: { name: string }) =>
    `Der DS-Eintrag in der übergeordneten Zone passt zu keinem Schlüssel von ${p.name}: Validierende Resolver lehnen jede Antwort ab (SERVFAIL).`,
  dsWithoutKeys: (p: { name: string }) =>
    `Die übergeordnete Zone hat einen DS-Eintrag für ${p.name}, aber die Zone ist nicht signiert: Validierende Resolver lehnen jede Antwort ab.`,
  signedWithoutDs: (p: { name: string }) =>
    `${p.name} ist signiert, aber die übergeordnete Zone hat keinen DS-Eintrag: Resolver behandeln die Zone als unsigniert, DNSSEC schützt noch nichts.`,
  signaturesExpired: (p: { name: string; date: Markup }) =>
    `Die Signaturen von ${p.name} sind abgelaufen (${p.date}): Validierende Resolver lehnen jede Antwort ab.`,
  signaturesExpiring: (p: { name: string; date: Markup }) =>
    `Die Signaturen von ${p.name} laufen in weniger als 7 Tagen ab (${p.date}): Der Signierdienst erneuert sie nicht.`,
  bogus: (p: { name: string; at: string; reason: string }) =>
    `${p.name} lässt sich nicht validieren (bogus, ${BOGUS_REASONS[p.reason] ?? p.reason}${p.at === p.name ? '' : ` bei ${p.at}`}): Validierende Resolver antworten dafür mit SERVFAIL.`,
  sha1Algorithm: (p: { name: string; tags: string; algorithms: string }) =>
    `${p.name} ist mit RSA/SHA-1 signiert (Key-Tag ${p.tags}, Algorithmus ${p.algorithms}), das RFC 9905 für veraltet erklärt: Validierende Resolver lassen es fallen und behandeln die Zone dann als unsigniert. Wechseln Sie per Rollover zu Algorithmus 13 (ECDSAP256SHA256) oder 15 (ED25519).`,
  sha1Ds: (p: { name: string; tags: string }) =>
    `Der DS-Eintrag von ${p.name} für Key-Tag ${p.tags} hat Digest-Typ 1 (SHA-1), den Registries inzwischen ablehnen: Veröffentlichen Sie den DS-Eintrag mit Digest-Typ 2 (SHA-256) und entfernen Sie danach den SHA-1-Eintrag.`,
  registryActiveNoDs: (p: { state: string }) =>
    `Der Registrar meldet DNSSEC im Ist-Zustand als ${registrarState(p.state)}, aber in der übergeordneten Zone gibt es keinen DS-Eintrag: Die Registry hat ihn nicht veröffentlicht.`,
  registrarOffDsPresent: (p: { state: string }) =>
    `Der Registrar meldet DNSSEC ${registrarState(p.state)}, aber die übergeordnete Zone hat noch einen DS-Eintrag: Lassen Sie die Zone signiert, bis er entfernt ist.`,
  dnssecOff: (p: { name: string }) =>
    `DNSSEC ist für ${p.name} nicht aktiviert: Antworten für die Domain lassen sich fälschen. \`/dns dnssec ${p.name} enable\` aktiviert es.`,
  caaForbids: (p: { name: string; ca: string; issuers: string; at: string }) =>
    `CAA bei ${p.at} erlaubt nur ${p.issuers}: ${p.ca} darf keine Zertifikate für ${p.name} ausstellen, daher schlagen Bestellungen über den Registrar fehl.`,
  caaForbidsWildcard: (p: { name: string; ca: string; issuers: string; at: string }) =>
    `CAA bei ${p.at} erlaubt Wildcards nur von ${p.issuers}: ${p.ca} darf kein Wildcard-Zertifikat für ${p.name} ausstellen.`,
  caaMethods: (p: { name: string; ca: string; methods: string; at: string }) =>
    `CAA bei ${p.at} erlaubt ${p.ca} die Validierung von ${p.name} nur per ${p.methods} (validationmethods), nicht per DNS: Per DNS validierte Bestellungen über den Registrar schlagen fehl.`,
  caaAccount: (p: { name: string; ca: string; at: string }) =>
    `CAA bei ${p.at} beschränkt die Ausstellung durch ${p.ca} für ${p.name} auf ein Konto (accounturi): Regdesk kann nicht erkennen, ob das Konto des Registrars dieses ist, daher können Bestellungen über den Registrar abgelehnt werden.`,
  caaCritical: (p: { name: string; tag: string; at: string }) =>
    `CAA bei ${p.at} enthält das Tag ${p.tag} als kritisch markiert (Flag 128), das Zertifizierungsstellen nicht kennen: Keine Zertifizierungsstelle darf Zertifikate für ${p.name} ausstellen (RFC 8659).`,
  noMx: (p: { name: string }) =>
    `${p.name} hat keinen MX-Eintrag: Mail an die Domain geht, wenn überhaupt, an die Adresse aus ihrem A- oder AAAA-Eintrag. Veröffentlichen Sie einen Null-MX, falls die Domain keine Mail annimmt.`,
  mxNoAddress: (p: { host: string }) =>
    `Mailserver ${p.host} hat keine Adresse: Mail an die Domain kommt zurück oder bleibt hängen.`,
  noSpf: (p: { name: string }) =>
    `${p.name} hat keinen SPF-Eintrag: Jeder kann in ihrem Namen Mail versenden.`,
  manySpf: (p: { name: string; count: number }) =>
    `${p.name} hat ${n(p.count)} SPF-Einträge: Empfänger werten das als Fehler (RFC 7208), daher schlägt SPF für alle Mail der Domain fehl.`,
  noDmarc: (p: { name: string }) =>
    `${p.name} hat keinen DMARC-Eintrag: Empfänger erhalten keine Richtlinie für Mail, die SPF und DKIM nicht besteht.`,
  manyDmarc: (p: { name: string; count: number }) =>
    `${p.name} hat ${n(p.count)} DMARC-Einträge: Empfänger ignorieren sie alle (RFC 7489).`,
  rejectWithBrokenSpf: (p: { name: string }) =>
    `DMARC verlangt \`p=reject\`, während SPF fehlerhaft ist: Mail von ${p.name} ohne DKIM-Signatur wird abgelehnt.`,
  validationMissing: (p: { id: string; name: string }) =>
    `Zertifikat ${p.id} wartet auf seinen Validierungseintrag \`${p.name}\`, den die Nameserver der Zone noch nicht ausliefern: Das Zertifikat kann nicht ausgestellt werden.`,
  validationWrong: (p: { id: string; name: string; found: string }) =>
    `Zertifikat ${p.id} wartet auf \`${p.name}\`, aber die Zone liefert dort einen anderen Wert aus (${p.found}): Das Zertifikat kann nicht ausgestellt werden.`,
} satisfies typeof enFindings;
