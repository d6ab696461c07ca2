import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, Authorize, HTTPReceiver as BoltHttpReceiver, Receiver, ReceiverEvent } from '@slack/bolt';
import { HTTPReceiver } from '@slack/bolt';
import type { InstallProviderOptions } from '@slack/oauth';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { AckGate } from './ack-gate.js';
import { toBoltLogger } from './bolt-logger.js';
import { MAX_BODY_BYTES } from './http-front.js';

/** Slack's replay window for signed requests: 5 minutes. */
export const MAX_CLOCK_SKEW_SECONDS = 300;
export interface SlackReceiverOptions {
  signingSecret: string;
  logger: Logger;
  metrics: Metrics;
  /** Counts the requests whose ack has not gone out yet (`AckGate.acksFirst`). */
  gate: AckGate;
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
  readonly #signingSecret: string;
  readonly #gate: AckGate;

  constructor(options: SlackReceiverOptions) {
    this.#metrics = options.metrics;
    this.#gate = options.gate;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
    this.#signingSecret = options.signingSecret;
    this.#inner = new HTTPReceiver({
      signingSecret: options.signingSecret,
      endpoints: ['/slack/events'],
      logger: toBoltLogger(options.logger),
      // Verified by this receiver before Bolt sees a request (`#verify`): never off.
      signatureVerification: false,
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
    const gate = this.#gate;
    // Wrap processEvent so every ack is timed from the moment the request arrived, and counted.
    const timedApp = {
      processEvent: (untracked: ReceiverEvent) =>
        gate.track(untracked, (event) => {
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
            },
          };
          return app.processEvent(timed);
        }),
    };
    this.#inner.init(timedApp as unknown as App);
  }

  readonly requestListener = (req: IncomingMessage, res: ServerResponse): void => {
    this.#receivedAt.set(req, performance.now());
    // Slack's requests are all POSTs to /slack/events; the OAuth routes are Bolt's to answer.
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/slack/events') {
      this.#inner.requestListener(req, res);
      return;
    }
    readBody(req).then(
      (body) => {
        const verdict = this.#verify(req, body);
        if (verdict === 'ssl_check') res.writeHead(200).end();
        else if (verdict !== 'ok') {
          this.#logger.warn({ reason: verdict }, 'refused an unsigned or stale Slack request');
          res.writeHead(verdict === 'too_large' ? 413 : 401).end();
        } else {
          // Verified: Bolt takes the buffered body as it is (its own check is off, see the constructor).
          (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
          this.#inner.requestListener(req, res);
        }
      },
      () => req.destroy(),
    );
  };

  /**
   * Slack's signing scheme (docs/requirements.md R4): HMAC-SHA256 of `v0:{timestamp}:{body}` with the
   * signing secret, compared in constant time, and a timestamp within 5 minutes either way (Bolt only
   * refuses stale ones). Done here rather than by Bolt, whose check runs two more HMACs per request in
   * JavaScript (`tsscmp`) and parses every form twice (issue #17, ack latency). Slack's SSL check
   * (`ssl_check=1`, unsigned) is answered here and goes no further, whatever else its body holds.
   */
  #verify(req: IncomingMessage, body: Buffer): 'ok' | 'ssl_check' | 'too_large' | 'unsigned' | 'stale' {
    if (body.length > MAX_BODY_BYTES) return 'too_large';
    if (
      req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
      body.includes('ssl_check=') &&
      new URLSearchParams(body.toString()).get('ssl_check') === '1'
    )
      return 'ssl_check';
    const timestamp = req.headers['x-slack-request-timestamp'];
    const signature = req.headers['x-slack-signature'];
    if (typeof timestamp !== 'string' || typeof signature !== 'string') return 'unsigned';
    const skew = Math.abs(this.#now() / 1000 - Number(timestamp));
    if (!Number.isFinite(skew) || skew > MAX_CLOCK_SKEW_SECONDS) return 'stale';
    const hmac = createHmac('sha256', this.#signingSecret).update(`v0:${timestamp}:`).update(body);
    const expected = Buffer.from(`v0=${hmac.digest('hex')}`);
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'unsigned';
  }

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

/** The whole body (the HTTP front has checked its declared length), at most one byte past the cap. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.once('end', () =>
      resolve(size > MAX_BODY_BYTES ? Buffer.alloc(MAX_BODY_BYTES + 1) : Buffer.concat(chunks)),
    );
    req.once('error', reject);
  });
}
