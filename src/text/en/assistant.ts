import type { Markup } from '../escape.js';
import type { TextArea } from './area.js';

/** What Regdesk says about assistant (see ../index.ts). */
export const assistant = {
  // `/ask`: the router's usage and help line, and the public line a question is answered under
  askUsage: 'QUESTION',
  askSummary: (p: { max: number }) =>
    `ask the registrar's assistant (up to ${p.max} characters); the answer arrives in a thread`,
  askedPublicly: (p: { user: string; question: string }) => `<@${p.user}> asked: ${p.question}`,

  // Questions refused before they are queued (QuestionRefused)
  emptyQuestion:
    'Ask a question, e.g. `/ask How do I enable DNSSEC?`, or write it to Regdesk in its Messages tab (a DM).',
  questionTooLong: (p: { max: number }) => `Questions are limited to ${p.max} characters; please shorten it.`,
  tooManyWaiting: (p: { max: number }) =>
    `You already have ${p.max} questions waiting for the registrar’s assistant. Ask this one again once one of them is answered.`,

  // The message shortcut "Ask Regdesk about this" (the German question stays in shortcut.ts)
  shortcutQuestion: 'What does this message mean, and what should I do about it?',
  shortcutNoText: 'That message has no text to ask about; try `/ask` with your question instead.',
  shortcutAskedPublicly: (p: { user: string }) => `<@${p.user}> asked Regdesk about this message.`,
  shortcutAskedPrivately: (p: { channel: string; quote: Markup }) =>
    `You asked about a message in <#${p.channel}>, where Regdesk cannot post; the answer comes here, in this thread.\n${p.quote}`,

  // Suggested prompts of the Messages tab (the German ones stay in panel.ts)
  promptsTitle: 'Ask the registrar’s assistant, for example:',
  promptRenewalsTitle: 'Renewals',
  promptRenewalsMessage: 'How does auto-renew work for my domains?',
  promptDnssecTitle: 'DNSSEC',
  promptDnssecMessage: 'How do I enable DNSSEC for my domain?',
  promptCertificatesTitle: 'Certificates',
  promptCertificatesMessage: 'How does certificate validation work?',
  promptTransfersTitle: 'Transfers',
  promptTransfersMessage: 'How does a domain transfer work?',

  // The placeholder reply while a question waits or runs
  waitingAsking: ':hourglass_flowing_sand: Asking the registrar’s assistant…',
  waitingQueued: (p: { ahead: number; wait: string | undefined }) =>
    `:hourglass_flowing_sand: Queued: ${p.ahead} question${p.ahead === 1 ? '' : 's'} ahead. The assistant answers one at a time.${p.wait === undefined ? '' : ` Answer expected in ${p.wait}.`}`,
  retrying: (p: { reason: string }) =>
    `:hourglass_flowing_sand: The assistant is busy (${p.reason}); your question stays queued and is retried shortly.`,
  retryReasonRateLimit: 'rate limit',
  retryReasonBusy: 'busy',
  answeredPrivately: (p: { user: string }) =>
    `:lock: Answered privately to <@${p.user}> (this workspace’s setting for the assistant).`,

  // An assistant thread's status, shown after the app's name ("Regdesk is looking it up…")
  statusWaitingForRegistrar: (p: { wait: string }) => `is waiting for the registrar, ${p.wait}…`,
  statusInQueue: (p: { ahead: number; wait: string }) => `is in queue, ${p.ahead} ahead, ${p.wait}`,
  statusWorking: 'is looking it up…',
  statusRetrying: 'is waiting: the assistant is busy…',

  // How long the wait is expected to be: coarse on purpose
  waitFewSeconds: 'a few seconds',
  waitSeconds: (p: { seconds: number }) => `about ${p.seconds} s`,
  waitMinutes: (p: { minutes: number }) => `about ${p.minutes} min`,

  // The outcome in the question's thread
  threadAnswerLead: (p: { user: string }) => `<@${p.user}> here is the answer to your question:`,
  threadNoAnswer: (p: { user: string; reason: string }) => `<@${p.user}> :x: No answer: ${p.reason}`,

  // The outcome for the asker alone: by the workspace's policy, or because the thread is gone
  privateAnswerLead: (p: { question: string }) => `Your question “${p.question}”, answered only to you:`,
  privateAnswerLeadThreadGone: (p: { question: string }) =>
    `Your question “${p.question}” could not be answered in its thread, so here is the answer:`,
  privateNoAnswer: (p: { question: string; reason: string }) =>
    `:x: Your question “${p.question}”: ${p.reason}`,
  privateNoAnswerThreadGone: (p: { question: string; reason: string }) =>
    `:x: Your question “${p.question}” could not be answered in its thread: ${p.reason}`,

  // Around the answer itself
  emptyAnswer: '_The assistant gave an empty answer._',
  answerCut: 'The answer was longer than one Slack message; the rest is left out.',
  sources: (p: { list: Markup }) => `Sources: ${p.list}`,
  answerShortened: ':scissors: The registrar shortened this answer.',
  imageLabel: 'image',
  cacheNotice: (p: { minutes: number }) =>
    `:recycle: From the answer cache: the same question was answered ${p.minutes < 1 ? 'less than a minute ago' : `${p.minutes} minute${p.minutes === 1 ? '' : 's'} ago`}, so this one cost no registrar call.`,

  // Why a question got no answer (the reason after "No answer:")
  reasonNotAvailable: "the assistant is not available for this workspace's key.",
  reasonRejected: 'the assistant could not take this question; try rephrasing it.',
  reasonStayedBusy: (p: { attempts: number }) =>
    `the assistant stayed busy after ${p.attempts} tries; please ask again later.`,
  reasonInternal: "something went wrong on Regdesk's side; please ask again.",
  reasonLost: 'Regdesk lost this question while working on it; please ask again.',
} satisfies TextArea;
