import type { IncomingMessage, ServerResponse } from 'node:http';
import { type App, type Authorize, HTTPReceiver, type Receiver, type ReceiverEvent } from '@slack/bolt';
import type { InstallProviderOptions } from '@slack/oauth';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { toBoltLogger } from './bolt-logger.js';

/** Slack's replay window for signed requests: 5 minutes. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

export interface SlackReceiverOptions {
  signingSecret: string;
  logger: Logger;
  metrics: Metrics;
  now?: () => number;
  oauth?: {
    clientId: string;
    clientSecret: string;
    stateSecret: string;
    scopes: string[];
    installationStore: InstallProviderOptions['installationStore'];
    stateStore?: InstallProviderOptions['stateStore'];
    /** Options of the installer's own Web API client (oauth.v2.access): SLACK_API_URL, timeouts. */
    clientOptions?: InstallProviderOptions['clientOptions'];
  };
}

/**
 * Bolt's HTTPReceiver does the parsing, signature check, ack and OAuth routes; this receiver adds what
 * it lacks (docs/requirements.md R4): it refuses timestamps too far in the *future* as well as the past (Bolt
 * only checks staleness), and it measures ack latency per command. Signature verification has no
 * off switch here. The HTTP server itself belongs to the HTTP front, which calls `requestListener`.
 */
export class SlackHttpReceiver implements Receiver {
  readonly #inner: HTTPReceiver;
  readonly #receivedAt = new WeakMap<IncomingMessage, number>();
  readonly #metrics: Metrics;
  readonly #now: () => number;
  readonly #logger: Logger;

  constructor(options: SlackReceiverOptions) {
    this.#metrics = options.metrics;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
    this.#inner = new HTTPReceiver({
      signingSecret: options.signingSecret,
      endpoints: ['/slack/events'],
      logger: toBoltLogger(options.logger),
      signatureVerification: true,
      processBeforeResponse: false,
      customPropertiesExtractor: (req) => ({ receivedAt: this.#receivedAt.get(req) ?? performance.now() }),
      ...(options.oauth === undefined
        ? {}
        : {
            clientId: options.oauth.clientId,
            clientSecret: options.oauth.clientSecret,
            stateSecret: options.oauth.stateSecret,
            scopes: options.oauth.scopes,
            installationStore: options.oauth.installationStore,
            installerOptions: {
              installPath: '/slack/install',
              redirectUriPath: '/slack/oauth_redirect',
              directInstall: true,
              ...(options.oauth.stateStore === undefined ? {} : { stateStore: options.oauth.stateStore }),
              ...(options.oauth.clientOptions === undefined
                ? {}
                : { clientOptions: options.oauth.clientOptions }),
            },
          }),
    });
  }

  /**
   * OAuth mode's authorize, for the app factory to wrap (serialized token refresh). Deliberately not
   * exposed as `installer`: Bolt would then take it as is and refuse a wrapped `authorize` as well.
   */
  get installerAuthorize(): Authorize<boolean> | undefined {
    const installer = this.#inner.installer;
    return installer === undefined ? undefined : (source) => installer.authorize(source);
  }

  init(app: App): void {
    const metrics = this.#metrics;
    // Wrap processEvent so every ack is timed from the moment the request arrived.
    const timedApp = {
      processEvent: (event: ReceiverEvent) => {
        const receivedAt = Number(event.customProperties?.receivedAt ?? performance.now());
        const { kind, command } = describeEvent(event.body);
        const ack = event.ack;
        const timed: ReceiverEvent = {
          ...event,
          ack: async (response) => {
            metrics.ackLatency.observe({ kind, command }, (performance.now() - receivedAt) / 1000);
            await ack(response);
          },
        };
        return app.processEvent(timed);
      },
    };
    this.#inner.init(timedApp as unknown as App);
  }

  readonly requestListener = (req: IncomingMessage, res: ServerResponse): void => {
    this.#receivedAt.set(req, performance.now());
    const header = req.headers['x-slack-request-timestamp'];
    if (typeof header === 'string') {
      const skew = Math.abs(this.#now() / 1000 - Number(header));
      if (!Number.isFinite(skew) || skew > MAX_CLOCK_SKEW_SECONDS) {
        this.#logger.warn(
          { skewSeconds: Math.round(skew) },
          'refused a Slack request outside the 5-minute window',
        );
        res.writeHead(401).end();
        return;
      }
    }
    this.#inner.requestListener(req, res);
  };

  /** The HTTP front owns the server; Bolt's App.start() is not used in HTTP mode. */
  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}

function describeEvent(body: Record<string, unknown>): { kind: string; command: string } {
  if (typeof body.command === 'string') return { kind: 'command', command: body.command };
  const type = typeof body.type === 'string' ? body.type : 'unknown';
  if (type === 'event_callback') {
    const event = body.event as { type?: unknown } | undefined;
    return { kind: 'event', command: typeof event?.type === 'string' ? event.type : 'unknown' };
  }
  return { kind: type, command: '' };
}
