import type { Chrome } from './chrome.js';

/**
 * What Slack's own client tells a person, not Regdesk (an unknown command, a failed delivery, an
 * `/invite` that changes nothing), as a coded value: the server decides, the page words it in the
 * acting member's language (chrome.ts) when it shows the toast.
 */
export type Notice =
  | { kind: 'unknownCommand'; command: string }
  | { kind: 'messagesOff' }
  | { kind: 'mentionedOutside'; channel: string }
  | ({ kind: 'failed'; error: string } & FailedWhat)
  | { kind: 'elementGone' }
  | { kind: 'clockFixed' }
  | { kind: 'notInChannel'; channel: string }
  | { kind: 'membershipUsage'; command: string }
  | { kind: 'membershipInDm'; command: string }
  | { kind: 'unknownMember'; handle: string }
  | { kind: 'alreadyIn'; member: string; channel: string }
  | { kind: 'notIn'; member: string; channel: string };

/** The step that failed, and its name where Slack names it (a command, a shortcut). */
export interface FailedWhat {
  step: FailedStep;
  name?: string;
}

/** What the person did when Regdesk did not take it (Slack words it "… failed with the error …"). */
export type FailedStep =
  | 'command'
  | 'message'
  | 'mention'
  | 'action'
  | 'form'
  | 'formClosed'
  | 'homeTab'
  | 'messagesTab'
  | 'shortcut';

const en = {
  unknownCommand: (p: { command: string }) =>
    `${p.command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
  messagesOff: 'Sending messages to this app has been turned off.',
  mentionedOutside: (p: { channel: string }) =>
    `You mentioned @Regdesk, but they’re not in #${p.channel}. Add them with /invite @Regdesk.`,
  failed: (p: { what: string; error: string }) => `${p.what} failed with the error "${p.error}"`,
  steps: {
    command: (p: { name: string }) => p.name,
    message: () => 'Your message',
    mention: () => 'Your mention',
    action: () => 'That action',
    form: () => 'Submitting the form',
    formClosed: () => 'Closing the form',
    homeTab: () => 'Opening the Home tab',
    messagesTab: () => 'Opening the Messages tab',
    shortcut: (p: { name: string }) => p.name,
  },
  elementGone: 'This element is no longer there.',
  clockFixed: 'The registrar is not the built-in sandbox; its clock cannot be moved.',
  notInChannel: (p: { channel: string }) => `You are not in #${p.channel}.`,
  membershipUsage: (p: { command: string }) =>
    `Name whom to ${p.command === '/remove' ? 'remove' : 'invite'}: ${p.command} @Regdesk`,
  membershipInDm: (p: { command: string }) => `${p.command} works in channels, not in direct messages.`,
  unknownMember: (p: { handle: string }) => `There is no one called @${p.handle} in this workspace.`,
  alreadyIn: (p: { member: string; channel: string }) => `${p.member} is already in #${p.channel}.`,
  notIn: (p: { member: string; channel: string }) => `${p.member} is not in #${p.channel}.`,
};

const de: typeof en = {
  unknownCommand: (p) =>
    `${p.command} ist kein gültiger Befehl. In Slack werden alle Nachrichten, die mit „/“ beginnen, als Befehle gelesen.`,
  messagesOff: 'Nachrichten an diese App sind deaktiviert.',
  mentionedOutside: (p) =>
    `Sie haben @Regdesk erwähnt, aber Regdesk ist nicht in #${p.channel}. Fügen Sie die App mit /invite @Regdesk hinzu.`,
  failed: (p) => `${p.what} ist mit dem Fehler „${p.error}“ fehlgeschlagen.`,
  steps: {
    command: (p) => p.name,
    message: () => 'Ihre Nachricht',
    mention: () => 'Ihre Erwähnung',
    action: () => 'Diese Aktion',
    form: () => 'Das Absenden des Formulars',
    formClosed: () => 'Das Schließen des Formulars',
    homeTab: () => 'Das Öffnen der Startseite',
    messagesTab: () => 'Das Öffnen des Nachrichten-Tabs',
    shortcut: (p) => p.name,
  },
  elementGone: 'Dieses Element gibt es nicht mehr.',
  clockFixed: 'Der Registrar ist nicht die eingebaute Sandbox; seine Uhr lässt sich nicht vorstellen.',
  notInChannel: (p) => `Sie sind nicht in #${p.channel}.`,
  membershipUsage: (p) =>
    `Nennen Sie, wen Sie ${p.command === '/remove' ? 'entfernen' : 'einladen'} möchten: ${p.command} @Regdesk`,
  membershipInDm: (p) => `${p.command} funktioniert in Channels, nicht in Direktnachrichten.`,
  unknownMember: (p) => `In diesem Workspace heißt niemand @${p.handle}.`,
  alreadyIn: (p) => `${p.member} ist bereits in #${p.channel}.`,
  notIn: (p) => `${p.member} ist nicht in #${p.channel}.`,
};

/** The notice in the words of the page's language (`words.lang` of chrome.ts). */
export function noticeText(words: Chrome, notice: Notice): string {
  const n = words.lang === 'de' ? de : en;
  switch (notice.kind) {
    case 'unknownCommand':
      return n.unknownCommand({ command: notice.command });
    case 'messagesOff':
      return n.messagesOff;
    case 'mentionedOutside':
      return n.mentionedOutside({ channel: notice.channel });
    case 'failed':
      return n.failed({ what: n.steps[notice.step]({ name: notice.name ?? '' }), error: notice.error });
    case 'elementGone':
      return n.elementGone;
    case 'clockFixed':
      return n.clockFixed;
    case 'notInChannel':
      return n.notInChannel({ channel: notice.channel });
    case 'membershipUsage':
      return n.membershipUsage({ command: notice.command });
    case 'membershipInDm':
      return n.membershipInDm({ command: notice.command });
    case 'unknownMember':
      return n.unknownMember({ handle: notice.handle });
    case 'alreadyIn':
      return n.alreadyIn({ member: notice.member, channel: notice.channel });
    case 'notIn':
      return n.notIn({ member: notice.member, channel: notice.channel });
  }
}
