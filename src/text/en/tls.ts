import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';
import { count, n } from './numbers.js';

/** What Regdesk says about tls (see ../index.ts). */
export const tls = {
  // `/tls` subcommands: the router's usage and help lines, and the usage replies of a wrong call
  orderSyntax: 'order',
  orderSummary: 'order or renew a certificate (modal); validation records and progress follow in a thread',
  showSyntax: 'show ID',
  showSummary: 'certificate status, names, validation records',
  showUsage: '`/tls show CERTIFICATE_ID`.',
  reissueSyntax: 'reissue ID',
  reissueSummary: 'reissue a certificate with a new CSR, same names (modal)',
  reissueUsage: '`/tls reissue CERTIFICATE_ID`.',
  downloadSyntax: 'download ID [pem|zip]',
  downloadSummary: 'upload the issued certificate (PEM, or the ZIP bundle) into this conversation',
  downloadUsage: '`/tls download CERTIFICATE_ID [pem|zip]`.',
  orgSyntax: 'org new|show ID|edit ID',
  orgSummary: 'TLS organizations for OV orders: create, show, edit',
  orgUsage: '`/tls org new`, `/tls org show ID` or `/tls org edit ID`.',
  orgShowUsage: '`/tls org show ORGANIZATION_ID`.',
  revocationSyntax: (p: { kind: string; reasons: string }) => `${p.kind} ID [${p.reasons}]`,
  revokeSummary: 'revoke one certificate (needs approval)',
  cancelSummary: 'cancel an order, or revoke the whole order within 7 days (needs approval)',
  revocationUsage: (p: { kind: string }) =>
    `Usage: \`/tls ${p.kind} ID [reason]\`, e.g. \`/tls ${p.kind} cert-123 keyCompromise\`.`,
  unknownReason: (p: { reasons: string }) => `Unknown reason. Use one of: ${p.reasons}.`,

  // Look-ups: a refusal to read, the command that shows a certificate, and downloads
  lookupRefused: (p: { reason: string }) => `:lock: ${p.reason}`,
  showCommand: (p: { id: string }) => `/tls show ${p.id}`,
  notIssuedYet: (p: { id: string }) =>
    `:hourglass_flowing_sand: Certificate \`${p.id}\` is not issued yet, so there is nothing to download. \`/tls show ${p.id}\` tells its state.`,
  downloadTitle: (p: { id: string; format: string }) => `Certificate ${p.id} (${p.format})`,
  downloaded: (p: { user: string; id: string; format: string }) =>
    `<@${p.user}> downloaded certificate \`${p.id}\` (${p.format}).`,

  // Modals opened at once and filled when the registrar answers
  certificateModalTitle: 'Certificate',

  // Domain validation, in the order and reissue modals
  dcvLabel: 'Domain validation',
  dcvDns: 'DNS (CNAME record)',
  dcvEmail: 'E-mail',

  // The order modal
  orderModalTitle: 'Order a certificate',
  orderSubmit: 'Order',
  orderNoPrivateKeys: 'Regdesk never sees private keys: paste a CSR made where the key will live.',
  csrHowTo:
    'No CSR yet? On the server that will use the certificate, this makes a key (`example.key`, keep it there) and the CSR to paste (`example.csr`); put your name in place of example.com:\n' +
    '```openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout example.key -out example.csr -subj "/CN=example.com"```',
  productLabel: 'Product',
  commonNameLabel: 'Common name',
  commonNamePlaceholder: 'www.example.com',
  sansLabel: 'Additional names (SANs)',
  sansHint: 'One per line or comma separated.',
  sansNotPrefilled: (p: { count: number }) =>
    `The certificate's ${n(p.count)} other names are more than this field holds: enter the ones to renew, one per line.`,
  csrLabel: 'CSR (PEM)',
  validationEmailsLabel: 'Validation e-mails',
  validationEmailsHint: 'For e-mail validation, comma separated.',
  orgIdLabel: 'TLS organization ID',
  orgIdHint: 'Needed for OV products; without one the registrar asks for the details.',
  validityLabel: 'Validity (days)',
  renewalOfLabel: 'Renewal of certificate ID',

  // The order form's field errors
  chooseProduct: 'Choose a product.',
  productNeedsOrganization:
    'This product needs a TLS organization: enter its ID, or create one with /tls org new.',
  notFullyQualified: 'A fully qualified domain name, e.g. www.example.com.',
  notADomainName: (p: { name: string }) => `${p.name} is not a domain name.`,
  notAnEmailAddress: (p: { email: string }) => `${p.email} is not an e-mail address.`,
  emailValidationNeedsAddress: 'E-mail validation needs at least one address.',
  validityRange: (p: { max: number }) => `Whole days, from 1 to ${n(p.max)}.`,

  // An order not placed again, told to the person who submitted it
  orderInProgress: (p: { name: string }) =>
    `:hourglass_flowing_sand: An order for ${p.name} is being placed right now (another submission), so Regdesk did not order it again. Its card appears where that order was submitted.`,
  orderAlreadyPending: (p: { name: string; id: string; rawId: string }) =>
    `An order for ${p.name} is already pending: ${p.id}. Regdesk is following it; \`/tls show ${p.rawId}\` shows it.`,

  // The reissue modal, and a draft that outlived it
  reissueModalTitle: 'Reissue certificate',
  reissueSubmit: 'Reissue',
  reissueIntro: (p: { id: string; commonName: string; names: string }) =>
    `Reissue ${p.id} for ${p.commonName} with a new CSR. The names stay exactly as ordered: ${p.names}.`,
  newCsrLabel: 'New CSR (PEM)',
  commentLabel: 'Comment',
  reissueExpired:
    'This reissue dialog has expired. Open it again: Reissue on the certificate card, or `/tls reissue ID`.',

  // The organization modal
  newOrganizationTitle: 'New TLS organization',
  editOrganizationTitle: 'Edit TLS organization',
  organizationSubmit: 'Save',
  organizationLabel: 'Organization',
  firstNameLabel: 'First name',
  lastNameLabel: 'Last name',
  streetAddressLabel: 'Street address',
  postalCodeLabel: 'Postal code',
  cityLabel: 'City',
  countryCodeLabel: 'Country code (ISO 3166-1, e.g. DE)',
  phoneLabel: 'Phone (e.g. +49 30 1234567)',
  emailLabel: 'E-mail',
  editModeLabel: 'How to apply the change',
  editModeUpdate: 'Update the organization at the provider',
  editModeReplace: 'Create a replacement organization',

  // The organization form's field errors
  required: 'Required.',
  notCountryCode: 'A two-letter ISO 3166-1 country code, e.g. DE or AT.',
  notEmail: 'An e-mail address.',
  notPhone: 'A phone number, e.g. +49 30 1234567.',

  // A saved organization (its card follows)
  organizationCreated: (p: { name: string; id: string }) =>
    `:white_check_mark: Created TLS organization ${p.name} with ID ${p.id}. Use this ID in \`/tls order\`.`,
  organizationUpdated: (p: { name: string; id: string }) =>
    `:white_check_mark: Updated TLS organization ${p.name} (ID ${p.id}).`,
  organizationReplaced: (p: { name: string; id: string; replaced: string }) =>
    `:white_check_mark: Created ${p.name} with ID ${p.id} to replace ${p.replaced}. Use the new ID in \`/tls order\`.`,

  // Cards: the plain-text line of a certificate or organization card, and field labels they share
  cardText: (p: { title: string; status: string }) => `${p.title} (${p.status})`,
  statusLabel: 'Status',

  // The certificate card
  certificateTitle: (p: { id: string; commonName: string }) => `Certificate ${p.id}: ${p.commonName}`,
  orderStateLabel: 'Order state',
  pemAvailableLabel: 'PEM available',
  yes: 'yes',
  no: 'no',
  namesHeading: (p: { count: number }) => `*Names* (${n(p.count)})`,
  pendingLine: (p: { message: string; reason: string | undefined }) =>
    `*Pending:* ${p.message} ${p.reason === undefined ? '' : `(${p.reason})`}`,
  publishRecords: '*Publish these DNS records to validate:*',
  detailsMissing: (p: { completionUrl: string | undefined }) =>
    `:warning: Details are missing before the order can be submitted.${p.completionUrl === undefined ? '' : ` Complete them <${p.completionUrl}|here>.`}`,
  providerLine: (p: { provider: string; organization: string }) =>
    `Provider ${p.provider} · organization ${p.organization}`,
  noOrganization: 'none',
  orderedOn: (p: { date: Markup }) => `Ordered ${p.date}`,
  /** What is left of an issued certificate's lifetime, in days (src/shared/days.ts); the card and the watch digest. */
  lifeLeft: (p: { days: number; percent: number; lifeDays: number; expired: boolean }) =>
    p.expired
      ? `Expired (after its ${n(p.lifeDays)}-day life)`
      : p.days === 0
        ? `Expires today (the last day of its ${n(p.lifeDays)}-day life)`
        : `${count(p.days, 'day')} left (${n(p.percent)} % of its ${n(p.lifeDays)}-day life)`,
  renewButton: 'Renew',
  renewButtonLabel: (p: { id: string }) => `Renew certificate ${p.id}`,
  reissueButton: 'Reissue',
  reissueButtonLabel: (p: { id: string }) => `Reissue certificate ${p.id}`,
  watchButtonLabel: (p: { id: string }) => `Watch certificate ${p.id}`,

  // The organization card
  organizationTitle: (p: { organization: string }) => `Organization ${p.organization}`,
  organizationStatus: (p: { status: string; usable: boolean }) =>
    `${p.status}${p.usable ? ', usable for orders' : ''}`,
  contactLabel: 'Contact',
  addressLabel: 'Address',
  phoneFieldLabel: 'Phone',
  organizationIdLine: (p: { id: string }) => `ID ${p.id}`,

  // An order or reissue made at once: announced in the channel with its card, and audited
  orderedText: (p: { user: string; card: string }) => `<@${p.user}> ordered ${p.card}`,
  orderedLine: (p: { user: string }) => `<@${p.user}> ordered a certificate.`,
  reissuedText: (p: { user: string; card: string }) => `<@${p.user}> reissued ${p.card}`,
  reissuedLine: (p: { user: string }) => `<@${p.user}> reissued a certificate.`,
  completedText: (p: { user: string; card: string }) => `<@${p.user}> completed the order of ${p.card}`,
  completedLine: (p: { user: string }) => `<@${p.user}> completed a staged certificate order.`,

  // **Complete order** of a staged (OV) order
  completeButton: 'Complete order',
  completeButtonLabel: (p: { id: string }) => `Complete the staged order of certificate ${p.id}`,
  completeModalTitle: 'Complete order',
  completeSubmit: 'Complete',
  completeIntro: (p: { id: string; commonName: string }) =>
    `The order of ${p.id} (${p.commonName}) waits for an organization. Name one that is usable for ordering; its validation records are then published and the order followed in the card's thread.`,
  completeOrgHint: '`/tls org new` creates one; `/tls org show ID` tells whether it is usable for ordering.',
  completeOrgInvalid: 'An organization id: letters, digits, dots, dashes or underscores.',
  completeRequestSummary: (p: { id: string; org: string }) =>
    `complete the staged order of certificate ${p.id} with organization ${p.org}`,
  completeNotStaged: (p: { id: string; status: string }) =>
    `certificate ${p.id} is not waiting for completion (${p.status})`,
  completedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Order of certificate ${p.id} for ${p.commonName} completed, now ${p.status}${p.pending ? `; its validation records: /tls show ${p.id}` : ''}`,
  announcedOutcome: (p: { id: string; status: string }) => `Certificate ${p.id} is ${p.status}`,

  // Following a pending certificate until it settles
  followIssued: (p: { id: string; commonName: string; rawId: string }) =>
    `:white_check_mark: Certificate ${p.id} for ${p.commonName} is issued. Download it with \`/tls download ${p.rawId} pem\` or \`zip\`.`,
  followEnded: (p: { id: string; status: string; message: string | undefined }) =>
    `:x: Certificate ${p.id} ended as *${p.status}*${p.message === undefined ? '' : `: ${p.message}`}.`,

  // The reason modal of `/tls revoke|cancel ID`
  revokeModalTitle: 'Revoke certificate',
  cancelModalTitle: 'Cancel order',
  requestApprovalSubmit: 'Request approval',
  revokeQuestion: (p: { id: string }) => `Revoke certificate ${p.id}? This needs a second person's approval.`,
  cancelQuestion: (p: { id: string }) =>
    `Cancel the order of ${p.id} (within 7 days of ordering this revokes the whole order)? This needs a second person's approval.`,
  reasonLabel: 'Revocation reason',
  chooseReason: 'Choose a reason.',
  reasonUnspecified: 'Unspecified',
  reasonKeyCompromise: 'Key compromise',
  reasonAffiliationChanged: 'Affiliation changed',
  reasonSuperseded: 'Superseded',
  reasonCessationOfOperation: 'Cessation of operation',

  // Approval requests: what a certificate is, and lists of names
  describeCertificate: (p: { id: string; commonName: string; status: string; names: string }) =>
    `Certificate ${p.id}: ${p.commonName}, status *${p.status}*, names ${p.names}`,
  nameList: (p: { names: string; more: number }) => `${p.names}${p.more > 0 ? ` and ${n(p.more)} more` : ''}`,

  // Revoking a certificate (approval request, checks, outcome)
  revokeRequestSummary: (p: { id: string; reason: string }) =>
    `revoke certificate ${p.id} (reason: ${p.reason})`,
  revokeOnlyThisCertificate: 'Only this certificate is revoked; the order stays available for a reissue.',
  revokeNotIssued: (p: { id: string; status: string }) =>
    `Certificate ${p.id} is ${p.status}: only an issued certificate can be revoked.`,
  revokeNoLongerIssued: (p: { status: string }) =>
    `the certificate is now ${p.status}, so nothing was revoked`,
  revokedOutcome: (p: { id: string; status: string }) => `Certificate ${p.id} is now ${p.status}`,

  // Cancelling an order (approval request, checks, outcome)
  cancelRequestSummary: (p: { id: string; reason: string }) =>
    `cancel or revoke the whole order of certificate ${p.id} (reason: ${p.reason})`,
  cancelPending: 'The order is not issued yet: it will be *cancelled*.',
  cancelWindowEnded: (p: { date: Markup }) =>
    `The 7-day window for revoking the whole order ended ${p.date}.`,
  cancelWindowOpen: (p: { ordered: Markup; ends: Markup }) =>
    `Ordered ${p.ordered}: the whole order can be revoked until ${p.ends}.`,
  cancelWindowUnknown:
    'Within 7 days of ordering this revokes the *whole order* (every certificate version); later the registrar refuses.',
  revokedOrderNotReissuable: ':warning: A revoked order cannot be reissued.',
  cancelAlready: (p: { status: string }) => `the order is already ${p.status}`,
  cancelPastWindow: 'the order is now past its 7-day window, so it can no longer be revoked as a whole',
  cancelledOutcome: (p: { id: string; status: string }) => `The order of ${p.id} is now ${p.status}`,

  // Ordering and reissuing through approval (request, preview, outcome, refusal)
  orderRequestSummary: (p: { sku: string; commonName: string; more: number }) =>
    `order a ${p.sku} certificate for ${p.commonName}${p.more > 0 ? ` and ${count(p.more, 'more name')}` : ''}`,
  orderPreviewProduct: (p: { product: string; names: string }) => `Product *${p.product}* for ${p.names}`,
  orderPreviewCsr: (p: { key: string; emails: string | undefined }) =>
    `CSR key: ${p.key}; validation by ${p.emails === undefined ? 'DNS (CNAME record)' : `e-mail to ${p.emails}`}`,
  orderPreviewOrganization: (p: { id: string }) => `TLS organization ${p.id}`,
  orderPreviewRenews: (p: { id: string }) => `Renews certificate ${p.id}`,
  orderPreviewValidity: (p: { days: number }) => `Validity: ${n(p.days)} days`,
  orderAlreadyPendingRefusal: (p: { commonName: string; id: string }) =>
    `an order for ${p.commonName} is already pending (${p.id}), so none was placed`,
  orderInProgressRefusal: (p: { commonName: string }) =>
    `an order for ${p.commonName} was being placed at that moment, so none was placed`,
  reissueRequestSummary: (p: { id: string; commonName: string }) =>
    `reissue certificate ${p.id} (${p.commonName}) with a new CSR`,
  reissuePreviewCsr: (p: { key: string }) => `New CSR key: ${p.key}; the names stay exactly as ordered.`,
  orderedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Certificate ${p.id} for ${p.commonName} ordered, now ${p.status}${p.pending ? `; its validation records: /tls show ${p.id}` : ''}`,
  reissuedOutcome: (p: { id: string; commonName: string; status: string; pending: boolean }) =>
    `Certificate ${p.id} for ${p.commonName} reissued, now ${p.status}${p.pending ? `; its validation records: /tls show ${p.id}` : ''}`,

  // A CSR's key, for approvers
  csrKey: (p: { type: string; fingerprint: string }) => `${p.type}, public key SHA-256 ${p.fingerprint}`,
  csrKeyRsa: (p: { bits: number }) => `RSA ${p.bits} bits`,
  csrKeyEc: (p: { curve: string }) => `EC ${p.curve}`,
  csrKeyEd25519: 'Ed25519',
  csrKeyUnknownType: 'unknown type',
  csrKeyUnreadable: 'unreadable',

  // Why a pasted CSR is refused, on the CSR field (reasons have no trailing period: they are embedded)
  csrNotPem: (p: { reason: string }) => `Paste a PEM CSR (-----BEGIN CERTIFICATE REQUEST-----): ${p.reason}.`,
  csrDoesNotFitOrder: (p: { problems: string }) => `The CSR does not fit the order: ${p.problems}.`,
  csrDoesNotFitCertificate: (p: { problems: string }) =>
    `The CSR does not fit this certificate: ${p.problems}.`,
  csrUnreadable: 'unreadable',
  csrNotARequest: 'not a PEM certificate signing request',
  csrCannotDecode: 'the CSR cannot be decoded',
  csrKeyCannotRead: "the CSR's public key cannot be read",
  csrNamesCannotDecode: "the CSR's names cannot be decoded",
  csrSignatureKeyMismatch: "the CSR's signature algorithm does not match its key",
  csrPssNoParameters: 'its RSASSA-PSS signature has no parameters',
  csrPssUnsupported:
    'its RSASSA-PSS parameters are not supported (use SHA-256/384/512 with MGF1 of the same hash)',
  csrSignatureUnsupported: (p: { oid: string }) =>
    `its signature algorithm (OID ${p.oid}) is not supported; sign it with SHA-256 or better using RSA, ECDSA or Ed25519`,
  csrSignatureInvalid: "the CSR's signature does not verify (was it edited after signing?)",
  csrCommonNameDiffers: (p: { actual: string; wanted: string }) =>
    `its common name is ${p.actual}, not ${p.wanted}`,
  csrExtraNames: (p: { names: string }) => `it names ${p.names}, which the order does not`,
  csrMissingNames: (p: { names: string }) => `it lacks ${p.names}`,
  csrRsaTooSmall: (p: { bits: number }) => `its RSA key has ${p.bits} bits; at least 2048 are needed`,
  csrRsaTooLarge: (p: { bits: number }) => `its RSA key has ${p.bits} bits; at most 8192 are accepted`,
  csrCurveRejected: (p: { curve: string }) => `its EC curve ${p.curve} is not accepted (P-256, P-384)`,
  csrEd25519Rejected:
    'Ed25519 keys are not accepted by public certificate authorities; use RSA 2048+ or EC P-256/P-384',
  csrKeyTypeRejected: 'its key type is not RSA or EC',
} satisfies TextArea;
