import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { type Message, notifyByDm } from '../../slack/reply.js';
import { inLanguage, text } from '../../text/index.js';
import type { AuditAction, AuditLog } from '../audit/service.js';
import { type Audience, approvalMessage } from './blocks.js';
import { updateBestEffort } from './notify.js';
import { type ApprovalRequest, type ApprovalState, wordingOf } from './record.js';
import type { ApprovalStore } from './store.js';

/** Re-renders of one step at most: each round is one paced update per copy. */
const MAX_ROUNDS = 3;

/** Two states of a request that render the same messages (copies included). */
function sameLook(a: ApprovalRequest, b: ApprovalRequest): boolean {
  const look = (r: ApprovalRequest) => JSON.stringify([approvalMessage(r), r.copies]);
  return look(a) === look(b);
}

/** Every message that shows the request: the public one (once posted) and the approvers' copies. */
function targets(
  request: ApprovalRequest,
): { key: string; channel: string; ts: string; audience: Audience; user?: string }[] {
  const copies = request.copies.map((copy) => ({
    key: `${copy.channel}:${copy.ts}`,
    channel: copy.channel,
    ts: copy.ts,
    audience: 'approver' as const,
    user: copy.user,
  }));
  if (request.messageTs === '') return copies;
  const shown = { channel: request.channel, ts: request.messageTs, audience: 'channel' as const };
  return [{ key: `${shown.channel}:${shown.ts}`, ...shown }, ...copies];
}

export interface UpdateDeps {
  store: ApprovalStore;
  audit: AuditLog;
  poster: ChannelPoster;
  logger: Logger;
  /** Told after every transition, best-effort (App Home re-publishes from it). */
  onChange?: ((request: ApprovalRequest) => Promise<void>) | undefined;
  /** The requester is told in their language; the messages that show the request are in the workspace's. */
  languages: Pick<Languages, 'ofPerson' | 'inWorkspaceLanguage'>;
}

/** A word to the requester by DM, built once their language is known. */
export type Tell = () => Message;

/**
 * What follows a step of a request: its audit entry (docs/requirements.md R12), the word to the
 * requester by DM, the public message and the approvers' copies re-rendered from the stored state
 * (R3: stored channel + ts, never a response_url), then `onChange`. Only the audit may fail the step:
 * Slack's refusals never undo or block a transition that has happened (R30).
 */
export class RequestUpdates {
  constructor(private readonly deps: UpdateDeps) {}

  /** `detail`: the requester's reason, on the request and a break of the glass (contract §3 "Policy"). */
  async audit(
    request: ApprovalRequest,
    action: AuditAction,
    actor: string,
    outcome?: string,
    detail?: string,
  ): Promise<void> {
    await this.deps.audit.append(request.workspace, {
      action,
      actor,
      operation: request.operation,
      target: request.target,
      requestId: request.id,
      paramsHash: request.paramsHash,
      ...(outcome === undefined ? {} : { outcome }),
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /** A step taken by someone: audited, then published. True when the public message shows it. */
  async decided(
    request: ApprovalRequest,
    action: AuditAction,
    actor: string,
    client: WebClient,
    options: { outcome?: string; tell?: Tell } = {},
  ): Promise<boolean> {
    await this.audit(request, action, actor, options.outcome);
    return this.publish(request.workspace, request.id, client, options.tell);
  }

  /**
   * Tells the requester first (the outcome must reach them, R30), then updates every copy of the
   * message and calls `onChange`. True when the public message was updated.
   */
  async publish(workspace: WorkspaceRef, id: string, client: WebClient, tell?: Tell): Promise<boolean> {
    let request = await this.deps.store.get(workspace, id);
    if (request === undefined) return false;
    if (tell !== undefined) {
      const locale = await this.deps.languages.ofPerson(client, workspace, request.requester);
      await notifyByDm(client, request.requester, inLanguage(locale, tell), this.deps.logger);
    }
    const gone = new Set<string>();
    let shown = false;
    // Updates wait for the channel's pace (R7), so a later step (the execution's outcome) may land
    // first; an update that turns out stale once sent is sent again from the newer state.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const showing = request;
      shown = await this.deps.languages.inWorkspaceLanguage(workspace, () =>
        this.#render(showing, client, gone),
      );
      const now = await this.deps.store.get(workspace, id);
      if (now === undefined || sameLook(now, request) || targets(now).every((t) => gone.has(t.key))) break;
      request = now;
    }
    await this.changed(request);
    return shown;
  }

  /**
   * The public message and every approver's copy, best-effort, skipping those found `gone` (deleted,
   * archived) and adding to it; true when the public message was updated.
   */
  async #render(request: ApprovalRequest, client: WebClient, gone: Set<string>): Promise<boolean> {
    const results = await Promise.all(
      targets(request)
        .filter((target) => !gone.has(target.key))
        .map(async (target) => {
          // The channel's message in the workspace's language (the caller's), each copy in its approver's.
          const message =
            target.user === undefined
              ? approvalMessage(request, target.audience)
              : inLanguage(await this.deps.languages.ofPerson(client, request.workspace, target.user), () =>
                  approvalMessage(request, target.audience),
                );
          const result = await updateBestEffort(
            () => this.deps.poster.update(client, { channel: target.channel, ts: target.ts, ...message }),
            this.deps.logger,
            { requestId: request.id, channel: target.channel },
          );
          if (result === 'gone') gone.add(target.key);
          return target.audience === 'channel' && result === 'updated';
        }),
    );
    return results.includes(true);
  }

  /**
   * A message in the request message's thread (its ts), best-effort: the change has happened, so Slack refusing
   * the post (the channel archived meanwhile) is logged, never a failure of the request (R30).
   */
  async inThread(request: ApprovalRequest, message: Message, client: WebClient): Promise<string | undefined> {
    if (request.messageTs === '') return undefined;
    try {
      const ts = await this.deps.poster.post(client, {
        channel: request.channel,
        thread_ts: request.messageTs,
        ...message,
      });
      return ts === '' ? undefined : ts;
    } catch (error) {
      this.deps.logger.warn(
        { requestId: request.id, err: error instanceof Error ? error.message : String(error) },
        'offer not posted in the request thread',
      );
      return undefined;
    }
  }

  async changed(request: ApprovalRequest): Promise<void> {
    try {
      await this.deps.onChange?.(request);
    } catch (error) {
      this.deps.logger.warn(
        { requestId: request.id, err: error instanceof Error ? error.message : String(error) },
        'onChange failed',
      );
    }
  }

  /**
   * executing (or one of `from`) → succeeded or failed, once; a run that lost the race says nothing.
   */
  async finish(
    request: ApprovalRequest,
    state: 'succeeded' | 'failed',
    outcome: string,
    client: WebClient,
    tell?: Tell,
    from: readonly ApprovalState[] = ['executing'],
  ): Promise<void> {
    const moved = await this.deps.store.transition(request.workspace, request.id, from, state, {
      outcome,
    });
    if (moved === undefined) return;
    const done = state === 'succeeded';
    await this.decided(request, done ? 'succeed' : 'fail', 'regdesk', client, {
      outcome,
      tell:
        tell ??
        (() => ({
          text: (done ? text.approvals.requestDone : text.approvals.requestFailed)({
            summary: escapeMrkdwn(wordingOf(request).summary),
            outcome: escapeMrkdwn(outcome),
          }),
        })),
    });
  }
}
