import type { PlaygroundView } from '../web/protocol.js';
import { triggerRefusal, viewRefusal, viewRefusalBody } from './refusals.js';
import type { SlackState } from './state.js';
import { newTriggerId, TRIGGER_LIFETIME_MS } from './types.js';

/** Slack keeps at most three modals stacked. */
const VIEW_STACK_MAX = 3;

/** A trigger_id for an interaction by `user`: views opened with it form that user's modal stack. */
export function issueTrigger(state: SlackState, user: string): string {
  const now = Date.now();
  for (const [id] of state.triggers) {
    if (now - Number(id.split('.')[0]) > TRIGGER_LIFETIME_MS) state.triggers.delete(id);
  }
  const id = newTriggerId(now);
  state.triggers.set(id, user);
  return id;
}

/** `views.open` / `views.push`: a trigger the stand-in issued puts the view on its user's stack. */
export function openView(state: SlackState, args: Record<string, unknown>, push: boolean): unknown {
  const refusal = triggerRefusal(args.trigger_id);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const invalid = viewRefusalBody(args.view, 'modal');
  if (invalid !== undefined) return invalid;
  const user = state.triggers.get(String(args.trigger_id));
  if (user === undefined) return storeView(state, args.view);
  if (push) {
    const full = stackRefusal(state, user);
    if (full !== undefined) return { ok: false, error: full };
  }
  const id = state.newViewId();
  const answer = storeView(state, args.view, id);
  const entry = state.views.get(id);
  if (entry !== undefined) entry.user = user;
  if (!push) for (const old of state.stacks.get(user) ?? []) state.views.delete(old);
  setStack(state, user, push ? [...(state.stacks.get(user) ?? []), id] : [id]);
  return answer;
}

export function updateView(state: SlackState, args: Record<string, unknown>): unknown {
  const id = String(args.view_id ?? '');
  const known = state.views.get(id);
  // Views a test submitted directly (id "V0001" …) are taken as open; one the stand-in opened and
  // the user closed is gone.
  if (known === undefined && state.issued(id.slice(1))) return { ok: false, error: 'not_found' };
  if (known !== undefined && args.hash !== undefined && args.hash !== known.hash)
    return { ok: false, error: 'hash_conflict' };
  const invalid = viewRefusalBody(args.view, 'modal');
  if (invalid !== undefined) return invalid;
  const answer = storeView(state, args.view, id);
  if (known?.user !== undefined) emitStack(state, known.user);
  return answer;
}

export function publishHome(state: SlackState, args: Record<string, unknown>): unknown {
  const invalid = viewRefusalBody(args.view, 'home');
  if (invalid !== undefined) return invalid;
  const user = String(args.user_id ?? '');
  if (user === '') return { ok: false, error: 'invalid_arguments' };
  // A user's Home tab keeps one view id across publishes, as in Slack.
  const id = homeViewId(state, user) ?? state.newViewId();
  const view = { ...(args.view as object), id, hash: state.hash() };
  state.homes.set(user, view);
  state.emit({ type: 'home', user, view });
  return { ok: true, view };
}

/** The id of the user's published Home view, if any. */
export function homeViewId(state: SlackState, user: string): string | undefined {
  const home = state.homes.get(user) as { id?: unknown } | undefined;
  return typeof home?.id === 'string' ? home.id : undefined;
}

/** The user closed the modal: later `views.update` calls fail `not_found`. */
export function closeView(state: SlackState, id: string): void {
  const user = state.views.get(id)?.user;
  state.views.delete(id);
  if (user === undefined) return;
  const stack = state.stacks.get(user) ?? [];
  setStack(
    state,
    user,
    stack.filter((viewId) => viewId !== id),
  );
}

/** The user's open modals, bottom first. */
export function viewStack(state: SlackState, user: string): PlaygroundView[] {
  return (state.stacks.get(user) ?? []).flatMap((id) => {
    const known = state.views.get(id);
    if (known === undefined) return [];
    const view: PlaygroundView = { id, user, view: known.view, hash: known.hash };
    if (known.errors !== undefined) view.errors = known.errors;
    return [view];
  });
}

/** Close every modal of `user` (Slack's `response_action: clear`, or closing the bottom modal). */
export function clearViews(state: SlackState, user: string): void {
  for (const id of state.stacks.get(user) ?? []) state.views.delete(id);
  setStack(state, user, []);
}

/** `response_action: update` from a view_submission ack: the submitted view is replaced. */
export function replaceView(state: SlackState, id: string, view: unknown): { ok: boolean; error?: string } {
  const known = state.views.get(id);
  if (known === undefined) return { ok: false, error: 'not_found' };
  const refusal = viewRefusal(view, 'modal');
  if (refusal !== undefined) return { ok: false, error: refusal };
  state.views.set(id, {
    hash: state.hash(),
    view,
    ...(known.user === undefined ? {} : { user: known.user }),
  });
  if (known.user !== undefined) emitStack(state, known.user);
  return { ok: true };
}

/** `response_action: push` from a view_submission ack: a new modal on top of the user's stack. */
export function pushView(state: SlackState, user: string, view: unknown): { ok: boolean; error?: string } {
  const refusal = viewRefusal(view, 'modal') ?? stackRefusal(state, user);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const id = state.newViewId();
  state.views.set(id, { hash: state.hash(), view, user });
  setStack(state, user, [...(state.stacks.get(user) ?? []), id]);
  return { ok: true };
}

/** `response_action: errors`: shown under the inputs until the view changes. */
export function setViewErrors(state: SlackState, id: string, errors: Record<string, string>): void {
  const known = state.views.get(id);
  if (known === undefined) return;
  known.errors = errors;
  if (known.user !== undefined) emitStack(state, known.user);
}

function stackRefusal(state: SlackState, user: string): string | undefined {
  return (state.stacks.get(user)?.length ?? 0) >= VIEW_STACK_MAX ? 'push_limit_reached' : undefined;
}

function storeView(state: SlackState, view: unknown, id = state.newViewId()): unknown {
  const hash = state.hash();
  const previous = state.views.get(id);
  state.views.set(id, { hash, view, ...(previous?.user === undefined ? {} : { user: previous.user }) });
  return { ok: true, view: { id, hash, ...(view as object) } };
}

function setStack(state: SlackState, user: string, stack: string[]): void {
  if (stack.length === 0) state.stacks.delete(user);
  else state.stacks.set(user, stack);
  emitStack(state, user);
}

function emitStack(state: SlackState, user: string): void {
  state.emit({ type: 'views', user, stack: viewStack(state, user) });
}
