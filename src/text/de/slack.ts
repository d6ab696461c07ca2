import type { slack as en } from '../en/slack.js';
import type { Markup } from '../escape.js';

/** ` Der Registrar meldet: „…“.` nach dem eigenen Satz eines Registrar-Fehlers, wenn der Registrar etwas gesagt hat. */
const registrarSays = (upstream: string): string =>
  upstream === '' ? '' : ` Der Registrar meldet: „${upstream}“.`;

/** Was die Slack-Schicht und gemeinsame Fehler sagen: Aufruf, Ablehnungen, Plattformfehler, Nichterreichbarkeit (siehe ../index.ts). */
export const slack = {
  /** In einem Satz genannte Personen oder Dinge: `A, B und C` (Intl.ListFormat). */
  list: (p: { items: readonly (string | Markup)[] }) =>
    new Intl.ListFormat('de', { style: 'long', type: 'conjunction' }).format(p.items.map(String)),
  /** Ein sofort geöffnetes Fenster (eine trigger_id gilt 3 s), gefüllt, sobald der Registrar geantwortet hat. */
  loading: ':hourglass_flowing_sand: Wird geladen …',
  // Die Hilfe des Befehls-Routers: `/domain help`, ein unbekannter Unterbefehl, ein Befehl ohne sein Argument
  helpIntro: (p: { command: string }) => `*${p.command}* – das können Sie tun:`,
  unknownSubcommand: (p: { typed: string; suggestion: string | undefined }) =>
    `\`${p.typed}\` kenne ich nicht.${p.suggestion === undefined ? '' : ` Meinten Sie \`${p.suggestion}\`?`}`,
  nothingUnderCommand: (p: { command: string }) => `Unter ${p.command} ist noch nichts verfügbar.`,
  usageLine: (p: { command: string; usage: string; summary: string }) =>
    `\`${p.command} ${p.usage}\` – ${p.summary}`,
  helpSummary: 'diese Liste',
  helpOthers: (p: { command: string }) =>
    `Mehr: ${[
      ['/domain', '`/domain help` Domains, Überwachungen, Freigaben und die Richtlinie'],
      ['/dns', '`/dns help` DNS-Einträge, DNSSEC und `/dns check`'],
      ['/tls', '`/tls help` TLS-Zertifikate'],
      ['/ask', '`/ask FRAGE` der Assistent des Registrars'],
    ]
      .filter(([command]) => command !== p.command)
      .map(([, line]) => line)
      .join(' · ')}`,
  usage: (p: { usage: string }) => `Aufruf: ${p.usage}`,

  // Fehler, wie die Fehlerantwort sie mitteilt (slack/error-reply.ts)
  warning: (p: { message: Markup }) => `:warning: ${p.message}`,
  unexpectedError: (p: { nothingChanged: boolean; reference: string }) =>
    `:x: Bei Regdesk ist etwas schiefgegangen.${p.nothingChanged ? ' Es wurde nichts geändert.' : ''} ` +
    `Wenn das wiederholt passiert, nennen Sie den Verantwortlichen für Regdesk diese Referenz: \`${p.reference}\`.`,
  errorModalTitle: 'Regdesk',

  // Ablehnungen: Die Person darf das nicht, oder sie gehört nicht zu diesem Workspace
  refused: (p: { reason: string }) => `:lock: ${p.reason}`,
  outsiderRefusal: ':lock: Regdesk handelt nur für Mitglieder des Workspace, in dem es installiert ist.',

  // Fehler der Slack-Plattform und was jeweils zu tun ist (slack/platform-errors.ts)
  notInChannel:
    'Regdesk ist nicht in diesem Channel: Laden Sie es mit `/invite @Regdesk` ein oder legen Sie in `/domain policy` einen Freigabe-Channel fest.',
  channelNotFound:
    'Regdesk kann in dieser Unterhaltung nicht posten (ein privater Channel oder eine Direktnachricht ohne Regdesk): Laden Sie es mit `/invite @Regdesk` ein oder legen Sie in `/domain policy` einen Freigabe-Channel fest.',
  channelArchived:
    'Dieser Channel ist archiviert, daher kann Regdesk dort nicht posten; nutzen Sie einen anderen Channel.',
  messageDeleted: 'Die zugehörige Nachricht wurde gelöscht.',
  triggerExpired: 'Slack öffnet ein Fenster nur innerhalb von 3 Sekunden; führen Sie den Befehl erneut aus.',
  userNotInChannel: 'Sie sind nicht Mitglied dieses Channels.',
  slackRateLimited:
    'Slack begrenzt gerade, wie schnell Regdesk posten darf; versuchen Sie es in einer Minute erneut.',
  cannotPostHere: 'Regdesk kann hier nicht posten.',

  // Im Channel geteilte Abfragekarten (slack/share.ts)
  shareButton: 'Im Channel teilen',
  cardExpired: 'Diese Karte ist abgelaufen; führen Sie den Befehl erneut aus.',
  sharedBy: (p: { user: string }) => `Geteilt von <@${p.user}>`,

  // Gemeinsame Schaltflächen und Teile von Formularen
  watchButton: 'Überwachen',
  cancelButton: 'Abbrechen',
  closeButton: 'Schließen',
  badViewMetadata:
    'Dieses Fenster stammt von einer älteren Version von Regdesk oder wurde verändert; öffnen Sie es erneut.',

  // Der eigene Datenspeicher von Regdesk (shared/redis.ts, shared/durable-claim.ts)
  redisUnavailable:
    'Regdesk ist vorübergehend nicht verfügbar (sein Datenspeicher antwortet nicht). Bitte versuchen Sie es in einer Minute erneut.',
  claimNotDurable:
    'Regdesk konnte nicht sicherstellen, dass diese Freigabe nur einmal ausgeführt wird (der Datenspeicher hat das Schreiben nicht bestätigt und die lokale Claim-Datei ließ sich nicht schreiben), daher wurde nichts ausgeführt. Fragen Sie erneut an, sobald die Verantwortlichen für den Betrieb Redis und REGDESK_DATA_DIR geprüft haben.',

  // Fehler des Registrars nach Status (registrar/errors.ts); `upstream` ist, was der Registrar gesagt hat, oder ''
  registrarBadRequest: (p: { upstream: string }) =>
    `Der Registrar hat den Aufruf als ungültig abgewiesen.${registrarSays(p.upstream)}`,
  registrarUnauthorized:
    'Der Registrar hat den API-Schlüssel dieses Workspace abgelehnt. Ein Admin des Workspace kann ihn mit `/domain key` ersetzen.',
  registrarAssistantUnavailable: 'Der Assistent ist mit dem Schlüssel dieses Workspace nicht verfügbar.',
  registrarGuardBlocked: (p: { upstream: string }) =>
    `Der Domain-Guard hat diese Aktion blockiert. Sie muss zuerst im Dashboard des Registrars erlaubt werden.${registrarSays(p.upstream)}`,
  registrarNotFound: (p: { upstream: string }) =>
    `In diesem Konto beim Registrar nicht gefunden.${registrarSays(p.upstream)}`,
  registrarConflict: (p: { upstream: string }) =>
    `Der aktuelle Zustand lässt das nicht zu.${registrarSays(p.upstream)}`,
  registrarRecordSetInvalid: (p: { upstream: string }) =>
    `Der Registrar hat die Eintragsgruppe für die Registry oder den Anbieter dieser Domain abgelehnt.${registrarSays(p.upstream)}`,
  registrarDuplicateRecord: (p: { upstream: string }) =>
    `Diesen DNS-Eintrag gibt es bereits; es wurde nichts hinzugefügt.${registrarSays(p.upstream)}`,
  registrarDnsWriteDenied:
    'Es wurde nichts geändert: Der Schlüssel dieses Workspace darf keine DNS-Einträge ändern. Ein Admin des Workspace kann dem Schlüssel beim Registrar die Rolle DNS-Administrator geben oder ihn mit `/domain key` ersetzen.',
  registrarNotOffered: 'Das bietet dieser Registrar nicht an; es wurde nichts geändert.',
  registrarRateLimited: (p: { seconds: number | undefined }) =>
    `Das Limit des Registrars dafür ist erreicht; versuchen Sie es ${p.seconds === undefined ? 'später' : `in ${p.seconds.toLocaleString('de-DE')} s`} erneut.`,
  registrarInternal:
    'Beim Registrar ist ein unerwarteter Fehler aufgetreten. Versuchen Sie es in ein paar Minuten erneut.',
  registrarAvailabilityUnknown:
    'Die Verfügbarkeit ließ sich gerade nicht ermitteln; versuchen Sie es erneut.',
  registrarUpstreamFailed: (p: { upstream: string }) =>
    `Bei der Registry oder beim Zertifikatsanbieter ist ein Fehler aufgetreten.${registrarSays(p.upstream)} Versuchen Sie es später erneut.`,
  registrarAssistantBusy: 'Der Assistent ist ausgelastet; Ihre Frage wird erneut gestellt.',
  registrarUnexpectedStatus: (p: { status: number }) =>
    `Der Registrar hat mit einem unerwarteten Status geantwortet (${p.status}).`,
  registrarTimeout: 'Der Registrar hat nicht rechtzeitig geantwortet. Versuchen Sie es gleich noch einmal.',
  registrarUnreachable: 'Der Registrar ist nicht erreichbar. Versuchen Sie es gleich noch einmal.',
  registrarMalformed:
    'Der Registrar hat eine Antwort gesendet, die Regdesk nicht lesen kann; daraus wird nichts angezeigt.',
} satisfies typeof en;
