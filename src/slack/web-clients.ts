import type { AllMiddlewareArgs, Authorize } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';

/**
 * Web API clients per process, whatever the number of workspaces. A `WebClient` costs about 26 KB
 * (every API method is bound on each instance; docs/memory.md); one per token was what made memory
 * grow with every workspace heard from, and making one for each workspace that comes back leaves as
 * much garbage behind (issue #49).
 */
const SHARDS = 8;

/**
 * The Web API clients of one process, shared by its Slack requests and its workers: eight clients
 * without a token, each workspace's calls always on the same one (by its token), each call carrying
 * the workspace's token (the Web API's per-call `token`, which wins over the client's). Eight rather
 * than one: a `WebClient` pauses its whole queue while one call waits out a 429's Retry-After, so a
 * workspace's rate limit holds up only the workspaces that share its client. Regdesk's own pacing
 * stands in front (ChannelPoster: posts 1/s per channel, Tier 3 calls per workspace within their
 * budget), so a 429 is rare.
 */
export class WebClients {
  readonly #shards: WebClient[] = [];

  constructor(readonly options: WebClientOptions) {}

  /** A client that speaks with `token`: a view of the token's shard, made per use (cheap, short-lived). */
  forToken(token: string): WebClient {
    const index = shardOf(token);
    let shard = this.#shards[index];
    if (shard === undefined) {
      shard = new WebClient(undefined, this.options);
      this.#shards[index] = shard;
    }
    return speakingWith(shard, token);
  }

  /** Clients held now (tests and the bench watch the bound). */
  get size(): number {
    return this.#shards.filter((shard) => shard !== undefined).length;
  }
}

/** FNV-1a over the token: a workspace's calls always queue on the same client. */
function shardOf(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SHARDS;
}

type Options = Record<string, unknown> | undefined;
type ApiMethod = (options?: Options) => unknown;

const isNamespace = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `client` as seen by one workspace: every Web API method (`chat.postMessage`, `users.info`,
 * `files.uploadV2` …) and `apiCall`, `paginate` and `filesUploadV2` get `token` in their arguments
 * unless the caller gave one; `token` reads as the workspace's; everything else (the logger, events)
 * is the client's own. Only the SDK's documented shape is relied on: the namespaces are plain objects
 * whose functions are API methods taking one options object.
 */
export function speakingWith(client: WebClient, token: string): WebClient {
  const withToken = (options: Options) => ({ token, ...options });
  const namespace = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property);
        if (typeof value === 'function')
          return (options?: Options) => (value as ApiMethod).call(object, withToken(options));
        return isNamespace(value) ? namespace(value) : value;
      },
    });
  return new Proxy(client, {
    get(object, property) {
      if (property === 'token') return token;
      const value: unknown = Reflect.get(object, property);
      if (typeof value === 'function') {
        const method = value as (...args: unknown[]) => unknown;
        if (property === 'apiCall' || property === 'paginate')
          return (name: string, options: Options, ...rest: unknown[]) =>
            method.call(object, name, withToken(options), ...rest);
        if (property === 'filesUploadV2')
          return (options: Options) => method.call(object, withToken(options));
        return method.bind(object);
      }
      return isNamespace(value) ? namespace(value) : value;
    },
  });
}

/** Where Regdesk's authorization leaves a request's bot token in Bolt's context (AuthorizeResult's own fields are Bolt's). */
const REQUEST_TOKEN = 'regdeskBotToken';

/**
 * Bolt makes a `WebClient` for every bot token its authorize returns as `botToken` and keeps it for
 * the life of the app (App's per-team client pools, which nothing empties; docs/memory.md has the
 * upstream issue). Regdesk's authorization therefore hands the token over in a context field of its
 * own (AuthorizeResult is open to any field, Bolt copies it into the context) and keeps the bot's
 * identity where Bolt looks for it (`botId`, `botUserId`: Bolt's ignoreSelf); Regdesk's middleware
 * and handlers take their client from `WebClients` through `requestClient`.
 */
export function tokenForRegdesk(authorize: Authorize<boolean>): Authorize<boolean> {
  return async (source, body) => {
    // Regdesk asks for no user scopes; a user token (an installation's `user.token`) would get a
    // pooled client of Bolt's all the same, so it is not handed on either.
    const { botToken, userToken: _unused, ...identity } = await authorize(source, body);
    return botToken === undefined ? identity : { ...identity, [REQUEST_TOKEN]: botToken };
  };
}

/** The client a request's listeners speak with: the process's clients, speaking with its workspace's token. */
export function requestClient(
  clients: WebClients,
  args: Pick<AllMiddlewareArgs, 'context' | 'client'>,
): WebClient {
  const token: unknown = args.context[REQUEST_TOKEN];
  return typeof token === 'string' && token !== '' ? clients.forToken(token) : args.client;
}
