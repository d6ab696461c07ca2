import type { tls as en } from '../en/tls.js';
import type { Markup } from '../escape.js';
import { count, n, registrarState } from './grammar.js';

/** Was Regdesk über TLS-Zertifikate sagt (siehe ../index.ts). */
export const tls = {
  // `/tls`-Unterbefehle: Aufruf und Hilfezeilen des Routers, und die Antworten auf einen falschen Aufruf
  orderSyntax: 'order',
  orderSummary:
    'Zertifikat bestellen oder verlängern (Formular); Validierungseinträge und Fortschritt folgen in einem Thread',
  showSyntax: 'show ID',
  showSummary: 'Status, Namen und Validierungseinträge eines Zertifikats',
  showUsage: '`/tls show ZERTIFIKATS_ID`.',
  reissueSyntax: 'reissue ID',
  reissueSummary: 'Zertifikat mit einem neuen CSR und denselben Namen neu ausstellen (Formular)',
  reissueUsage: '`/tls reissue ZERTIFIKATS_ID`.',
  downloadSyntax: 'download ID [pem|zip]',
  downloadSummary: 'Ausgestelltes Zertifikat (PEM oder ZIP-Paket) in diese Unterhaltung hochladen',
  downloadUsage: '`/tls download ZERTIFIKATS_ID [pem|zip]`.',
  orgSyntax: 'org new|show ID|edit ID',
  orgSummary: 'TLS-Organisationen für OV-Bestellungen anlegen, anzeigen und bearbeiten',
  orgUsage: '`/tls org new`, `/tls org show ID` oder `/tls org edit ID`.',
  orgShowUsage: '`/tls org show ORGANISATIONS_ID`.',
  revocationSyntax: (p: { kind: string; reasons: string }) => `${p.kind} ID [${p.reasons}]`,
  revokeSummary: 'Einzelnes Zertifikat widerrufen (braucht eine Freigabe)',
  cancelSummary:
    'Bestellung stornieren oder innerhalb von 7 Tagen die ganze Bestellung widerrufen (braucht eine Freigabe)',
  revocationUsage: (p: { kind: string }) =>
    `Aufruf: \`/tls ${p.kind} ID [Grund]\`, z. B. \`/tls ${p.kind} cert-123 keyCompromise\`.`,
  unknownReason: (p: { reasons: string }) => `Unbekannter Grund. Möglich sind: ${p.reasons}.`,

  // Abfragen: eine verweigerte Abfrage, der Befehl, der ein Zertifikat zeigt, und Downloads
  lookupRefused: (p: { reason: string }) => `:lock: ${p.reason}`,
  showCommand: (p: { id: string }) => `/tls show ${p.id}`,
  notIssuedYet: (p: { id: string }) =>
    `:hourglass_flowing_sand: Zertifikat \`${p.id}\` ist noch nicht ausgestellt, es gibt also nichts herunterzuladen. \`/tls show ${p.id}\` zeigt seinen Status.`,
  downloadTitle: (p: { id: string; format: string }) => `Zertifikat ${p.id} (${p.format})`,
  downloaded: (p: { user: string; id: string; format: string }) =>
    `<@${p.user}> hat Zertifikat \`${p.id}\` heruntergeladen (${p.format}).`,

  // Formulare, die sofort öffnen und sich füllen, sobald der Registrar antwortet
  certificateModalTitle: 'Zertifikat',

  // Domain-Validierung, im Bestell- und im Neuausstellungsformular
  dcvLabel: 'Domain-Validierung',
  dcvDns: 'DNS (CNAME-Eintrag)',
  dcvEmail: 'E-Mail',

  // Das Bestellformular
  orderModalTitle: 'Zertifikat bestellen',
  orderSubmit: 'Bestellen',
  orderNoPrivateKeys:
    'Regdesk sieht nie private Schlüssel: Fügen Sie einen CSR (Zertifikatsanforderung) ein, den Sie dort erstellt haben, wo der Schlüssel liegen wird.',
  csrHowTo:
    'Noch kein CSR? Auf dem Server, der das Zertifikat nutzen wird, erzeugt dieser Befehl einen Schlüssel (`example.key`, bleibt dort) und den CSR zum Einfügen (`example.csr`); setzen Sie Ihren Namen statt example.com ein:\n' +
    '```openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout example.key -out example.csr -subj "/CN=example.com"```',
  productLabel: 'Produkt',
  commonNameLabel: 'Common Name',
  commonNamePlaceholder: 'www.example.com',
  sansLabel: 'Weitere Namen (SANs)',
  sansHint: 'Einer pro Zeile oder durch Kommas getrennt.',
  sansNotPrefilled: (p: { count: number }) =>
    `Die ${n(p.count)} weiteren Namen des Zertifikats passen nicht in dieses Feld: Geben Sie die zu erneuernden ein, einen pro Zeile.`,
  csrLabel: 'CSR (PEM)',
  validationEmailsLabel: 'E-Mail-Adressen zur Validierung',
  validationEmailsHint: 'Für die E-Mail-Validierung, durch Kommas getrennt.',
  orgIdLabel: 'ID der TLS-Organisation',
  orgIdHint: 'Für OV-Produkte nötig; ohne ID fragt der Registrar die Angaben ab.',
  validityLabel: 'Laufzeit (Tage)',
  renewalOfLabel: 'ID des zu verlängernden Zertifikats',

  // Fehler in den Feldern des Bestellformulars
  chooseProduct: 'Wählen Sie ein Produkt.',
  productNeedsOrganization:
    'Dieses Produkt braucht eine TLS-Organisation: Geben Sie ihre ID ein, oder legen Sie mit /tls org new eine an.',
  notFullyQualified: 'Geben Sie einen vollständigen Domainnamen ein, z. B. www.example.com.',
  notADomainName: (p: { name: string }) => `${p.name} ist kein Domainname.`,
  notAnEmailAddress: (p: { email: string }) => `${p.email} ist keine E-Mail-Adresse.`,
  emailValidationNeedsAddress: 'Die E-Mail-Validierung braucht mindestens eine Adresse.',
  validityRange: (p: { max: number }) => `Ganze Tage von 1 bis ${n(p.max)}.`,

  // Eine Bestellung, die nicht noch einmal aufgegeben wurde, gesagt der Person, die sie abgeschickt hat
  orderInProgress: (p: { name: string }) =>
    `:hourglass_flowing_sand: Für ${p.name} wird gerade eine Bestellung aufgegeben (aus einer anderen Übermittlung), daher hat Regdesk nicht noch einmal bestellt. Die Karte dazu erscheint dort, wo diese Bestellung abgeschickt wurde.`,
  orderAlreadyPending: (p: { name: string; id: string; rawId: string }) =>
    `Für ${p.name} ist bereits eine Bestellung offen: ${p.id}. Regdesk verfolgt sie; \`/tls show ${p.rawId}\` zeigt sie an.`,

  // Das Neuausstellungsformular, und ein Entwurf, der es überdauert hat
  reissueModalTitle: 'Neuausstellung',
  reissueSubmit: 'Neu ausstellen',
  reissueIntro: (p: { id: string; commonName: string; names: string }) =>
    `Zertifikat ${p.id} für ${p.commonName} wird mit einem neuen CSR neu ausgestellt. Die Namen bleiben genau wie bestellt: ${p.names}.`,
  newCsrLabel: 'Neuer CSR (PEM)',
  commentLabel: 'Kommentar',
  reissueExpired:
    'Dieses Formular ist abgelaufen. Öffnen Sie es erneut: mit „Neu ausstellen“ auf der Karte des Zertifikats oder mit `/tls reissue ID`.',

  // Das Organisationsformular
  newOrganizationTitle: 'Neue TLS-Organisation',
  editOrganizationTitle: 'TLS-Organisation ändern',
  organizationSubmit: 'Speichern',
  organizationLabel: 'Organisation',
  firstNameLabel: 'Vorname',
  lastNameLabel: 'Nachname',
  streetAddressLabel: 'Straße und Hausnummer',
  postalCodeLabel: 'Postleitzahl',
  cityLabel: 'Ort',
  countryCodeLabel: 'Ländercode (ISO 3166-1, z. B. DE)',
  phoneLabel: 'Telefon (z. B. +49 30 1234567)',
  emailLabel: 'E-Mail',
  editModeLabel: 'So wird die Änderung übernommen',
  editModeUpdate: 'Organisation beim Anbieter aktualisieren',
  editModeReplace: 'Neue Organisation als Ersatz anlegen',

  // Fehler in den Feldern des Organisationsformulars
  required: 'Pflichtfeld.',
  notCountryCode: 'Geben Sie einen zweistelligen Ländercode nach ISO 3166-1 ein, z. B. DE oder AT.',
  notEmail: 'Geben Sie eine E-Mail-Adresse ein.',
  notPhone: 'Geben Sie eine Telefonnummer ein, z. B. +49 30 1234567.',

  // Eine gespeicherte Organisation (ihre Karte folgt)
  organizationCreated: (p: { name: string; id: string }) =>
    `:white_check_mark: TLS-Organisation ${p.name} ist mit der ID ${p.id} angelegt. Verwenden Sie diese ID in \`/tls order\`.`,
  organizationUpdated: (p: { name: string; id: string }) =>
    `:white_check_mark: TLS-Organisation ${p.name} (ID ${p.id}) ist aktualisiert.`,
  organizationReplaced: (p: { name: string; id: string; replaced: string }) =>
    `:white_check_mark: ${p.name} ist mit der ID ${p.id} als Ersatz für ${p.replaced} angelegt. Verwenden Sie die neue ID in \`/tls order\`.`,

  // Karten: die Textzeile einer Zertifikats- oder Organisationskarte, und gemeinsame Feldbezeichnungen
  cardText: (p: { title: string; status: string }) => `${p.title} (${p.status})`,
  statusLabel: 'Status',

  // Die Zertifikatskarte
  certificateTitle: (p: { id: string; commonName: string }) => `Zertifikat ${p.id}: ${p.commonName}`,
  orderStateLabel: 'Bestellstatus',
  pemAvailableLabel: 'PEM verfügbar',
  yes: 'ja',
  no: 'nein',
  namesHeading: (p: { count: number }) => `*Namen* (${n(p.count)})`,
  pendingLine: (p: { message: string; reason: string | undefined }) =>
    `*Ausstehend:* ${p.message} ${p.reason === undefined ? '' : `(${p.reason})`}`,
  publishRecords: '*Veröffentlichen Sie diese DNS-Einträge zur Validierung:*',
  detailsMissing: (p: { completionUrl: string | undefined }) =>
    `:warning: Bevor die Bestellung abgeschickt werden kann, fehlen noch Angaben.${p.completionUrl === undefined ? '' : ` Ergänzen Sie sie <${p.completionUrl}|hier>.`}`,
  providerLine: (p: { provider: string; organization: string }) =>
    `Anbieter ${p.provider} · Organisation ${p.organization}`,
  noOrganization: 'keine',
  orderedOn: (p: { date: Markup }) => `Bestellt: ${p.date}`,
  lifeLeft: (p: { days: number; percent: number; lifeDays: number; expired: boolean }) =>
    p.expired
      ? `Abgelaufen (nach ${n(p.lifeDays)} Tagen Laufzeit)`
      : p.days === 0
        ? `Läuft heute ab (letzter Tag von ${n(p.lifeDays)} Tagen Laufzeit)`
        : `Noch ${count(p.days, 'Tag', 'Tage')} (${n(p.percent)} % von ${n(p.lifeDays)} Tagen Laufzeit)`,
  renewButton: 'Verlängern',
  renewButtonLabel: (p: { id: string }) => `Zertifikat ${p.id} verlängern`,
  reissueButton: 'Neu ausstellen',
  reissueButtonLabel: (p: { id: string }) => `Zertifikat ${p.id} neu ausstellen`,
  watchButtonLabel: (p: { id: string }) => `Zertifikat ${p.id} überwachen`,

  // Die Organisationskarte
  organizationTitle: (p: { organization: string }) => `Organisation ${p.organization}`,
  organizationStatus: (p: { status: string; usable: boolean }) =>
    `${p.status}${p.usable ? ', für Bestellungen nutzbar' : ''}`,
  contactLabel: 'Kontakt',
  addressLabel: 'Adresse',
  phoneFieldLabel: 'Telefon',
  organizationIdLine: (p: { id: string }) => `ID ${p.id}`,

  // Sofort ausgeführte Bestellung oder Neuausstellung: im Channel mit Karte angekündigt und protokolliert
  orderedText: (p: { user: string; card: string }) => `<@${p.user}> hat bestellt: ${p.card}`,
  orderedLine: (p: { user: string }) => `<@${p.user}> hat ein Zertifikat bestellt.`,
  reissuedText: (p: { user: string; card: string }) => `<@${p.user}> hat neu ausstellen lassen: ${p.card}`,
  reissuedLine: (p: { user: string }) => `<@${p.user}> hat ein Zertifikat neu ausstellen lassen.`,
  completedText: (p: { user: string; card: string }) =>
    `<@${p.user}> hat die Bestellung abgeschlossen: ${p.card}`,
  completedLine: (p: { user: string }) =>
    `<@${p.user}> hat eine Zertifikatsbestellung abgeschlossen, die auf Angaben wartete.`,

  // **Bestellung abschließen** bei einer Bestellung, die auf Angaben wartet (OV)
  completeButton: 'Bestellung abschließen',
  completeButtonLabel: (p: { id: string }) => `Bestellung von Zertifikat ${p.id} abschließen`,
  completeModalTitle: 'Bestellung abschließen',
  completeSubmit: 'Abschließen',
  completeIntro: (p: { id: string; commonName: string }) =>
    `Die Bestellung von ${p.id} (${p.commonName}) wartet auf eine Organisation. Nennen Sie eine, die für Bestellungen nutzbar ist; danach werden die Validierungseinträge veröffentlicht, und die Bestellung wird im Thread der Karte verfolgt.`,
  completeOrgHint:
    '`/tls org new` legt eine an; `/tls org show ID` zeigt, ob sie für Bestellungen nutzbar ist.',
  completeOrgInvalid:
    'Eine Organisations-ID besteht aus Buchstaben, Ziffern, Punkten, Bindestrichen oder Unterstrichen.',
  completeRequestSummary: (p: { id: string; org: string }) =>
    `die auf Angaben wartende Bestellung von Zertifikat ${p.id} mit Organisation ${p.org} abschließen`,
  completeNotStaged: (p: { id: string; status: string }) =>
    `Zertifikat ${p.id} wartet nicht auf Angaben (${registrarState(p.status)})`,
  completedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Bestellung von Zertifikat ${p.id} für ${p.commonName} abgeschlossen, Status jetzt ${registrarState(p.status)}${p.pending ? `; Validierungseinträge: /tls show ${p.id}` : ''}`,
  announcedOutcome: (p: { id: string; status: string }) =>
    `Zertifikat ${p.id} hat den Status ${registrarState(p.status)}`,

  // Ein ausstehendes Zertifikat verfolgen, bis es feststeht
  followIssued: (p: { id: string; commonName: string; rawId: string }) =>
    `:white_check_mark: Zertifikat ${p.id} für ${p.commonName} ist ausgestellt. Laden Sie es mit \`/tls download ${p.rawId} pem\` oder \`zip\` herunter.`,
  followEnded: (p: { id: string; status: string; message: string | undefined }) =>
    `:x: Zertifikat ${p.id} endete mit dem Status ${registrarState(p.status)}${p.message === undefined ? '' : `: ${p.message}`}.`,

  // Das Formular für den Grund bei `/tls revoke|cancel ID`
  revokeModalTitle: 'Zertifikat widerrufen',
  cancelModalTitle: 'Bestellung stornieren',
  requestApprovalSubmit: 'Freigabe anfragen',
  revokeQuestion: (p: { id: string }) =>
    `Zertifikat ${p.id} widerrufen? Dafür ist die Freigabe einer zweiten Person nötig.`,
  cancelQuestion: (p: { id: string }) =>
    `Bestellung von ${p.id} stornieren? Innerhalb von 7 Tagen nach der Bestellung wird damit die ganze Bestellung widerrufen. Dafür ist die Freigabe einer zweiten Person nötig.`,
  reasonLabel: 'Grund für den Widerruf',
  chooseReason: 'Wählen Sie einen Grund.',
  reasonUnspecified: 'Nicht angegeben',
  reasonKeyCompromise: 'Schlüssel kompromittiert',
  reasonAffiliationChanged: 'Zugehörigkeit geändert',
  reasonSuperseded: 'Ersetzt',
  reasonCessationOfOperation: 'Betrieb eingestellt',

  // Freigabeanfragen: was ein Zertifikat ist, und Listen von Namen
  describeCertificate: (p: { id: string; commonName: string; status: string; names: string }) =>
    `Zertifikat ${p.id}: ${p.commonName}, Status ${registrarState(p.status)}, Namen ${p.names}`,
  nameList: (p: { names: string; more: number }) =>
    `${p.names}${p.more > 0 ? ` und ${n(p.more)} weitere` : ''}`,

  // Ein Zertifikat widerrufen (Freigabeanfrage, Prüfungen, Ergebnis)
  revokeRequestSummary: (p: { id: string; reason: string }) =>
    `Zertifikat ${p.id} widerrufen (Grund: ${p.reason})`,
  revokeOnlyThisCertificate:
    'Nur dieses Zertifikat wird widerrufen; die Bestellung bleibt für eine Neuausstellung erhalten.',
  revokeNotIssued: (p: { id: string; status: string }) =>
    `Zertifikat ${p.id} hat den Status ${registrarState(p.status)}: Widerrufen lässt sich nur ein ausgestelltes Zertifikat.`,
  revokeNoLongerIssued: (p: { status: string }) =>
    `Das Zertifikat hat jetzt den Status ${registrarState(p.status)}, daher wurde nichts widerrufen`,
  revokedOutcome: (p: { id: string; status: string }) =>
    `Zertifikat ${p.id} hat jetzt den Status ${registrarState(p.status)}`,

  // Eine Bestellung stornieren (Freigabeanfrage, Prüfungen, Ergebnis)
  cancelRequestSummary: (p: { id: string; reason: string }) =>
    `die Bestellung von Zertifikat ${p.id} stornieren oder ganz widerrufen (Grund: ${p.reason})`,
  cancelPending: 'Noch ist nichts ausgestellt: Die Bestellung wird *storniert*.',
  cancelWindowEnded: (p: { date: Markup }) =>
    `Die 7-Tage-Frist, in der sich die ganze Bestellung widerrufen lässt, ist abgelaufen (Ende: ${p.date}).`,
  cancelWindowOpen: (p: { ordered: Markup; ends: Markup }) =>
    `Bestellt: ${p.ordered}. Die ganze Bestellung lässt sich bis ${p.ends} widerrufen.`,
  cancelWindowUnknown:
    'Innerhalb von 7 Tagen nach der Bestellung wird damit die *ganze Bestellung* widerrufen (jede Version des Zertifikats); danach lehnt der Registrar ab.',
  revokedOrderNotReissuable: ':warning: Eine widerrufene Bestellung lässt sich nicht neu ausstellen.',
  cancelAlready: (p: { status: string }) =>
    `Die Bestellung hat bereits den Status ${registrarState(p.status)}`,
  cancelPastWindow:
    'Die 7-Tage-Frist der Bestellung ist abgelaufen, daher lässt sie sich nicht mehr als Ganzes widerrufen',
  cancelledOutcome: (p: { id: string; status: string }) =>
    `Bestellung von ${p.id} hat jetzt den Status ${registrarState(p.status)}`,

  // Bestellen und neu ausstellen mit Freigabe (Anfrage, Vorschau, Ergebnis, Ablehnung)
  orderRequestSummary: (p: { sku: string; commonName: string; more: number }) =>
    `ein ${p.sku}-Zertifikat für ${p.commonName}${p.more === 1 ? ' und einen weiteren Namen' : p.more > 1 ? ` und ${n(p.more)} weitere Namen` : ''} bestellen`,
  orderPreviewProduct: (p: { product: string; names: string }) => `Produkt *${p.product}* für ${p.names}`,
  orderPreviewCsr: (p: { key: string; emails: string | undefined }) =>
    `CSR-Schlüssel: ${p.key}; Validierung ${p.emails === undefined ? 'per DNS (CNAME-Eintrag)' : `per E-Mail an ${p.emails}`}`,
  orderPreviewOrganization: (p: { id: string }) => `TLS-Organisation ${p.id}`,
  orderPreviewRenews: (p: { id: string }) => `Verlängert Zertifikat ${p.id}`,
  orderPreviewValidity: (p: { days: number }) => `Laufzeit: ${n(p.days)} ${p.days === 1 ? 'Tag' : 'Tage'}`,
  orderAlreadyPendingRefusal: (p: { commonName: string; id: string }) =>
    `Für ${p.commonName} ist bereits eine Bestellung offen (${p.id}), daher wurde keine aufgegeben`,
  orderInProgressRefusal: (p: { commonName: string }) =>
    `Für ${p.commonName} lief in diesem Moment schon eine Bestellung, daher wurde keine weitere aufgegeben`,
  reissueRequestSummary: (p: { id: string; commonName: string }) =>
    `Zertifikat ${p.id} (${p.commonName}) mit einem neuen CSR neu ausstellen`,
  reissuePreviewCsr: (p: { key: string }) =>
    `Neuer CSR-Schlüssel: ${p.key}; die Namen bleiben genau wie bestellt.`,
  orderedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Zertifikat ${p.id} für ${p.commonName} bestellt, Status jetzt ${registrarState(p.status)}${p.pending ? `; Validierungseinträge: /tls show ${p.id}` : ''}`,
  reissuedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Neuausstellung von Zertifikat ${p.id} für ${p.commonName} beantragt, Status jetzt ${registrarState(p.status)}${p.pending ? `; Validierungseinträge: /tls show ${p.id}` : ''}`,

  // Der Schlüssel eines CSR, für die Freigebenden
  csrKey: (p: { type: string; fingerprint: string }) =>
    `${p.type}, SHA-256 des öffentlichen Schlüssels: ${p.fingerprint}`,
  csrKeyRsa: (p: { bits: number }) => `RSA ${p.bits} Bit`,
  csrKeyEc: (p: { curve: string }) => `EC ${p.curve}`,
  csrKeyEd25519: 'Ed25519',
  csrKeyUnknownType: 'unbekannter Typ',
  csrKeyUnreadable: 'nicht lesbar',

  // Warum ein eingefügter CSR abgelehnt wird, am CSR-Feld (Gründe ohne Schlusspunkt: sie werden eingebettet)
  csrNotPem: (p: { reason: string }) =>
    `Fügen Sie einen gültigen CSR im PEM-Format ein (-----BEGIN CERTIFICATE REQUEST-----): ${p.reason}.`,
  csrDoesNotFitOrder: (p: { problems: string }) => `Der CSR passt nicht zur Bestellung: ${p.problems}.`,
  csrDoesNotFitCertificate: (p: { problems: string }) =>
    `Der CSR passt nicht zu diesem Zertifikat: ${p.problems}.`,
  csrUnreadable: 'nicht lesbar',
  csrNotARequest: 'kein CSR im PEM-Format',
  csrCannotDecode: 'der CSR lässt sich nicht dekodieren',
  csrKeyCannotRead: 'der öffentliche Schlüssel des CSR lässt sich nicht lesen',
  csrNamesCannotDecode: 'die Namen im CSR lassen sich nicht dekodieren',
  csrSignatureKeyMismatch: 'der Signaturalgorithmus des CSR passt nicht zu seinem Schlüssel',
  csrPssNoParameters: 'seine RSASSA-PSS-Signatur hat keine Parameter',
  csrPssUnsupported:
    'seine RSASSA-PSS-Parameter werden nicht unterstützt (verwenden Sie SHA-256/384/512 mit MGF1 über denselben Hash)',
  csrSignatureUnsupported: (p: { oid: string }) =>
    `sein Signaturalgorithmus (OID ${p.oid}) wird nicht unterstützt; signieren Sie den CSR mit SHA-256 oder stärker und RSA, ECDSA oder Ed25519`,
  csrSignatureInvalid: 'die Signatur des CSR ist ungültig (wurde er nach dem Signieren bearbeitet?)',
  csrCommonNameDiffers: (p: { actual: string; wanted: string }) =>
    `sein Common Name ist ${p.actual}, nicht ${p.wanted}`,
  csrExtraNames: (p: { names: string }) => `er enthält Namen, die nicht bestellt sind: ${p.names}`,
  csrMissingNames: (p: { names: string }) => `er enthält ${p.names} nicht`,
  csrRsaTooSmall: (p: { bits: number }) => `sein RSA-Schlüssel hat ${p.bits} Bit; nötig sind mindestens 2048`,
  csrRsaTooLarge: (p: { bits: number }) =>
    `sein RSA-Schlüssel hat ${p.bits} Bit; angenommen werden höchstens 8192`,
  csrCurveRejected: (p: { curve: string }) =>
    `seine EC-Kurve ${p.curve} wird nicht angenommen (nur P-256, P-384)`,
  csrEd25519Rejected:
    'öffentliche Zertifizierungsstellen nehmen keine Ed25519-Schlüssel an; verwenden Sie RSA 2048+ oder EC P-256/P-384',
  csrKeyTypeRejected: 'sein Schlüsseltyp ist weder RSA noch EC',
} satisfies typeof en;
