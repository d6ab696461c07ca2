import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, Authorize, HTTPReceiver as BoltHttpReceiver, Receiver, ReceiverEvent } from '@slack/bolt';
import type { InstallProviderOptions } from '@slack/oauth';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { HTTPReceiver } from './bolt-core.js';
import { toBoltLogger } from './bolt-logger.js';

/** Slack's replay window for signed requests: 5 minutes. */
export const MAX_CLOCK_SKEW_SECONDS = 300;
/**
 * The longest a handler's after-ack work waits for other requests' acks (see `#acksFirst`): far inside
 * what follow-up work can afford (a trigger_id lives 3 s, a response_url 30 minutes).
 */
const ACKS_FIRST_MAX_MS = 500;
/** Requests of a burst arrive a few ms apart: "all answered" must hold this long to count. */
const QUIET_MS = 20;

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
  readonly #inner: BoltHttpReceiver;
  readonly #receivedAt = new WeakMap<IncomingMessage, number>();
  readonly #metrics: Metrics;
  readonly #now: () => number;
  readonly #logger: Logger;
  /** Requests received whose answer (the ack, or a refusal) has not gone out yet. */
  #unanswered = 0;
  #allAnswered: Array<() => void> = [];
  #quietTimer: NodeJS.Timeout | undefined;

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
            const seconds = (performance.now() - receivedAt) / 1000;
            // Recorded once the answer is on its way: the histogram's label look-up is not on its path.
            await ack(response);
            metrics.ackLatency.observe({ kind, command }, seconds);
            await this.#acksFirst();
          },
        };
        return app.processEvent(timed);
      },
    };
    this.#inner.init(timedApp as unknown as App);
  }

  /**
   * Resolves once every request received so far has been answered (or after ACKS_FIRST_MAX_MS). A
   * handler's work after its ack (registrar reads, Slack calls) competes for the same CPU as the
   * requests still waiting for theirs; under a burst, handing those acks out first keeps each one
   * near the cost of the request alone (docs/requirements.md R1: the 3 s ack), and delays the
   * follow-up work only by the burst's own length.
   */
  #acksFirst(): Promise<void> {
    return new Promise<void>((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#allAnswered = this.#allAnswered.filter((waiting) => waiting !== resume);
        resolve();
      }, ACKS_FIRST_MAX_MS);
      this.#allAnswered.push(resume);
      if (this.#unanswered <= 0) this.#quiet();
    });
  }

  #answered = (): void => {
    this.#unanswered--;
    if (this.#unanswered <= 0) this.#quiet();
  };

  /** Resumes the waiting follow-up work once no request has been waiting for QUIET_MS. */
  #quiet(): void {
    clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => {
      if (this.#unanswered > 0) return;
      const waiting = this.#allAnswered;
      this.#allAnswered = [];
      for (const resume of waiting) resume();
    }, QUIET_MS);
  }

  readonly requestListener = (req: IncomingMessage, res: ServerResponse): void => {
    this.#receivedAt.set(req, performance.now());
    this.#unanswered++;
    clearTimeout(this.#quietTimer);
    let counted = true;
    const answered = () => {
      if (!counted) return;
      counted = false;
      this.#answered();
    };
    res.once('finish', answered);
    res.once('close', answered);
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
