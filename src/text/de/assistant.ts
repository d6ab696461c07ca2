import type { assistant as en } from '../en/assistant.js';
import type { Markup } from '../escape.js';
import { count } from './grammar.js';

/** „1 Frage“, „3 Fragen“: nach der Anzahl gewählt. */
const questions = (value: number) => count(value, 'Frage', 'Fragen');

/** Was Regdesk rund um den Assistenten sagt (siehe ../index.ts). */
export const assistant = {
  // `/ask`: Aufruf und Hilfezeile des Routers, und die öffentliche Zeile, unter der eine Frage beantwortet wird
  askUsage: 'FRAGE',
  askSummary: (p: { max: number }) =>
    `Frage an den Assistenten des Registrars (bis zu ${p.max.toLocaleString('de-DE')} Zeichen); die Antwort kommt in einem Thread`,
  askedPublicly: (p: { user: string; question: string }) => `<@${p.user}> hat gefragt: ${p.question}`,

  // Fragen, die abgelehnt werden, bevor sie in die Warteschlange kommen (QuestionRefused)
  emptyQuestion:
    'Stellen Sie eine Frage, z. B. `/ask Wie aktiviere ich DNSSEC?`, oder schreiben Sie sie Regdesk im Tab „Nachrichten“ (als Direktnachricht).',
  questionTooLong: (p: { max: number }) =>
    `Fragen sind auf ${p.max.toLocaleString('de-DE')} Zeichen begrenzt; bitte kürzen Sie Ihre Frage.`,
  tooManyWaiting: (p: { max: number }) =>
    `Sie haben bereits ${p.max.toLocaleString('de-DE')} offene ${p.max === 1 ? 'Frage' : 'Fragen'} an den Assistenten des Registrars. Stellen Sie diese Frage erneut, sobald ${p.max === 1 ? 'sie' : 'eine davon'} beantwortet ist.`,

  // Die Nachrichten-Verknüpfung „Ask Regdesk about this“ (die deutsche Frage steht in shortcut.ts)
  shortcutQuestion: 'Was bedeutet diese Nachricht, und was sollte ich tun?',
  shortcutNoText:
    'Diese Nachricht enthält keinen Text, nach dem sich fragen ließe; stellen Sie Ihre Frage stattdessen mit `/ask`.',
  shortcutAskedPublicly: (p: { user: string }) => `<@${p.user}> hat Regdesk zu dieser Nachricht gefragt.`,
  shortcutAskedPrivately: (p: { channel: string; quote: Markup }) =>
    `Sie haben zu einer Nachricht in <#${p.channel}> gefragt, wo Regdesk nicht schreiben kann; die Antwort kommt hierher, in diesen Thread.\n${p.quote}`,

  // Vorgeschlagene Fragen im Tab „Nachrichten“ (die deutschen stehen in panel.ts)
  promptsTitle: 'Fragen Sie den Assistenten des Registrars, zum Beispiel:',
  promptRenewalsTitle: 'Verlängerung',
  promptRenewalsMessage: 'Wie funktioniert die automatische Verlängerung meiner Domains?',
  promptDnssecTitle: 'DNSSEC',
  promptDnssecMessage: 'Wie aktiviere ich DNSSEC für meine Domain?',
  promptCertificatesTitle: 'Zertifikate',
  promptCertificatesMessage: 'Wie funktioniert die Validierung eines Zertifikats?',
  promptTransfersTitle: 'Transfers',
  promptTransfersMessage: 'Wie funktioniert ein Domain-Transfer?',

  // Die Platzhalter-Antwort, während eine Frage wartet oder bearbeitet wird
  waitingAsking: ':hourglass_flowing_sand: Der Assistent des Registrars wird gefragt …',
  waitingQueued: (p: { ahead: number; wait: string | undefined }) =>
    `:hourglass_flowing_sand: In der Warteschlange: ${questions(p.ahead)} vor Ihrer. Der Assistent beantwortet eine Frage nach der anderen.${p.wait === undefined ? '' : ` Erwartete Wartezeit: ${p.wait}.`}`,
  retrying: (p: { reason: string }) =>
    `:hourglass_flowing_sand: Der Assistent antwortet gerade nicht (${p.reason}); Ihre Frage bleibt in der Warteschlange und wird in Kürze erneut gestellt.`,
  retryReasonRateLimit: 'Anfragelimit erreicht',
  retryReasonBusy: 'ausgelastet',
  answeredPrivately: (p: { user: string }) =>
    `:lock: Nur für <@${p.user}> beantwortet (Einstellung dieses Workspace für den Assistenten).`,

  // Der Status eines Assistenten-Threads, angezeigt nach dem Namen der App („Regdesk sucht die Antwort …“)
  statusWaitingForRegistrar: (p: { wait: string }) => `wartet auf den Registrar (${p.wait}) …`,
  statusInQueue: (p: { ahead: number; wait: string }) =>
    `wartet in der Warteschlange (${questions(p.ahead)} davor, ${p.wait})`,
  statusWorking: 'sucht die Antwort …',
  statusRetrying: 'wartet, der Assistent ist ausgelastet …',

  // Wie lange das Warten voraussichtlich dauert: bewusst grob
  waitFewSeconds: 'wenige Sekunden',
  waitSeconds: (p: { seconds: number }) => `etwa ${p.seconds.toLocaleString('de-DE')} s`,
  waitMinutes: (p: { minutes: number }) => `etwa ${p.minutes.toLocaleString('de-DE')} min`,

  // Das Ergebnis im Thread der Frage
  threadAnswerLead: (p: { user: string }) => `<@${p.user}>, hier ist die Antwort auf Ihre Frage:`,
  threadNoAnswer: (p: { user: string; reason: string }) => `<@${p.user}> :x: Keine Antwort: ${p.reason}`,

  // Das Ergebnis nur für die fragende Person: nach der Richtlinie des Workspace, oder weil der Thread fehlt
  privateAnswerLead: (p: { question: string }) => `Ihre Frage „${p.question}“, nur für Sie beantwortet:`,
  privateAnswerLeadThreadGone: (p: { question: string }) =>
    `Ihre Frage „${p.question}“ ließ sich nicht in ihrem Thread beantworten, daher kommt die Antwort hier:`,
  privateNoAnswer: (p: { question: string; reason: string }) => `:x: Ihre Frage „${p.question}“: ${p.reason}`,
  privateNoAnswerThreadGone: (p: { question: string; reason: string }) =>
    `:x: Ihre Frage „${p.question}“ ließ sich nicht in ihrem Thread beantworten: ${p.reason}`,

  // Rund um die Antwort selbst
  emptyAnswer: '_Der Assistent hat eine leere Antwort gegeben._',
  answerCut: 'Die Antwort war länger als eine Slack-Nachricht; der Rest ist weggelassen.',
  sources: (p: { list: Markup }) => `Quellen: ${p.list}`,
  answerShortened: ':scissors: Der Registrar hat diese Antwort gekürzt.',
  imageLabel: 'Bild',
  cacheNotice: (p: { minutes: number }) =>
    `:recycle: Aus dem Antwort-Cache: Dieselbe Frage wurde ${p.minutes < 1 ? 'vor weniger als einer Minute' : `vor ${p.minutes.toLocaleString('de-DE')} ${p.minutes === 1 ? 'Minute' : 'Minuten'}`} beantwortet, daher hat diese Antwort keinen Aufruf beim Registrar gekostet.`,

  // Warum eine Frage keine Antwort bekam (der Grund nach „Keine Antwort:“)
  reasonNotAvailable: 'Der Assistent ist für den API-Schlüssel dieses Workspace nicht verfügbar.',
  reasonRejected:
    'Der Assistent konnte diese Frage nicht annehmen; versuchen Sie, sie anders zu formulieren.',
  reasonStayedBusy: (p: { attempts: number }) =>
    `Der Assistent war auch nach ${p.attempts === 1 ? 'einem Versuch' : `${p.attempts.toLocaleString('de-DE')} Versuchen`} noch ausgelastet; bitte fragen Sie später noch einmal.`,
  reasonInternal: 'Bei Regdesk ist etwas schiefgegangen; bitte fragen Sie noch einmal.',
  reasonLost: 'Regdesk hat diese Frage während der Bearbeitung verloren; bitte fragen Sie noch einmal.',
} satisfies typeof en;
