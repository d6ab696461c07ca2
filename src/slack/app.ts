import type { AppOptions, Authorize, App as BoltApp, Receiver, ReceiverEvent } from '@slack/bolt';
import { App, SocketModeReceiver } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { Config } from '../config.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import type { Vault } from '../vault/store.js';
import { AckGate } from './ack-gate.js';
import { singleWorkspaceAuth } from './authorize.js';
import { toBoltLogger } from './bolt-logger.js';
import { dispatchOf } from './dispatch.js';
import { serializedRefresh, VaultInstallationStore } from './installation-store.js';
import type { Languages } from './language.js';
import { dedupeEvents, membersOnly } from './middleware.js';
import { SlackHttpReceiver, type SlackReceiverOptions } from './receiver.js';
import { CommandRouter } from './router.js';
import { BOT_SCOPES } from './scopes.js';
import type { ShareableCards } from './share.js';
import { requestClient, tokenForRegdesk, WebClients } from './web-clients.js';

/** What every feature's `register(app, deps)` receives. */
export interface SlackDeps {
  logger: Logger;
  metrics: Metrics;
  /** Request-path Redis (fails fast when Redis is down). */
  redis: Redis;
  keys: KeySpace;
  router: CommandRouter;
  now: () => number;
}

export type Feature = (app: BoltApp, deps: SlackDeps) => void;

export interface SlackAppOptions {
  slack: Config['slack'];
  logger: Logger;
  metrics: Metrics;
  redis: Redis;
  keys: KeySpace;
  features: Feature[];
  /** "Share in channel" on look-up cards: one action for every feature's cards. */
  shareable?: ShareableCards;
  now?: () => number;
  /** OAuth mode keeps installations here. */
  vault?: Vault;
  /** Answers each person in their language (contract §3 "Language"); English when absent. */
  languages?: Languages;
  /** The process's Web API clients, shared with its workers; made here when absent. */
  clients?: WebClients;
}

export interface SlackApp {
  app: BoltApp;
  router: CommandRouter;
  /** Set in HTTP modes: mount on the HTTP front. */
  receiver?: SlackHttpReceiver;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * docs/requirements.md R6: the library default retries for about 30 minutes with no timeout. A slash command's
 * follow-up is useless after that long, so calls time out after 10 s and retry at most 3 times;
 * rate-limited calls wait for Retry-After (logged by the client) and count as a retry.
 */
export function webClientOptions(
  slackApiUrl: string | undefined,
  logger: Logger,
  metrics: Pick<Metrics, 'slackCalls'>,
): WebClientOptions {
  return {
    ...(slackApiUrl === undefined ? {} : { slackApiUrl }),
    fetch: meteredFetch(metrics, slackApiUrl ?? 'https://slack.com/api/'),
    logger: toBoltLogger(logger, 'slack-web'),
    timeout: 10_000,
    retryConfig: { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 5_000, randomize: true },
    rejectRateLimitedCalls: false,
  };
}

/**
 * The Web API's transport, counted: every call of every client (Bolt's and Regdesk's own share these
 * options) by method and outcome, a 429 as such, through the SDK's public `fetch` option. The method
 * is the path after the API's base (`…/api/chat.postMessage`): Slack's method names, a fixed set. A
 * file's bytes go to a one-time upload address instead: counted as `file_upload`, never by address.
 */
function meteredFetch(
  metrics: Pick<Metrics, 'slackCalls'>,
  apiBase: string,
): NonNullable<WebClientOptions['fetch']> {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const api = url.startsWith(apiBase);
    const method = api ? new URL(url).pathname.split('/').pop() || 'unknown' : 'file_upload';
    try {
      const response = await fetch(input, init);
      // The Web API says `ok` in its JSON body; an upload address answers plain text, judged by status.
      const status =
        response.status !== 200 ? String(response.status) : api ? await outcomeOf(response) : 'ok';
      metrics.slackCalls.inc({ method, status });
      return response;
    } catch (error) {
      metrics.slackCalls.inc({ method, status: 'network' });
      throw error;
    }
  };
}

/** `ok` or `error` from the body's `ok` field, read from a clone so the SDK still reads the original. */
async function outcomeOf(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { ok?: unknown };
    return body.ok === true ? 'ok' : 'error';
  } catch {
    return 'error';
  }
}

