import type { Chrome } from './chrome.js';
import type {
  PlaygroundChannel,
  PlaygroundEvent,
  PlaygroundMessage,
  PlaygroundSnapshot,
  PlaygroundUser,
  SlashCommandInfo,
} from './protocol.js';

/** The page's copy of the workspace: the snapshot, kept current by the server's events. */
export function applyEvent(snapshot: PlaygroundSnapshot, event: PlaygroundEvent): PlaygroundSnapshot {
  switch (event.type) {
    case 'message':
    case 'message_changed': {
      const { message } = event;
      const others = snapshot.messages.filter((m) => !(m.channel === message.channel && m.ts === message.ts));
      return { ...snapshot, messages: [...others, message].sort(byTs) };
    }
    case 'message_deleted':
      return {
        ...snapshot,
        messages: snapshot.messages.filter((m) => !(m.channel === event.channel && m.ts === event.ts)),
      };
    case 'views':
      return { ...snapshot, views: { ...snapshot.views, [event.user]: event.stack } };
    case 'home':
      return { ...snapshot, homes: { ...snapshot.homes, [event.user]: event.view } };
    case 'channel': {
      const others = snapshot.channels.filter((c) => c.id !== event.channel.id);
      const index = snapshot.channels.findIndex((c) => c.id === event.channel.id);
      const channels =
        index === -1
          ? [...others, event.channel]
          : snapshot.channels.map((c) => (c.id === event.channel.id ? event.channel : c));
      return { ...snapshot, channels };
    }
    case 'registrar':
      return { ...snapshot, registrar: event.registrar };
    case 'prompts':
      return {
        ...snapshot,
        suggestedPrompts: { ...snapshot.suggestedPrompts, [event.channel]: event.prompts },
      };
    case 'thread_status':
      return {
        ...snapshot,
        threadStatuses: { ...snapshot.threadStatuses, [`${event.channel}:${event.threadTs}`]: event.status },
      };
    case 'user':
      return { ...snapshot, users: snapshot.users.map((u) => (u.id === event.user.id ? event.user : u)) };
  }
}

function byTs(a: PlaygroundMessage, b: PlaygroundMessage): number {
  return Number(a.ts) - Number(b.ts);
}

/** Ephemerals are shown only to the person they were sent to. */
export function visibleTo(message: PlaygroundMessage, user: string): boolean {
  return message.ephemeralTo === undefined || message.ephemeralTo === user;
}

/** The channel's main timeline: top-level messages and thread parents. */
export function timeline(snapshot: PlaygroundSnapshot, channel: string, user: string): PlaygroundMessage[] {
  return snapshot.messages.filter(
    (m) => m.channel === channel && visibleTo(m, user) && (m.threadTs === undefined || m.threadTs === m.ts),
  );
}

/** A thread: the parent first, then its replies in order. */
export function threadOf(
  snapshot: PlaygroundSnapshot,
  channel: string,
  threadTs: string,
  user: string,
): PlaygroundMessage[] {
  return snapshot.messages.filter(
    (m) => m.channel === channel && visibleTo(m, user) && (m.ts === threadTs || m.threadTs === threadTs),
  );
}

export function replyCount(snapshot: PlaygroundSnapshot, message: PlaygroundMessage, user: string): number {
  return snapshot.messages.filter(
    (m) =>
      m.channel === message.channel && m.threadTs === message.ts && m.ts !== message.ts && visibleTo(m, user),
  ).length;
}

/** Public channels for everyone; private channels and DMs only for their members. */
export function channelsFor(snapshot: PlaygroundSnapshot, user: string): PlaygroundChannel[] {
  return snapshot.channels.filter((c) => c.kind === 'public' || c.members.includes(user));
}

export function findUser(snapshot: PlaygroundSnapshot, id: string): PlaygroundUser | undefined {
  return snapshot.users.find((u) => u.id === id);
}

/** The composer's commands in the member's words: Regdesk's (from manifest.yml), then Slack's own. */
export function commandsIn(words: Chrome, manifest: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  const regdesk = manifest.map((command) => ({ ...command, ...words.commandWords[command.command] }));
  return [...regdesk, ...words.builtInCommands];
}

/** Commands whose name starts with what is typed after `/` (the composer's completion list). */
export function completions(commands: SlashCommandInfo[], typed: string): SlashCommandInfo[] {
  const match = /^\/(\S*)$/.exec(typed);
  if (match === null) return [];
  const prefix = `/${(match[1] ?? '').toLowerCase()}`;
  return commands.filter((c) => c.command.toLowerCase().startsWith(prefix));
}

/** The usage hint for the command being typed (`/tls order` → its hint), once a space follows it. */
export function usageFor(commands: SlashCommandInfo[], typed: string): SlashCommandInfo | undefined {
  const match = /^(\/\S+)\s/.exec(typed);
  return match === null ? undefined : commands.find((c) => c.command === match[1]);
}

/**
 * A typed message as a Slack client sends it: `&`, `<`, `>` escaped (so typed text can never become
 * a link or mention), then `@Regdesk` and `@handle` turned into `<@U…>` mentions. Slash commands go
 * as typed; the server builds the command payload from them.
 */
export function encodeMessage(snapshot: PlaygroundSnapshot, typed: string): string {
  if (typed.startsWith('/')) return typed;
  const escaped = typed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/(^|[^\w@])@([\w.-]+)/g, (whole, before: string, handle: string) => {
    const name = handle.toLowerCase();
    if (name === snapshot.bot.name.toLowerCase()) return `${before}<@${snapshot.bot.userId}>`;
    const user = snapshot.users.find((u) => u.name.toLowerCase() === name);
    return user === undefined ? whole : `${before}<@${user.id}>`;
  });
}
