import type { dns as en } from '../en/dns.js';
import type { Markup } from '../escape.js';
import { count, n, registrarState } from './grammar.js';

/** Eine Zahl oder ein Platzhalter (`?`), wie ihn der Registrar-Wert liefert. */
const num = (value: string | number): string => (typeof value === 'number' ? n(value) : value);

/** Was Regdesk über DNS sagt (siehe ../index.ts). */
export const dns = {
  // Werte, wo der Registrar nichts gemeldet hat, und Ja/Nein-Felder
  unknown: 'unbekannt',
  yes: 'ja',
  no: 'nein',
  noneReported: '_keine gemeldet_',

  // `/dns zone`: Aufruf und die Karte der Zone
  zoneUsage: 'zone DOMAIN',
  zoneSummary: 'SOA, Delegierung, DNSSEC und Anzahl der Einträge nach Typ',
  zoneUsageReply: '`/dns zone DOMAIN`.',
  zoneTitle: (p: { name: string }) => `Zone ${p.name}`,
  activeField: (p: { value: string }) => `*Aktiv*\n${p.value}`,
  zoneDnssecField: (p: { state: string }) => `*DNSSEC*\n${p.state}`,
  zoneDnssecSignedField: (p: { state: string }) => `*DNSSEC*\n${p.state} (signiert)`,
  serviceNameserversField: (p: { value: string }) => `*Nameserver des Registrars*\n${p.value}`,
  recordCountsField: (p: {
    total: string | number;
    active: string | number;
    auto: string | number;
    manual: string | number;
  }) =>
    `*Einträge*\n${num(p.total)} (${num(p.active)} aktiv, ${num(p.auto)} automatisch, ${num(p.manual)} manuell)`,
  soaLine: (p: {
    primary: string;
    mailbox: string;
    serial: string | number;
    refresh: string | number;
    retry: string | number;
    expire: string | number;
    minimum: string | number;
    ttl: string | number;
  }) =>
    `*SOA* ${p.primary} ${p.mailbox} Seriennummer ${p.serial}, Refresh ${p.refresh}, Retry ${p.retry}, Expire ${p.expire}, Minimum ${p.minimum}, TTL ${p.ttl}`,
  delegationSection: (p: { nameservers: string }) => `*Delegierung*\n${p.nameservers}`,
  countsByType: (p: { counts: string }) => `Nach Typ: ${p.counts}`,

  // `/dns records`: Aufruf und eine Seite mit Einträgen
  recordsUsage: 'records DOMAIN [TYPE]',
  recordsSummary:
    'Einträge mit Name, Typ, TTL, Daten, automatisch/manuell und aktiv; große Zonen seitenweise',
  recordsUsageReply: '`/dns records DOMAIN [TYPE]`, z. B. `/dns records example.com MX`.',
  recordsTitle: (p: { name: string; total: number }) => `${p.name}: ${count(p.total, 'Eintrag', 'Einträge')}`,
  recordsOfTypeTitle: (p: { name: string; total: number; type: string }) =>
    `${p.name}: ${count(p.total, `${p.type}-Eintrag`, `${p.type}-Einträge`)}`,
  noRecords: '_Keine Einträge._',
  recordAuto: 'automatisch',
  recordManual: 'manuell',
  recordInactive: 'inaktiv',
  recordsLegend: 'Name · Typ · TTL · Daten · automatisch/manuell',
  previousButton: '◀ Zurück',
  previousPageLabel: (p: { name: string }) => `Vorherige Seite der Einträge von ${p.name}`,
  nextButton: 'Weiter ▶',
  nextPageLabel: (p: { name: string }) => `Nächste Seite der Einträge von ${p.name}`,
  pageOf: (p: { page: number; pages: number }) => `Seite ${n(p.page)} von ${n(p.pages)}`,

  // `/dns dnssec`: Aufruf und die Antworten auf enable und verify
  dnssecUsage: 'dnssec DOMAIN [enable|disable|verify|cancel]',
  dnssecSummary:
    'DNSSEC-Zustand und -Einträge; aktivieren, prüfen, eine Umstellung abbrechen; `disable` braucht eine Freigabe',
  dnssecUsageReply: '`/dns dnssec DOMAIN [enable|disable|verify|cancel]`.',
  dnssecAlreadyActive: (p: { name: string }) => `DNSSEC ist für ${p.name} bereits aktiv.`,
  dnssecEnabledBy: (p: { user: string; name: string; description: string }) =>
    `<@${p.user}> hat DNSSEC für ${p.name} aktiviert: ${p.description}`,
  dnssecStillConverging: (p: { name: string; description: string }) =>
    `Die DNSSEC-Umstellung für ${p.name} läuft noch: ${p.description}`,

  /** Ein DNSSEC-Zustand, wie der Registrar ihn meldet (docs/registrar-api.md §2.4); ein neuer Wert, wie gesendet. */
  dnssecState: (p: { state: string }) => registrarState(p.state),

  // Die DNSSEC-Karte
  // A header is plain text, where a code span shows its backticks: the overall state in words.
  dnssecTitle: (p: { name: string; state: string }) =>
    `DNSSEC für ${p.name}: ${({ active: 'aktiv', inactive: 'inaktiv', pending: 'ausstehend' } as Record<string, string>)[p.state] ?? p.state}`,
  dnssecStateField: (p: { state: string }) => `*Zustand*\n${p.state}`,
  dnssecModeField: (p: { mode: string }) => `*Modus*\n${p.mode}`,
  dnssecDesiredField: (p: { state: string }) => `*Sollzustand*\n${p.state}`,
  dnssecLiveField: (p: { state: string }) => `*Istzustand*\n${p.state}`,
  zoneSignedField: (p: { value: string }) => `*Zone signiert*\n${p.value}`,
  pendingTransition: ':hourglass_flowing_sand: Umstellung steht aus',
  pendingTransitionWith: (p: { fields: Markup }) =>
    `:hourglass_flowing_sand: Umstellung steht aus (${p.fields})`,
  desiredRecordsHeading: (p: { count: number }) => `*Soll-Einträge* (${n(p.count)})`,
  liveRecordsHeading: (p: { count: number }) => `*Ist-Einträge* (${n(p.count)})`,
  acceptedRecords: (p: { kinds: string; algorithms: string; min: string | number; provider: string }) =>
    `Akzeptiert: ${p.kinds} · Algorithmen ${p.algorithms} · mindestens ${num(p.min)} ${p.min === 1 ? 'Eintrag' : 'Einträge'} · Anbieter ${p.provider}`,

  // Eine DNSSEC-Umstellung, die abgeschlossen ist (das Ergebnis der Verfolgung)
  dnssecSettledActive: (p: { name: string; state: string; mode: string }) =>
    `:lock: DNSSEC für ${p.name} ist jetzt *${p.state}* (Modus ${p.mode}).`,
  dnssecSettledInactive: (p: { name: string; state: string; mode: string }) =>
    `:unlock: DNSSEC für ${p.name} ist jetzt *${p.state}* (Modus ${p.mode}).`,

  // DNSSEC-Vorgänge: der Zustand in einer Zeile, Zusammenfassungen für Freigaben, Vorschauen und Ergebnisse
  dnssecDescription: (p: { state: string; mode: string; desired: string; live: string }) =>
    `DNSSEC *${p.state}*, Modus ${p.mode}, Soll ${p.desired}, Ist ${p.live}`,
  dnssecDescriptionPending: (p: { state: string; mode: string; desired: string; live: string }) =>
    `DNSSEC *${p.state}* (eine Umstellung steht aus), Modus ${p.mode}, Soll ${p.desired}, Ist ${p.live}`,
  dnssecNow: (p: { state: string }) => `DNSSEC ist jetzt ${registrarState(p.state)}`,
  dnssecNowConverging: (p: { state: string }) =>
    `DNSSEC ist jetzt ${registrarState(p.state)} (die Registry stellt noch um; Regdesk verfolgt das)`,
  disableSummary: (p: { domain: string }) => `DNSSEC für ${p.domain} deaktivieren`,
  disableConsequence:
    'Validierende Resolver prüfen keine Signaturen mehr; die Registry entfernt die DS-Einträge.',
  disableAlreadyInactive: (p: { domain: string }) => `DNSSEC ist für ${p.domain} bereits inaktiv.`,
  disableRefusedInactive: 'DNSSEC ist bereits inaktiv',
  externalSummary: (p: { count: number; domain: string }) =>
    `${count(p.count, 'externen DNSSEC-Eintrag', 'externe DNSSEC-Einträge')} für ${p.domain} setzen`,
  externalSha1Algorithm: (p: { algorithms: string }) =>
    `:warning: Algorithmus ${p.algorithms} (RSA/SHA-1) ist durch RFC 9905 veraltet: Validierende Resolver lassen ihn fallen. ` +
    'Bitten Sie den DNS-Anbieter um einen Rollover zu Algorithmus 13 (ECDSAP256SHA256) oder 15 (ED25519).',
  dnskeyRecord: (p: { keyTag: string; record: string }) =>
    `DNSKEY (Key-Tag ${p.keyTag}):\n\`\`\`${p.record}\`\`\``,

  // Externe Nameserver: der Hinweis nach `enable` und das Formular für die Einträge
  externalNeedsRecords:
    'Diese Domain nutzt externe Nameserver: DNSSEC braucht die DS-Einträge Ihres DNS-Anbieters.',
  externalNeedsRecordsFor: (p: { name: string }) =>
    `${p.name} nutzt externe Nameserver: DNSSEC braucht die DS-Einträge Ihres DNS-Anbieters.`,
  enterRecordsButton: 'DNSSEC-Einträge eingeben',
  externalModalTitle: 'Externes DNSSEC',
  externalModalSubmit: 'Freigabe anfragen',
  externalModalIntro: (p: { name: string; kinds: string; algorithms: string; min: number }) =>
    `${p.name} nutzt externe Nameserver: Fügen Sie die Einträge ein, die Ihr DNS-Anbieter anzeigt. ` +
    `Akzeptiert: ${p.kinds}, Algorithmen ${p.algorithms}, mindestens ${n(p.min)}. ` +
    'DS-Einträge brauchen Digest-Typ 2 (SHA-256): Registries lehnen SHA-1 ab. ' +
    'Eine Änderung braucht die Freigabe einer zweiten Person.',
  recordsLabel: 'Einträge',
  recordsPlaceholder: 'DS 12345 13 2 49FD46E6C4B45C55D4AC…',

  // Das Formular für die Einträge: Fehler am Feld der Einträge
  lineNotARecord: (p: { line: number }) =>
    `Zeile ${n(p.line)} ist kein DS- oder DNSKEY-Eintrag im Format einer Zonendatei.`,
  lineKindNotAccepted: (p: { line: number; kinds: string }) =>
    `Zeile ${n(p.line)}: Die Registry akzeptiert nur Einträge vom Typ ${p.kinds}.`,
  lineAlgorithmNotAccepted: (p: { line: number; algorithm: number; accepted: string }) =>
    `Zeile ${n(p.line)}: Algorithmus ${p.algorithm} wird nicht akzeptiert (akzeptiert: ${p.accepted}).`,
  lineSha1Digest: (p: { line: number }) =>
    `Zeile ${n(p.line)}: Digest-Typ 1 (SHA-1) lehnen die Registries ab. Verwenden Sie den DS-Eintrag mit Digest-Typ 2 (SHA-256).`,
  tooFewRecords: (p: { min: number }) =>
    `Es ${p.min === 1 ? 'ist' : 'sind'} mindestens ${count(p.min, 'Eintrag', 'Einträge')} nötig.`,
  tooManyRecords: (p: { max: number }) => `Höchstens ${count(p.max, 'Eintrag', 'Einträge')}.`,
} satisfies typeof en;
