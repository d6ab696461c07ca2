import type { Server } from 'node:http';
import { handleRequest, listen } from './slack/http.js';
import { setMembership } from './slack/membership.js';
import * as messages from './slack/messages.js';
import { webApiMethods } from './slack/methods.js';
import { expireToken } from './slack/oauth.js';
import { SlackPacing } from './slack/pacing.js';
import { answerAck, issueResponseUrl, responseUrlFor } from './slack/response-urls.js';
import { SlackState } from './slack/state.js';
import { failingResponder, slowResponder, waitForCalls } from './slack/test-controls.js';
import type {
  MethodHandler,
  Responder,
  ResponseContext,
  SlackCall,
  StandInConversation,
  StandInMessage,
  TokenRotation,
} from './slack/types.js';
import * as views from './slack/views.js';
import type { PlaygroundEvent, PlaygroundMessage, PlaygroundView } from './web/protocol.js';

export { MAX_API_BODY_BYTES, MAX_UPLOAD_BODY_BYTES } from './slack/http.js';
export { SlackPacing } from './slack/pacing.js';
export {
  type Answer,
  BOT_USER,
  type MethodHandler,
  newTriggerId,
  type ResponseContext,
  type SlackCall,
  type StandInAssistantThread,
  type StandInConversation,
  type StandInFile,
  type StandInMessage,
  type StandInSuggestedPrompts,
  type StandInUser,
  WORKSPACE,
} from './slack/types.js';

export interface SlackStandInOptions {
  /**
   * Pace like Slack: `chat.postMessage` once a second per channel, Tier 3 methods 50 a minute, 429
   * with Retry-After beyond (see slack/pacing.ts). Off by default: tests and the playground post
   * faster than Slack allows on purpose; the bench turns it on so no figure comes from a forgiving Slack.
   */
  pacing?: boolean;
}

/**
 * A local stand-in for the Slack Web API (`SLACK_API_URL`) and for every `response_url`: the
 * playground's Slack, the one the test suite drives, and (paced) the bench's. It keeps conversations,
 * membership, messages, ephemerals, reactions, views (per-user modal stacks and Home tabs) and files,
 * and refuses what Slack refuses: posts where the bot is not a member, ephemerals to users outside the
 * channel, updates of deleted messages, archived channels, uploads without membership, expired
 * triggers, blocks beyond Block Kit's limits. Ids a test did not define get lenient defaults: `C…` a
 * public channel with the bot and everyone in it, `D<user>` the user's DM with the bot. Tests can also
 * answer any call once with `override`, or fail it with `failNext`. Every change is announced to
 * `onChange` listeners (the playground streams them to its page).
 *
 * The class only assembles: what Slack keeps is in slack/state.ts, each area's rules in its own file
 * under slack/ (messages, views, response-urls, assistant, files, oauth, directory, http, pacing).
 */