/** A receiver whose events pass through the gate on their way to the app. */
function countedBy(gate: AckGate, inner: Receiver): Receiver {
  return {
    init: (app) =>
      inner.init({
        processEvent: (event: ReceiverEvent) => gate.track(event, (tracked) => app.processEvent(tracked)),
      } as unknown as BoltApp),
    start: (...args) => inner.start(...args),
    stop: (...args) => inner.stop(...args),
  };
}

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const { slack, logger, metrics } = options;
  const now = options.now ?? Date.now;
  const clientOptions = webClientOptions(slack.apiUrl, logger, metrics);
  const clients = options.clients ?? new WebClients(clientOptions);
  const clientOf = (args: Parameters<typeof requestClient>[1]) => requestClient(clients, args);
  const base: AppOptions = {
    logger: toBoltLogger(logger, 'bolt'),
    clientOptions,
    // Mentions in threads the bot itself started still arrive; the bot's own messages are ignored.
    ignoreSelf: true,
    // Bolt's default conversation store, unused here, rejects (with a new Error and its stack) on
    // every request that names a channel, before the ack (issue #17, ack latency).
    convoStore: false,
  };

  let receiver: SlackHttpReceiver | undefined;
  let app: BoltApp;
  // One bot token (HTTP or Socket Mode): our authorize keeps a successful auth.test and retries a
  // failed one, where Bolt's own would cache a start-up failure for the life of the process.
  const single =
    slack.botToken === undefined || slack.mode === 'http-oauth'
      ? undefined
      : singleWorkspaceAuth(slack.botToken, clientOptions, logger);
  const gate = new AckGate();
  if (slack.mode === 'socket') {
    if (single === undefined) throw new Error('Socket Mode needs SLACK_BOT_TOKEN');
    if (slack.appToken === undefined) throw new Error('Socket Mode needs SLACK_APP_TOKEN');
    // Bolt's own Socket Mode receiver, made as `socketMode: true` would make it, its events counted
    // by the gate as the HTTP receiver's are.
    const socket = new SocketModeReceiver({
      appToken: slack.appToken,
      logger: toBoltLogger(logger, 'bolt'),
    });
    app = new App({
      ...base,
      receiver: countedBy(gate, socket),
      authorize: tokenForRegdesk(single.authorize),
    });
  } else if (slack.mode === 'http-single' || slack.mode === 'http-oauth') {
    if (slack.signingSecret === undefined) throw new Error('SLACK_SIGNING_SECRET is required in HTTP mode');
    const installationStore =
      slack.mode === 'http-oauth' && options.vault !== undefined
        ? new VaultInstallationStore(options.vault)
        : undefined;
    const oauth: SlackReceiverOptions['oauth'] =
      slack.oauth === undefined || installationStore === undefined
        ? undefined
        : { ...slack.oauth, scopes: [...BOT_SCOPES], installationStore, clientOptions };
    receiver = new SlackHttpReceiver({
      signingSecret: slack.signingSecret,
      logger,
      metrics,
      gate,
      now,
      ...(oauth === undefined ? {} : { oauth }),
    });
    const installerAuthorize = receiver.installerAuthorize;
    let authorize: Authorize<boolean>;
    if (installerAuthorize !== undefined && installationStore !== undefined) {
      authorize = serializedRefresh(installerAuthorize, installationStore, options.redis, options.keys, now);
    } else if (single !== undefined) {
      authorize = single.authorize;
    } else {
      throw new Error('HTTP mode needs SLACK_BOT_TOKEN or the OAuth settings');
    }
    app = new App({ ...base, receiver, authorize: tokenForRegdesk(authorize) });
  } else {
    throw new Error('Slack is not configured');
  }

  const router = new CommandRouter(logger, gate);
  const deps: SlackDeps = { logger, metrics, redis: options.redis, keys: options.keys, router, now };
  app.use(dedupeEvents(options.redis, options.keys, logger));
  app.use(membersOnly(logger));
  if (options.languages !== undefined) app.use(options.languages.middleware(clientOf));
  options.shareable?.register(app, logger);
  for (const feature of options.features) feature(app, deps);
  router.attach(app);
  dispatchOf(app).install(app, clientOf);
  app.error(async (error) => {
    // Listener errors are answered by the router; this catches what escapes middleware.
    logger.error({ err: error.message, code: error.code }, 'unhandled Slack error');
  });

  return {
    app,
    router,
    ...(receiver === undefined ? {} : { receiver }),
    start: async () => {
      void single?.warmUp();
      if (slack.mode === 'socket') await app.start();
    },
    stop: async () => {
      if (slack.mode === 'socket') await app.stop();
    },
  };
}
