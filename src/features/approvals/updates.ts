import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { AuditAction, AuditLog } from '../audit/service.js';
import { approvalMessage } from './blocks.js';
import { notifyRequester } from './notify.js';
import type { ApprovalRequest, ApprovalStore } from './store.js';

export interface UpdateDeps {
  store: ApprovalStore;
  audit: AuditLog;
  poster: ChannelPoster;
  logger: Logger;
}

/**
 * What follows a step of a request: its audit entry (docs/requirements.md R12), the one public
 * message re-rendered from the stored state (R3: a stored channel + ts, never a response_url), and
 * the word to the requester once it is over.
 */
export class RequestUpdates {
  constructor(private readonly deps: UpdateDeps) {}

  async audit(request: ApprovalRequest, action: AuditAction, actor: string, outcome?: string): Promise<void> {
    await this.deps.audit.append(request.workspace, {
      action,
      actor,
      operation: request.operation,
      target: request.target,
      requestId: request.id,
      paramsHash: request.paramsHash,
      ...(outcome === undefined ? {} : { outcome }),
    });
  }

  /** Re-render the request message in place from the stored state. */
  async refresh(workspace: WorkspaceRef, id: string, client: WebClient): Promise<void> {
    const request = await this.deps.store.get(workspace, id);
    if (request === undefined || request.messageTs === '') return;
    await this.deps.poster.update(client, {
      channel: request.channel,
      ts: request.messageTs,
      ...approvalMessage(request),
    });
  }

  /** A step taken by someone: audited, shown in the message, and told to the requester when `tell` is set. */
  async decided(
    request: ApprovalRequest,
    action: AuditAction,
    actor: string,
    client: WebClient,
    options: { outcome?: string; tell?: string } = {},
  ): Promise<void> {
    await this.audit(request, action, actor, options.outcome);
    await this.refresh(request.workspace, request.id, client);
    if (options.tell !== undefined) await notifyRequester(client, request, this.deps.logger, options.tell);
  }

  /** executing → succeeded or failed, once; a run that lost the race says nothing. */
  async finish(
    request: ApprovalRequest,
    state: 'succeeded' | 'failed',
    outcome: string,
    client: WebClient,
  ): Promise<void> {
    const moved = await this.deps.store.transition(request.workspace, request.id, ['executing'], state, {
      outcome,
    });
    if (moved === undefined) return;
    await this.decided(request, state === 'succeeded' ? 'succeed' : 'fail', 'regdesk', client, {
      outcome,
      tell: `Your request to ${request.summary} ${state === 'succeeded' ? 'is done' : 'failed'}: ${outcome}`,
    });
  }
}
