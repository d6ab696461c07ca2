import type { AllMiddlewareArgs, App, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs } from '@slack/bolt';

type Handler<A> = (args: A) => Promise<void>;
type ActionArgs = SlackActionMiddlewareArgs & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs & AllMiddlewareArgs;

/**
 * Regdesk's own table of button and modal handlers, behind one Bolt listener per kind. Bolt runs
 * every listener's matchers for every request, commands included, before any ack can go out; with
 * a listener per action id that was a few dozen middleware chains per request (issue #17, ack
 * latency). Here a request costs one map look-up. Ids registered as patterns are tried in order
 * after the exact ids; a request nobody handles is left unacked, as Bolt leaves it.
 */
export class InteractionTable {
  readonly #actions = new Map<string, Handler<ActionArgs>>();
  readonly #actionPatterns: Array<[RegExp, Handler<ActionArgs>]> = [];
  readonly #views = new Map<string, Handler<ViewArgs>>();

  constructor(app: App) {
    app.action({ type: 'block_actions' }, (args) => this.#runAction(args));
    app.view({ type: 'view_submission' }, (args) => this.#runView(args));
  }

  action(actionId: string | RegExp, handler: Handler<ActionArgs>): void {
    if (typeof actionId !== 'string') this.#actionPatterns.push([actionId, handler]);
    else if (this.#actions.has(actionId)) throw new Error(`action ${actionId} is registered twice`);
    else this.#actions.set(actionId, handler);
  }

  view(callbackId: string, handler: Handler<ViewArgs>): void {
    if (this.#views.has(callbackId)) throw new Error(`view ${callbackId} is registered twice`);
    this.#views.set(callbackId, handler);
  }

  async #runAction(args: ActionArgs): Promise<void> {
    const id = (args.payload as { action_id?: string }).action_id;
    if (id === undefined) return;
    const handler = this.#actions.get(id) ?? this.#actionPatterns.find(([pattern]) => pattern.test(id))?.[1];
    if (handler !== undefined) await handler(args);
  }

  async #runView(args: ViewArgs): Promise<void> {
    const handler = this.#views.get(args.body.view.callback_id);
    if (handler !== undefined) await handler(args);
  }
}

const tables = new WeakMap<App, InteractionTable>();

/** The app's table, with its two Bolt listeners added on first use. */
export function interactionsOf(app: App): InteractionTable {
  let table = tables.get(app);
  if (table === undefined) {
    table = new InteractionTable(app);
    tables.set(app, table);
  }
  return table;
}
