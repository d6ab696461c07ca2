import type { z } from 'zod';
import { type ComposerContext, sendCommand, sendMessage } from './composer-dispatch.js';
import type {
  ActionSchema,
  ComposerSchema,
  MessageShortcutSchema,
  ReactionSchema,
  ViewClosedSchema,
  ViewSubmissionSchema,
} from './inputs.js';
import {
  actor,
  failed,
  findElement,
  type Json,
  messagePayload,
  stringRecord,
  viewPayload,
} from './interaction-payloads.js';
import type { PlaygroundManifest } from './manifest.js';
import { ackJson, eventTs, type SlackEventSender } from './slack-events.js';
import type { SlackStandIn, StandInMessage } from './slack-standin.js';
import { WORKSPACE } from './slack-standin.js';
import type { ApiResult, ViewSubmissionResult } from './web/protocol.js';
import { PLAYGROUND_USERS } from './workspace.js';

export { findElement } from './interaction-payloads.js';

/**
 * What a person does in the page, turned into what Slack would send Regdesk: slash commands,
 * block_actions, message shortcuts, view submissions and closes, mentions, DMs (`message.im`) and App
 * Home opens (the Home tab, and the Messages tab where the assistant lives). Each checks what
 * Slack's client would not even allow (someone else's modal, a channel one is not in).
 */
export class PlaygroundActions {
  constructor(
    private readonly slack: SlackStandIn,
    private readonly sender: SlackEventSender,
    private readonly manifest: PlaygroundManifest,
  ) {}

