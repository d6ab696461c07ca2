// The payloads Slack sends an app for a person's actions, built from the stand-in's state: pure shapes, apart from the dispatch.
import type { Delivery } from './slack-events.js';
import type { SlackStandIn, StandInMessage } from './slack-standin.js';
import { BOT_USER, WORKSPACE } from './slack-standin.js';
import type { FailedWhat } from './web/notices.js';
import type { ApiResult } from './web/protocol.js';
import { PLAYGROUND_USERS } from './workspace.js';

export type Json = Record<string, unknown>;

/** What Slack's client says when an app did not answer in time or answered with an error. */
export function failed(what: FailedWhat, delivery: Delivery & { ok: false }): ApiResult {
  return { ok: false, error: delivery.error, notice: { kind: 'failed', ...what, error: delivery.error } };
}

/** A view as Slack sends it with an interaction: the stored view, its place in the stack, `values`. */
export function viewPayload(slack: SlackStandIn, viewId: string, values: unknown): Json {
  const known = slack.views.get(viewId);
  const view = (known?.view ?? {}) as Json;
  const user = known?.user ?? '';
  const stack = slack.viewStack(user).map((entry) => entry.id);
  const at = stack.indexOf(viewId);
  return {
    ...view,
    id: viewId,
    team_id: WORKSPACE,
    app_id: 'A0PLAYGROUND',
    bot_id: 'BBOT',
    hash: known?.hash ?? '',
    callback_id: view.callback_id ?? '',
    private_metadata: view.private_metadata ?? '',
    state: { values },
    root_view_id: stack[0] ?? viewId,
    previous_view_id: at > 0 ? (stack[at - 1] ?? null) : null,
  };
}

export function messagePayload(message: StandInMessage): Json {
  return {
    type: 'message',
    ts: message.ts,
    text: typeof message.text === 'string' ? message.text : '',
    ...(Array.isArray(message.blocks) ? { blocks: message.blocks } : {}),
    ...(message.user === undefined ? { user: BOT_USER, bot_id: 'BBOT' } : { user: message.user }),
    ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
  };
}

/** Who acted, in which workspace: the fields every interaction payload starts with. */
export function actor(slack: SlackStandIn, id: string): Json {
  const name = PLAYGROUND_USERS.find((candidate) => candidate.id === id)?.name ?? id;
  return {
    user: { id, username: name, name, team_id: WORKSPACE },
    team: { id: WORKSPACE, domain: slack.workspaceName.toLowerCase() },
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** The interactive element with `actionId` in a surface's blocks, and the id of its block. */
export function findElement(
  blocks: unknown,
  actionId: string,
  blockId: string,
): { element: Json; blockId: string } | undefined {
  if (!Array.isArray(blocks)) return undefined;
  for (const [index, raw] of blocks.entries()) {
    if (typeof raw !== 'object' || raw === null) continue;
    const block = raw as Json;
    // Slack gives blocks without an id one of its own; the page names them by position.
    const id = typeof block.block_id === 'string' ? block.block_id : `b${index}`;
    if (blockId !== '' && blockId !== id) continue;
    const elements = [
      ...(Array.isArray(block.elements) ? block.elements : []),
      block.accessory,
      block.element,
    ].filter((element): element is Json => typeof element === 'object' && element !== null);
    const element = elements.find((candidate) => candidate.action_id === actionId);
    if (element !== undefined) return { element, blockId: id };
  }
  return undefined;
}

export function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([key, text]) => [key, String(text)]));
}
