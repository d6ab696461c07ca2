import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { BOT_SCOPES } from '../../slack/scopes.js';
import type { PlaygroundEvent, PlaygroundFile, PlaygroundMessage } from '../web/protocol.js';
import { SignInWithSlack } from './sign-in-state.js';
import type {
  Responder,
  ResponseContext,
  SlackCall,
  StandInAssistantThread,
  StandInConversation,
  StandInFile,
  StandInMessage,
  StandInSuggestedPrompts,
  StandInUser,
  StandInView,
  TokenRotation,
} from './types.js';

/**
 * Everything the stand-in's Slack keeps, and the small rules every area shares (ids, timestamps,
 * membership, storing a message). The areas (messages.ts, views.ts …) are functions over it;
 * `SlackStandIn` exposes the parts tests and the playground read.
 */
export class SlackState {
  readonly calls: SlackCall[] = [];
  readonly users = new Map<string, StandInUser>();
  /** User groups (`S…`) and their members, as `usergroups.users.list` answers. */
  readonly usergroups = new Map<string, string[]>();
  /** Users `users.info` cannot describe (`user_not_found`), however often it is asked. */
  readonly unknownUsers = new Set<string>();
  readonly conversations = new Map<string, StandInConversation>();
  readonly messages = new Map<string, StandInMessage>();
  readonly ephemerals = new Map<string, StandInMessage>();
  readonly uploads = new Map<string, Buffer>();
  readonly files = new Map<string, StandInFile>();
  readonly views = new Map<string, StandInView>();
  readonly assistantThreads = new Map<string, StandInAssistantThread>();
  readonly suggestedPrompts = new Map<string, StandInSuggestedPrompts>();
  readonly homes = new Map<string, unknown>();
  readonly rotation: TokenRotation = {
    enabled: false,
    expiresInSeconds: 43_200,
    tokens: new Map(),
    refreshTokens: new Set(),
  };
  /** Sign in with Slack (openid.ts): the app's credentials, issued codes and user tokens. */
  readonly signIn = new SignInWithSlack();
  workspaceName = 'Acme';
  keepCalls = Number.POSITIVE_INFINITY;
  botToken: string | undefined;
  /** The bot token's scopes, sent with every Web API answer as Slack does (`x-oauth-scopes`). */
  scopes: readonly string[] = BOT_SCOPES;
  url = '';
  /** Ids (files, views, hashes, rotating tokens) count up from here. */
  seq = 1_000;
  /** Message timestamps are Slack-shaped (`seconds.micros` of real time), strictly increasing. */
  readonly startMicros = Date.now() * 1_000;
  lastMicros = this.startMicros - 1;
  readonly overrides = new Map<string, Responder[]>();
  readonly events = new EventEmitter();
  /** Trigger ids the stand-in issued, and whose interaction each came with. */
  readonly triggers = new Map<string, string>();
  /** Each user's open modals (view ids), bottom first. */
  readonly stacks = new Map<string, string[]>();
  readonly responseUrls = new Map<string, ResponseContext & { issued: number; uses: number }>();
  readonly pendingUploads = new Map<string, { name: string; path: string }>();

  emit(event: PlaygroundEvent): void {
    this.events.emit('change', event);
  }

  record(call: SlackCall): void {
    this.calls.push(call);
    if (this.calls.length > this.keepCalls) this.calls.splice(0, this.calls.length - this.keepCalls);
  }

  nextTs(): string {
    this.lastMicros = Math.max(Date.now() * 1_000, this.lastMicros + 1);
    const seconds = Math.floor(this.lastMicros / 1_000_000);
    return `${seconds}.${String(this.lastMicros % 1_000_000).padStart(6, '0')}`;
  }

  hash(): string {
    return `${this.seq++}.${randomBytes(4).toString('hex')}`;
  }

  newViewId(): string {
    return `V${this.seq++}`;
  }

  /** True when a view id's number is one the stand-in handed out. */
  issued(seq: string): boolean {
    const n = Number(seq);
    return Number.isInteger(n) && n >= 1_000 && n < this.seq;
  }

  /** True when `ts` is an id the stand-in handed out (so its absence means it was deleted). */
  posted(ts: string): boolean {
    const [seconds, micros] = ts.split('.');
    const at = Number(seconds) * 1_000_000 + Number(micros);
    return Number.isFinite(at) && at >= this.startMicros && at <= this.lastMicros;
  }

  /** A defined conversation, or the lenient default for its id. */
  conversation(id: string): StandInConversation {
    const known = this.conversations.get(id);
    if (known !== undefined) return known;
    if (id.startsWith('D') || id.startsWith('U')) return { kind: 'im', botMember: true };
    if (id.startsWith('G')) return { kind: 'private', botMember: true };
    return { kind: 'public', botMember: true };
  }

  /** Why the bot may not post in `channel`, as Slack words it, or undefined. */
  postRefusal(channel: string): string | undefined {
    if (channel === '') return 'channel_not_found';
    const conversation = this.conversation(channel);
    if (!conversation.botMember)
      return conversation.kind === 'public' ? 'not_in_channel' : 'channel_not_found';
    if (conversation.archived === true) return 'is_archived';
    return undefined;
  }

  isMember(channel: string, user: string): boolean {
    const conversation = this.conversation(channel);
    if (conversation.members === undefined) return conversation.kind !== 'im' || channel === `D${user}`;
    return conversation.members.includes(user);
  }

  store(message: StandInMessage): void {
    this.messages.set(`${message.channel}:${message.ts}`, message);
    this.emit({ type: 'message', message: this.toPlayground(message) });
    // The parent of a thread carries its own ts as thread_ts once it has replies.
    if (message.threadTs !== undefined && message.threadTs !== message.ts) {
      const parent = this.messages.get(`${message.channel}:${message.threadTs}`);
      if (parent !== undefined && parent.threadTs === undefined) {
        parent.threadTs = parent.ts;
        this.emit({ type: 'message_changed', message: this.toPlayground(parent) });
      }
    }
  }

  storeEphemeral(message: StandInMessage): void {
    this.ephemerals.set(`${message.channel}:${message.ts}`, message);
    this.emit({ type: 'message', message: this.toPlayground(message) });
  }

  toPlayground(message: StandInMessage): PlaygroundMessage {
    const out: PlaygroundMessage = {
      channel: message.channel,
      ts: message.ts,
      fromBot: message.user === undefined,
      reactions: (message.reactions ?? []).map((reaction) => ({ ...reaction, users: [...reaction.users] })),
      files: (message.files ?? []).flatMap((id) => {
        const file = this.files.get(id);
        if (file === undefined) return [];
        const entry: PlaygroundFile = {
          id,
          name: file.name,
          size: file.bytes.length,
          url: `/playground/files/${id}`,
        };
        if (file.title !== undefined) entry.title = file.title;
        return [entry];
      }),
    };
    if (message.threadTs !== undefined) out.threadTs = message.threadTs;
    if (message.user !== undefined) out.user = message.user;
    if (typeof message.text === 'string') out.text = message.text;
    if (Array.isArray(message.blocks)) out.blocks = message.blocks;
    if (message.ephemeralTo !== undefined) out.ephemeralTo = message.ephemeralTo;
    if (message.viaResponseUrl === true) out.viaResponseUrl = true;
    if (message.edited === true) out.edited = true;
    if (message.subtype !== undefined && message.user !== undefined) {
      const kind = message.subtype === 'channel_join' ? 'joined' : 'left';
      out.system = {
        kind,
        member: message.user,
        ...(message.inviter === undefined ? {} : { by: message.inviter }),
      };
    }
    return out;
  }
}