export class SlackStandIn {
  readonly #state = new SlackState();
  readonly calls: SlackCall[] = this.#state.calls;
  readonly users = this.#state.users;
  readonly usergroups = this.#state.usergroups;
  readonly conversations = this.#state.conversations;
  readonly messages = this.#state.messages;
  readonly ephemerals = this.#state.ephemerals;
  readonly uploads = this.#state.uploads;
  readonly files = this.#state.files;
  readonly views = this.#state.views;
  /** Threads the app gave a status or title, by `channel:thread_ts`. */
  readonly assistantThreads = this.#state.assistantThreads;
  /** Suggested prompts pinned to each Messages tab, by the DM's channel id. */
  readonly suggestedPrompts = this.#state.suggestedPrompts;
  /** Each user's published App Home view, with the `id` and `hash` Slack gave it. */
  readonly homes = this.#state.homes;
  /**
   * Token rotation as Slack documents it: with `rotation.enabled`, an install (and every refresh)
   * answers an `xoxe.xoxb-` token that expires in `rotation.expiresInSeconds` and a single-use
   * `xoxe-` refresh token (`invalid_refresh_token` when spent twice).
   */
  readonly rotation: TokenRotation = this.#state.rotation;
  /** Sign in with Slack: the app's client ID and secret it checks, and who consents (slack/openid.ts). */
  readonly signIn = this.#state.signIn;
  /** The Web API methods; another method is one more entry. */
  readonly methods: Record<string, MethodHandler> = webApiMethods(this.#state);
  /** Slack's rate limits when constructed with `pacing` (its `limited` counts the 429s), else undefined. */
  readonly pacing: SlackPacing | undefined;
  #server: Server | undefined;

  constructor(options: SlackStandInOptions = {}) {
    this.pacing = options.pacing === true ? new SlackPacing() : undefined;
  }

  get workspaceName(): string {
    return this.#state.workspaceName;
  }
  set workspaceName(name: string) {
    this.#state.workspaceName = name;
  }

  /** How many calls `calls` keeps: all by default (tests read them); a long-running playground keeps the newest. */
  get keepCalls(): number {
    return this.#state.keepCalls;
  }
  set keepCalls(count: number) {
    this.#state.keepCalls = count;
  }

  /**
   * When set, Web API calls need `Authorization: Bearer <botToken>`, answered as Slack does
   * (`not_authed`, `invalid_auth`). The playground sets its bot token; tests leave it open.
   */
  get botToken(): string | undefined {
    return this.#state.botToken;
  }
  set botToken(token: string | undefined) {
    this.#state.botToken = token;
  }

  /** The bot token's scopes, as every Web API answer's `x-oauth-scopes` header names them. */
  get scopes(): readonly string[] {
    return this.#state.scopes;
  }
  set scopes(scopes: readonly string[]) {
    this.#state.scopes = scopes;
  }

  get url(): string {
    return this.#state.url;
  }
  set url(url: string) {
    this.#state.url = url;
  }

  async start(host = '127.0.0.1'): Promise<this> {
    const { server, url } = await listen(host, (req) =>
      handleRequest(this.#state, this.methods, this.pacing, req),
    );
    this.#server = server;
    this.url = url;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  /** Sign in with Slack's authorize page (`SLACK_AUTHORIZE_URL`). */
  get authorizeUrl(): string {
    return `${this.url}/openid/connect/authorize`;
  }

  /** Base for `SLACK_API_URL`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** The id of the user's published Home view, if any. */
  homeViewId(user: string): string | undefined {
    return views.homeViewId(this.#state, user);
  }

  /** Listen to every change (messages, views, homes); returns the unsubscribe function. */
  onChange(listener: (event: PlaygroundEvent) => void): () => void {
    this.#state.events.on('change', listener);
    return () => this.#state.events.off('change', listener);
  }

  /** `member` joins or leaves `channel` (Slack's `/invite` and `/remove` by `by`); false when nothing changes. */
  setMembership(channel: string, member: string, join: boolean, by: string): boolean {
    return setMembership(this.#state, channel, member, join, by);
  }

  /** A fresh response_url whose posts are only recorded, as method `response_url:<id>`. */
  responseUrl(id: string): string {
    return responseUrlFor(this.#state, id);
  }

  /**
   * A response_url as Slack issues it with a slash command or a message action: posts to it become
   * ephemerals, in-channel messages, replacements or deletions of the originating message.
   */
  issueResponseUrl(context: ResponseContext): string {
    return issueResponseUrl(this.#state, context);
  }

  /**
   * A slash command's acknowledgement body: Slack shows it like a first post to the command's
   * response_url (without using up one of its posts).
   */
  answerAck(responseUrl: string, args: Record<string, unknown>): void {
    answerAck(this.#state, responseUrl, args);
  }

  /** A trigger_id for an interaction by `user`: views opened with it form that user's modal stack. */
  issueTrigger(user: string): string {
    return views.issueTrigger(this.#state, user);
  }

  /** Define a conversation (replacing the lenient default for its id). */
  conversation(id: string, spec: StandInConversation): this {
    this.conversations.set(id, spec);
    return this;
  }

  /** The user closed the modal: later `views.update` calls fail `not_found`. */
  closeView(id: string): void {
    views.closeView(this.#state, id);
  }

  /** The user's open modals, bottom first. */
  viewStack(user: string): PlaygroundView[] {
    return views.viewStack(this.#state, user);
  }

  /** Close every modal of `user` (Slack's `response_action: clear`, or closing the bottom modal). */
  clearViews(user: string): void {
    views.clearViews(this.#state, user);
  }

  /** `response_action: update` from a view_submission ack: the submitted view is replaced. */
  replaceView(id: string, view: unknown): { ok: boolean; error?: string } {
    return views.replaceView(this.#state, id, view);
  }

  /** `response_action: push` from a view_submission ack: a new modal on top of the user's stack. */
  pushView(user: string, view: unknown): { ok: boolean; error?: string } {
    return views.pushView(this.#state, user, view);
  }

  /** `response_action: errors`: shown under the inputs until the view changes. */
  setViewErrors(id: string, errors: Record<string, string>): void {
    views.setViewErrors(this.#state, id, errors);
  }

  /** A person's message, as Slack stores it when they send it. */
  postAsUser(
    user: string,
    channel: string,
    text: string,
    threadTs?: string,
  ): { ok: true; message: StandInMessage } | { ok: false; error: string } {
    return messages.postAsUser(this.#state, user, channel, text, threadTs);
  }

  /** A person adds a reaction, or takes theirs back (the page's emoji button). */
  toggleReaction(user: string, channel: string, ts: string, name: string): { ok: boolean; error?: string } {
    return messages.toggleReaction(this.#state, user, channel, ts, name);
  }

  /** A message deleted by a person or a retention policy: updates of it fail `message_not_found`. */
  deleteMessage(channel: string, ts: string): void {
    messages.deleteMessage(this.#state, channel, ts);
  }

  archive(channel: string): void {
    this.conversations.set(channel, { ...this.#state.conversation(channel), archived: true });
  }

  /** Every message and ephemeral, oldest first, in the page's shape. */
  allMessages(): PlaygroundMessage[] {
    return messages.allMessages(this.#state);
  }

  /** A stored message (ephemerals included) by channel and ts. */
  findMessage(channel: string, ts: string): StandInMessage | undefined {
    return messages.findMessage(this.#state, channel, ts);
  }

  toPlayground(message: StandInMessage): PlaygroundMessage {
    return this.#state.toPlayground(message);
  }

  /** Answer the next call of `method` (once) with `responder` instead of the default. */
  override(method: string, responder: Responder): void {
    const list = this.#state.overrides.get(method) ?? [];
    list.push(responder);
    this.#state.overrides.set(method, list);
  }

  /** From now on `users.info` cannot describe `user` (`user_not_found`), whoever asks and how often. */
  forgetUser(user: string): void {
    this.#state.unknownUsers.add(user);
  }

  /** Answer the next call of `method` as usual, but only after `delayMs`: Slack on a slow day. */
  slowNext(method: string, delayMs: number): void {
    this.override(method, slowResponder(this.methods, method, delayMs));
  }

  /** Fail the next call of `method` with a Slack platform error (429 comes with Retry-After). */
  failNext(method: string, error: string, retryAfterSeconds = 1): void {
    this.override(method, failingResponder(error, retryAfterSeconds));
  }

  callsTo(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Calls that Slack answered with `ok: true`. */
  succeeded(method: string): SlackCall[] {
    return this.callsTo(method).filter((call) => (call.result as { ok?: boolean } | undefined)?.ok === true);
  }

  /** Poll until `predicate` holds over the calls so far; fails after `timeoutMs`. */
  waitFor(predicate: (calls: SlackCall[]) => boolean, timeoutMs = 5_000): Promise<void> {
    return waitForCalls(this.calls, predicate, timeoutMs);
  }

  /** Makes an issued rotating token expire now (a test's twelve hours). */
  expireToken(token: string): void {
    expireToken(this.#state, token);
  }
}
