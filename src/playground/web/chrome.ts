/**
 * The page's own words (Slack's UI around Regdesk's messages: labels, buttons, empty states; and the
 * registrar panel) in the acting member's Slack language, as Slack shows its UI. A small catalog of
 * its own: this code runs in the browser, compiled apart from src/text, and src/text holds Regdesk's
 * sentences, not Slack's. English is the source; German is an object of the same type, so a missing
 * key or a parameter of another shape does not compile.
 */

/** Month, weekday and numbers of a date in the reader's zone, for the date formats below. */
export interface DateParts {
  year: string;
  monthLong: string;
  monthShort: string;
  day: number;
  weekday: string;
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

const en = {
  /** `<html lang>`, and the language Slack's date tokens name months and weekdays in. */
  lang: 'en',
  // Sidebar
  workspace: 'Workspace',
  playground: 'Regdesk playground',
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  actingAs: 'Acting as',
  role: { owner: 'owner', admin: 'admin', member: 'member' },
  channelsAndMessages: 'Channels and messages',
  apps: 'Apps',
  home: 'Home',
  withoutRegdesk: '(no Regdesk)',
  // Conversation, thread and composer
  messages: 'Messages',
  messageTo: (p: { title: string }) => `Message ${p.title} (/ for commands)`,
  message: 'Message',
  send: 'Send',
  thread: 'Thread',
  closeThread: 'Close thread',
  replyInThread: 'Reply in thread',
  replies: (p: { count: number }) => `${p.count} ${p.count === 1 ? 'reply' : 'replies'}`,
  noMessages: 'No messages yet. Type a slash command below, e.g. /domain check example.com',
  emptyThread: 'The thread is empty.',
  noHome: (p: { bot: string }) => `${p.bot} has not published a Home tab for you yet.`,
  usageHint: (p: { command: string; usage: string; description: string }) =>
    `${p.command} ${p.usage} — ${p.description}`,
  // Messages
  someone: 'someone',
  app: 'APP',
  edited: '(edited)',
  onlyVisibleToYou: 'Only visible to you',
  moreActions: 'More actions',
  addReaction: 'Add reaction',
  reactedBy: (p: { reaction: string; people: string }) => `:${p.reaction}: by ${p.people}`,
  // Modals and confirm dialogs
  close: 'Close',
  cancel: 'Cancel',
  submit: 'Submit',
  viewsOpen: (p: { count: number }) => `${p.count} views open`,
  confirm: 'Confirm',
  areYouSure: 'Are you sure?',
  yes: 'Yes',
  // Block Kit elements the page draws itself
  selectAnOption: 'Select an option',
  optional: '(optional)',
  image: (p: { alt: string }) => `[image: ${p.alt}]`,
  unsupportedBlock: (p: { type: string }) => `[unsupported block: ${p.type}]`,
  unsupportedElement: (p: { type: string }) => `[unsupported element: ${p.type}]`,
  unsupportedRichText: (p: { type: string }) => `[unsupported rich text: ${p.type}]`,
  linkNotFollowed: 'Link not followed',
  // Slack's date tokens (`<!date^…^{date_pretty}|…>`)
  today: 'Today',
  yesterday: 'Yesterday',
  tomorrow: 'Tomorrow',
  date: (p: DateParts) => `${p.monthLong} ${ordinal(p.day)}, ${p.year}`,
  dateShort: (p: DateParts) => `${p.monthShort} ${p.day}, ${p.year}`,
  // Notices when a call fails without the playground saying why
  notSent: 'The message was not sent.',
  actionFailed: 'The action failed.',
  shortcutFailed: 'The shortcut failed.',
  promptNotSent: 'The prompt could not be sent.',
  reactionFailed: 'Could not add the reaction.',
  viewNotClosed: 'Could not close the view.',
  formNotAccepted: 'The form was not accepted.',
  requiredField: 'Please complete this required field.',
  languageNotChanged: 'The language was not changed.',
  homeNotOpened: 'Regdesk did not answer app_home_opened.',
  clockNotMoved: 'The clock did not move.',
  dismiss: 'Dismiss',
  // Talking to the playground server (api.ts)
  needsToken: 'This playground needs the address Regdesk printed at start-up (…/playground?token=…).',
  workspaceNotLoaded: (p: { status: number }) => `Could not load the workspace (HTTP ${p.status}).`,
  playgroundAnswered: (p: { status: number }) => `The playground answered HTTP ${p.status}.`,
  playgroundSilent: (p: { reason: string }) => `The playground did not answer (${p.reason}).`,
  // Registrar panel
  registrar: 'Registrar',
  registrarSandbox: 'Registrar sandbox',
  fastForward: 'Fast-forward the clock',
  steps: { hour: '+1 h', day: '+1 day', week: '+7 days' },
  clock: (p: { offset: string }) => `Clock: ${p.offset}`,
  realTime: 'real time',
  ahead: (p: { offset: string }) => `${p.offset} ahead`,
  requestsMade: 'Requests Regdesk made',
  columns: { method: 'Method', path: 'Path', status: 'Status', limit: 'Limit' },
  noRequests: 'No requests yet',
  seededAccount: 'Seeded account',
  domains: (p: { count: number }) => `Domains (${p.count})`,
  certificates: (p: { count: number }) => `Certificates (${p.count})`,
  organizations: (p: { count: number }) => `Organizations (${p.count})`,
  expires: (p: { date: string }) => `expires ${p.date}`,
  /**
   * Regdesk's commands in the completion list and usage hint, where the manifest's English (its one
   * language) would not be the member's: description and usage hint by command, else the manifest's.
   */
  commandWords: {} as Readonly<Record<string, { description: string; usageHint?: string }>>,
  /** Slack's own commands the playground runs, in the composer's completion list. */
  builtInCommands: [
    { command: '/invite', description: 'Add someone to this channel', usageHint: '@someone' },
    { command: '/remove', description: 'Remove someone from this channel', usageHint: '@someone' },
  ],
  // The order modal's demo CSR (demo-csr.ts)
  demoCsr: 'Fill in a demo CSR',
  demoCsrNeedsName: 'Type the common name first: the demo CSR is made for the names in the form.',
  demoCsrFailed: 'No demo CSR could be made.',
  /** Below 1,100 px the panel folds away behind this button. */
  showRegistrar: 'Registrar',
  units: { day: 'd', hour: 'h', minute: 'min', underAMinute: '< 1 min' },
  /** The simulator's certificate and DNSSEC states, as the panel shows them; unknown ones stay as sent. */
  states: {} as Readonly<Record<string, string>>,
  // Slack's own messages about a channel's members (`channel_join`, `channel_leave`)
  joined: (p: { member: string; channel: string; by?: string }) =>
    `${p.member} joined #${p.channel}${p.by === undefined ? '' : `, added by ${p.by}`}.`,
  left: (p: { member: string; channel: string }) => `${p.member} left #${p.channel}.`,
};

export type Chrome = typeof en;

const de = {
  lang: 'de',
  workspace: 'Workspace',
  playground: 'Regdesk-Playground',
  connecting: 'Verbinde …',
  live: 'Live',
  reconnecting: 'Verbindung wird wiederhergestellt …',
  actingAs: 'Angemeldet als',
  role: { owner: 'Inhaber', admin: 'Admin', member: 'Mitglied' },
  channelsAndMessages: 'Channels und Nachrichten',
  apps: 'Apps',
  home: 'Startseite',
  withoutRegdesk: '(ohne Regdesk)',
  messages: 'Nachrichten',
  messageTo: (p: { title: string }) => `Nachricht an ${p.title} (/ für Befehle)`,
  message: 'Nachricht',
  send: 'Senden',
  thread: 'Thread',
  closeThread: 'Thread schließen',
  replyInThread: 'Antworten im Thread',
  replies: (p: { count: number }) => `${p.count} ${p.count === 1 ? 'Antwort' : 'Antworten'}`,
  noMessages:
    'Noch keine Nachrichten. Geben Sie unten einen Slash-Befehl ein, z. B. /domain check example.com',
  emptyThread: 'Der Thread ist leer.',
  noHome: (p: { bot: string }) => `${p.bot} hat noch keine App-Startseite für Sie veröffentlicht.`,
  usageHint: (p: { command: string; usage: string; description: string }) =>
    `${p.command} ${p.usage} – ${p.description}`,
  someone: 'jemand',
  app: 'APP',
  edited: '(bearbeitet)',
  onlyVisibleToYou: 'Nur für Sie sichtbar',
  moreActions: 'Weitere Aktionen',
  addReaction: 'Reaktion hinzufügen',
  reactedBy: (p: { reaction: string; people: string }) => `:${p.reaction}: von ${p.people}`,
  close: 'Schließen',
  cancel: 'Abbrechen',
  submit: 'Absenden',
  viewsOpen: (p: { count: number }) => `${p.count} Fenster offen`,
  confirm: 'Bestätigen',
  areYouSure: 'Sind Sie sicher?',
  yes: 'Ja',
  selectAnOption: 'Option auswählen',
  optional: '(optional)',
  image: (p: { alt: string }) => `[Bild: ${p.alt}]`,
  unsupportedBlock: (p: { type: string }) => `[Block nicht unterstützt: ${p.type}]`,
  unsupportedElement: (p: { type: string }) => `[Element nicht unterstützt: ${p.type}]`,
  unsupportedRichText: (p: { type: string }) => `[Rich Text nicht unterstützt: ${p.type}]`,
  linkNotFollowed: 'Link nicht geöffnet',
  today: 'Heute',
  yesterday: 'Gestern',
  tomorrow: 'Morgen',
  date: (p: DateParts) => `${p.day}. ${p.monthLong} ${p.year}`,
  dateShort: (p: DateParts) => `${p.day}. ${p.monthShort} ${p.year}`,
  notSent: 'Die Nachricht wurde nicht gesendet.',
  actionFailed: 'Die Aktion ist fehlgeschlagen.',
  shortcutFailed: 'Der Shortcut ist fehlgeschlagen.',
  promptNotSent: 'Der Vorschlag konnte nicht gesendet werden.',
  reactionFailed: 'Die Reaktion konnte nicht hinzugefügt werden.',
  viewNotClosed: 'Das Fenster konnte nicht geschlossen werden.',
  formNotAccepted: 'Das Formular wurde nicht angenommen.',
  requiredField: 'Bitte füllen Sie dieses Pflichtfeld aus.',
  languageNotChanged: 'Die Sprache wurde nicht geändert.',
  homeNotOpened: 'Regdesk hat auf app_home_opened nicht geantwortet.',
  clockNotMoved: 'Die Uhr wurde nicht vorgestellt.',
  dismiss: 'Ausblenden',
  needsToken:
    'Dieser Playground braucht die Adresse, die Regdesk beim Start ausgegeben hat (…/playground?token=…).',
  workspaceNotLoaded: (p: { status: number }) =>
    `Der Workspace konnte nicht geladen werden (HTTP ${p.status}).`,
  playgroundAnswered: (p: { status: number }) => `Der Playground hat mit HTTP ${p.status} geantwortet.`,
  playgroundSilent: (p: { reason: string }) => `Der Playground hat nicht geantwortet (${p.reason}).`,
  registrar: 'Registrar',
  registrarSandbox: 'Registrar-Sandbox',
  fastForward: 'Uhr vorstellen',
  steps: { hour: '+1 h', day: '+1 Tag', week: '+7 Tage' },
  clock: (p: { offset: string }) => `Uhr: ${p.offset}`,
  realTime: 'Echtzeit',
  ahead: (p: { offset: string }) => `${p.offset} voraus`,
  requestsMade: 'Anfragen von Regdesk',
  columns: { method: 'Methode', path: 'Pfad', status: 'Status', limit: 'Limit' },
  noRequests: 'Noch keine Anfragen',
  seededAccount: 'Vorbefülltes Konto',
  domains: (p: { count: number }) => `Domains (${p.count})`,
  certificates: (p: { count: number }) => `Zertifikate (${p.count})`,
  organizations: (p: { count: number }) => `Organisationen (${p.count})`,
  expires: (p: { date: string }) => `läuft ab ${p.date}`,
  commandWords: {
    '/domain': {
      description:
        'Verfügbarkeit, Details, Delegation und AuthInfo-Codes von Domains; API-Schlüssel, Richtlinie, Audit-Protokoll und Überwachungen',
    },
    '/dns': { description: 'DNS-Zonen, DNS-Einträge, DNSSEC und Live-Prüfungen' },
    '/tls': { description: 'TLS-Zertifikate, Organisationen und Überwachungen' },
    '/ask': {
      description: 'Den Assistenten des Registrars fragen; die Antwort kommt in einem Thread',
      usageHint: 'Wie aktiviere ich DNSSEC für meine Domain?',
    },
  },
  builtInCommands: [
    { command: '/invite', description: 'Jemanden zu diesem Channel hinzufügen', usageHint: '@jemand' },
    { command: '/remove', description: 'Jemanden aus diesem Channel entfernen', usageHint: '@jemand' },
  ],
  demoCsr: 'Demo-CSR einfügen',
  demoCsrNeedsName:
    'Geben Sie zuerst den Common Name ein: Die Demo-CSR wird für die Namen im Formular erstellt.',
  demoCsrFailed: 'Es konnte keine Demo-CSR erstellt werden.',
  showRegistrar: 'Registrar',
  units: { day: 'T', hour: 'Std.', minute: 'Min.', underAMinute: '< 1 Min.' },
  states: {
    issued: 'ausgestellt',
    pending: 'ausstehend',
    ready: 'bereit',
    action_required: 'Aktion erforderlich',
    revoked: 'widerrufen',
    'certificate-revoked': 'Zertifikat widerrufen',
    cancelled: 'storniert',
    expired: 'abgelaufen',
    rejected: 'abgelehnt',
    failed: 'fehlgeschlagen',
    enabled: 'aktiviert',
    disabled: 'deaktiviert',
    active: 'aktiv',
    inactive: 'inaktiv',
  },
  joined: (p: { member: string; channel: string; by?: string }) =>
    `${p.member} ist #${p.channel} beigetreten${p.by === undefined ? '' : `, hinzugefügt von ${p.by}`}.`,
  left: (p: { member: string; channel: string }) => `${p.member} hat #${p.channel} verlassen.`,
} satisfies Chrome;

/** The language of a member without a Slack locale, and of the page before the first snapshot names anyone. */
export const DEFAULT_LOCALE = 'en-US';

/** The page's words for a Slack locale: German for `de`, `de-DE`, `de_AT`…, else English (as Regdesk decides). */
export function chromeFor(locale: string): Chrome {
  return /^de(?:[-_]|$)/i.test(locale) ? de : en;
}