  async composer(input: z.infer<typeof ComposerSchema>): Promise<ApiResult> {
    const user = this.#user(input.user);
    const channel = this.#channel(input.channel);
    if (user === undefined) return { ok: false, error: 'no such member' };
    if (channel === undefined) return { ok: false, error: 'no such channel' };
    if (!this.#isMember(channel.id, user.id))
      return { ok: false, error: 'not_in_channel', notice: { kind: 'notInChannel', channel: channel.name } };
    const command = /^(\/[^\s]+)(?:\s+([\s\S]*))?$/.exec(input.text);
    if (command !== null)
      return sendCommand(this.#composerContext(), user, channel, command[1] ?? '', (command[2] ?? '').trim());
    return sendMessage(this.#composerContext(), user, channel, input.text, input.threadTs);
  }

  async action(input: z.infer<typeof ActionSchema>): Promise<ApiResult> {
    const user = this.#user(input.user);
    if (user === undefined) return { ok: false, error: 'no such member' };
    const source = input.source;
    const base: Json = {
      type: 'block_actions',
      ...actor(this.slack, user.id),
      trigger_id: this.slack.issueTrigger(user.id),
    };
    let blocks: unknown;
    if (source.kind === 'message') {
      const message = this.slack.findMessage(source.channel, source.ts);
      if (message === undefined || !this.#canSee(message, user.id))
        return { ok: false, error: 'message_not_found' };
      blocks = message.blocks;
      const ephemeral = message.ephemeralTo !== undefined;
      Object.assign(base, {
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: message.channel,
          is_ephemeral: ephemeral,
          ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
        },
        channel: { id: message.channel, name: this.#channelName(message.channel) },
        // Slack leaves the message out of actions on ephemerals: the app never stored them.
        ...(ephemeral ? {} : { message: messagePayload(message) }),
        response_url: this.slack.issueResponseUrl({
          channel: message.channel,
          user: user.id,
          messageTs: message.ts,
          ...(message.threadTs === undefined ? {} : { threadTs: message.threadTs }),
        }),
      });
    } else if (source.kind === 'view') {
      const known = this.slack.views.get(source.viewId);
      if (known === undefined || known.user !== user.id) return { ok: false, error: 'not_found' };
      blocks = (known.view as Json).blocks;
      Object.assign(base, {
        container: { type: 'view', view_id: source.viewId },
        view: viewPayload(this.slack, source.viewId, input.state ?? {}),
      });
    } else {
      const home = this.slack.homes.get(user.id) as Json | undefined;
      const id = this.slack.homeViewId(user.id);
      if (home === undefined || id === undefined) return { ok: false, error: 'not_found' };
      blocks = home.blocks;
      Object.assign(base, {
        container: { type: 'view', view_id: id },
        view: { ...home, id, team_id: WORKSPACE, state: { values: input.state ?? {} } },
      });
    }
    const element = findElement(blocks, input.action.action_id, input.action.block_id);
    if (element === undefined) return { ok: false, error: 'element_gone', notice: { kind: 'elementGone' } };
    const action: Json = {
      ...input.action,
      type: element.element.type,
      block_id: element.blockId,
      action_ts: eventTs(),
      ...(element.element.type === 'button' ? { text: element.element.text } : {}),
      ...(typeof element.element.style === 'string' ? { style: element.element.style } : {}),
    };
    if (element.element.type === 'button' && typeof element.element.value === 'string') {
      action.value = element.element.value;
    }
    const delivery = await this.sender.interaction({ ...base, actions: [action] });
    if (!delivery.ok) return failed({ step: 'action' }, delivery);
    return { ok: true };
  }

  async viewSubmission(input: z.infer<typeof ViewSubmissionSchema>): Promise<ViewSubmissionResult> {
    const known = this.slack.views.get(input.viewId);
    if (known === undefined || known.user !== input.user) return { ok: false, error: 'not_found' };
    const delivery = await this.sender.interaction({
      type: 'view_submission',
      ...actor(this.slack, input.user),
      trigger_id: this.slack.issueTrigger(input.user),
      view: viewPayload(this.slack, input.viewId, input.values),
      response_urls: [],
    });
    if (!delivery.ok) return failed({ step: 'form' }, delivery);
    const ack = ackJson(delivery);
    switch (ack?.response_action) {
      case undefined:
        // An empty acknowledgement closes the submitted view (and any pushed above it).
        this.#closeFrom(input.user, input.viewId);
        return { ok: true };
      case 'errors': {
        const errors = stringRecord(ack.errors);
        this.slack.setViewErrors(input.viewId, errors);
        return { ok: true, errors };
      }
      case 'update':
        return this.slack.replaceView(input.viewId, ack.view);
      case 'push':
        return this.slack.pushView(input.user, ack.view);
      case 'clear':
        this.slack.clearViews(input.user);
        return { ok: true };
      default:
        return failed({ step: 'form' }, { ok: false, error: 'dispatch_failed' });
    }
  }

  async viewClosed(input: z.infer<typeof ViewClosedSchema>): Promise<ApiResult> {
    const known = this.slack.views.get(input.viewId);
    if (known === undefined || known.user !== input.user) return { ok: false, error: 'not_found' };
    const view = viewPayload(this.slack, input.viewId, {});
    const cleared = this.#closeFrom(input.user, input.viewId);
    // Slack tells the app only when the view asked for it.
    if ((known.view as Json).notify_on_close !== true) return { ok: true };
    const delivery = await this.sender.interaction({
      type: 'view_closed',
      ...actor(this.slack, input.user),
      view,
      is_cleared: cleared,
    });
    return delivery.ok ? { ok: true } : failed({ step: 'formClosed' }, delivery);
  }

  /**
   * A person opens a tab of Regdesk's App Home. `messages` is their DM with the bot: with the agent
   * messaging experience (manifest `features.agent_view`) Slack tells the app with `app_home_opened`
   * and `tab: "messages"` (docs.slack.dev "Migrating to the Agent messaging experience").
   */
  async homeOpened(user: string, tab: 'home' | 'messages' = 'home'): Promise<ApiResult> {
    if (this.#user(user) === undefined) return { ok: false, error: 'no such member' };
    if (!this.manifest.botEvents.includes('app_home_opened')) return { ok: true };
    if (tab === 'messages' && !this.manifest.messagesTab) return { ok: true };
    const home = this.slack.homes.get(user);
    const delivery = await this.sender.event({
      type: 'app_home_opened',
      user,
      channel: `D${user}`,
      tab,
      ...(tab === 'home' && home !== undefined ? { view: home } : {}),
    });
    const step = tab === 'home' ? 'homeTab' : 'messagesTab';
    return delivery.ok ? { ok: true } : failed({ step }, delivery);
  }

  /**
   * A message shortcut from a message's "More actions" menu: Slack's `message_action` payload, with
   * the message, a trigger and a response_url for the channel (acknowledged within 3 s).
   */
  async messageShortcut(input: z.infer<typeof MessageShortcutSchema>): Promise<ApiResult> {
    const user = this.#user(input.user);
    if (user === undefined) return { ok: false, error: 'no such member' };
    const shortcut = this.manifest.messageShortcuts.find((known) => known.callbackId === input.callbackId);
    if (shortcut === undefined) return { ok: false, error: 'no such shortcut' };
    const message = this.slack.findMessage(input.channel, input.ts);
    // Slack offers no shortcuts on ephemeral messages.
    if (message === undefined || message.ephemeralTo !== undefined || !this.#canSee(message, user.id))
      return { ok: false, error: 'message_not_found' };
    const delivery = await this.sender.interaction({
      type: 'message_action',
      callback_id: shortcut.callbackId,
      ...actor(this.slack, user.id),
      trigger_id: this.slack.issueTrigger(user.id),
      action_ts: eventTs(),
      channel: { id: message.channel, name: this.#channelName(message.channel) },
      message_ts: message.ts,
      message: messagePayload(message),
      response_url: this.slack.issueResponseUrl({ channel: message.channel, user: user.id }),
    });
    return delivery.ok ? { ok: true } : failed({ step: 'shortcut', name: shortcut.name }, delivery);
  }

  reaction(input: z.infer<typeof ReactionSchema>): ApiResult {
    if (this.#user(input.user) === undefined) return { ok: false, error: 'no such member' };
    return this.slack.toggleReaction(input.user, input.channel, input.ts, input.name);
  }

  /** What the composer path (composer-dispatch.ts) needs of this class. */
  #composerContext(): ComposerContext {
    return {
      slack: this.slack,
      sender: this.sender,
      manifest: this.manifest,
    };
  }

  /** Closes `viewId` and everything pushed above it; true when the stack is now empty. */
  #closeFrom(user: string, viewId: string): boolean {
    const stack = this.slack.viewStack(user).map((view) => view.id);
    const at = stack.indexOf(viewId);
    if (at <= 0) {
      this.slack.clearViews(user);
      return true;
    }
    for (const id of stack.slice(at).reverse()) this.slack.closeView(id);
    return false;
  }

  #user(id: string): { id: string; name: string } | undefined {
    const user = PLAYGROUND_USERS.find((candidate) => candidate.id === id);
    return user === undefined ? undefined : { id: user.id, name: user.name };
  }

  #channel(id: string): { id: string; name: string; kind: string; botMember: boolean } | undefined {
    const conversation = this.slack.conversations.get(id);
    if (conversation?.name === undefined) return undefined;
    return { id, name: conversation.name, kind: conversation.kind, botMember: conversation.botMember };
  }

  #channelName(id: string): string {
    const conversation = this.slack.conversations.get(id);
    return conversation?.kind === 'im' ? 'directmessage' : (conversation?.name ?? id);
  }

  #isMember(channel: string, user: string): boolean {
    return this.slack.conversations.get(channel)?.members?.includes(user) === true;
  }

  #canSee(message: StandInMessage, user: string): boolean {
    if (message.ephemeralTo !== undefined) return message.ephemeralTo === user;
    return this.#isMember(message.channel, user);
  }
}
