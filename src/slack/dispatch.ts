import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcut,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';

type Handler<A> = (args: A) => Promise<void>;
type ActionArgs = SlackActionMiddlewareArgs & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs & AllMiddlewareArgs;
type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
type ShortcutArgs = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
type EventArgs<T extends string> = SlackEventMiddlewareArgs<T> & AllMiddlewareArgs;

/** The parts of a request body the dispatch looks at. */
interface Routed {
  type?: string;
  command?: string;
  callback_id?: string;
  view?: { callback_id?: string };
  event?: { type?: string };
}

/**
 * Regdesk's own table of every handler — commands, buttons, modals, shortcuts, events — behind one
 * Bolt middleware, the last of the chain. Bolt runs each of its listeners' middleware chains for
 * every request, a command's included, before its ack can go out: with a listener per kind that was
 * most of Bolt's allocation per request, and the garbage collector's work under a burst (issue #17,
 * ack latency; docs/architecture.md "The path of a slash command"). Here a request costs one look-up.
 * Handlers get Bolt's listener arguments (middleware and listeners see the same ones) with the
 * request's client from `WebClients`. Ids registered
 * as patterns are tried in order after the exact ids; a request nobody handles is left unacked, as
 * Bolt leaves it.
 */
export class SlackDispatch {
  readonly #actions = new Map<string, Handler<ActionArgs>>();
  readonly #actionPatterns: Array<[RegExp, Handler<ActionArgs>]> = [];
  readonly #views = new Map<string, Handler<ViewArgs>>();
  readonly #shortcuts = new Map<string, Handler<ShortcutArgs>>();
  readonly #events = new Map<string, Handler<EventArgs<string>>>();
  #commands: { pattern: RegExp; handler: Handler<CommandArgs> } | undefined;
  #installed = false;

  action(actionId: string | RegExp, handler: Handler<ActionArgs>): void {
    if (typeof actionId !== 'string') this.#actionPatterns.push([actionId, handler]);
    else if (this.#actions.has(actionId)) throw new Error(`action ${actionId} is registered twice`);
    else this.#actions.set(actionId, handler);
  }

  view(callbackId: string, handler: Handler<ViewArgs>): void {
    if (this.#views.has(callbackId)) throw new Error(`view ${callbackId} is registered twice`);
    this.#views.set(callbackId, handler);
  }

  shortcut<S extends SlackShortcut = SlackShortcut>(
    callbackId: string,
    handler: Handler<SlackShortcutMiddlewareArgs<S> & AllMiddlewareArgs>,
  ): void {
    if (this.#shortcuts.has(callbackId)) throw new Error(`shortcut ${callbackId} is registered twice`);
    this.#shortcuts.set(callbackId, handler as Handler<ShortcutArgs>);
  }

  /** One handler per event type (`message` included: Bolt's assistant middleware runs before this). */
  event<T extends string>(type: T, handler: Handler<EventArgs<T>>): void {
    if (this.#events.has(type)) throw new Error(`event ${type} is registered twice`);
    this.#events.set(type, handler as Handler<EventArgs<string>>);
  }

  /** Every slash command matching `pattern`, to one handler (the command router). */
  commands(pattern: RegExp, handler: Handler<CommandArgs>): void {
    this.#commands = { pattern, handler };
  }

  /**
   * Adds the dispatch as the app's last global middleware: after the workspace checks and Bolt's
   * assistant middleware, which take assistant threads' events first.
   */
  install(app: App, clientOf: (args: AllMiddlewareArgs) => WebClient): void {
    if (this.#installed) throw new Error('the dispatch is installed twice');
    this.#installed = true;
    app.use(async (args) => {
      // Listeners added with Bolt's own API (tests' extra features) still run, side by side with
      // Regdesk's own handler, as Bolt runs its listeners. Regdesk's handlers speak through the
      // workspace's view of the process's clients (slack/web-clients.ts), not Bolt's.
      const handler = this.#handlerFor(args);
      await Promise.all([handler?.(withClient(args, clientOf) as never), args.next()]);
    });
  }

  #handlerFor(args: AnyMiddlewareArgs & AllMiddlewareArgs): Handler<never> | undefined {
    const body = args.body as Routed;
    if (typeof body.command === 'string')
      return this.#commands?.pattern.test(body.command) === true ? this.#commands.handler : undefined;
    switch (body.type) {
      case 'block_actions': {
        const id = (args.payload as { action_id?: string }).action_id;
        if (id === undefined) return undefined;
        return this.#actions.get(id) ?? this.#actionPatterns.find(([pattern]) => pattern.test(id))?.[1];
      }
      case 'view_submission':
        return this.#views.get(body.view?.callback_id ?? '');
      case 'message_action':
      case 'shortcut':
        return this.#shortcuts.get(body.callback_id ?? '');
      case 'event_callback':
        return this.#events.get(body.event?.type ?? '');
      default:
        return undefined;
    }
  }
}

/**
 * A handler's arguments with `client` made on first use: most requests (help, a cached look-up's
 * ack) never speak to Slack, and a client made for each would be garbage for each (issue #49).
 */
function withClient<A extends AllMiddlewareArgs>(
  args: A,
  clientOf: (args: AllMiddlewareArgs) => WebClient,
): A {
  let client: WebClient | undefined;
  return Object.defineProperty({ ...args }, 'client', {
    get: () => {
      client ??= clientOf(args);
      return client;
    },
    enumerable: true,
  });
}

const dispatches = new WeakMap<App, SlackDispatch>();

/** The app's dispatch table; `createSlackApp` installs it once every feature has registered. */
export function dispatchOf(app: App): SlackDispatch {
  let dispatch = dispatches.get(app);
  if (dispatch === undefined) {
    dispatch = new SlackDispatch();
    dispatches.set(app, dispatch);
  }
  return dispatch;
}
