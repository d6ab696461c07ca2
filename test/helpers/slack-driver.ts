import { createHmac } from 'node:crypto';
import { newTriggerId } from './fake-slack.js';

/** Slack's request signature: `v0=` + HMAC-SHA256 over `v0:{timestamp}:{raw body}`. */
export function signSlackRequest(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface DriverResponse {
  status: number;
  text: string;
  json(): unknown;
  elapsedMs: number;
}

export interface CommandOptions {
  user?: string;
  team?: string;
  channel?: string;
  responseUrl?: string;
  triggerId?: string;
  enterprise?: string;
}

/** Sends correctly signed slash commands, interactions and events to the app, as Slack would. */
export class SlackDriver {
  #seq = 0;

  constructor(
    readonly baseUrl: string,
    readonly signingSecret: string,
    readonly responseUrlBase: string,
  ) {}

  async send(
    body: string,
    contentType: string,
    options: { timestamp?: number; signature?: string; headers?: Record<string, string> } = {},
  ): Promise<DriverResponse> {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = options.signature ?? signSlackRequest(this.signingSecret, timestamp, body);
    const started = performance.now();
    const res = await fetch(`${this.baseUrl}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature,
        ...options.headers,
      },
      body,
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text), elapsedMs: performance.now() - started };
  }

  /** A slash command as Slack posts it (form-encoded, fields as in Slack's docs). */
  command(command: string, text: string, options: CommandOptions = {}): Promise<DriverResponse> {
    const n = ++this.#seq;
    const form = new URLSearchParams({
      token: 'deprecated-verification-token',
      team_id: options.team ?? 'T0001',
      team_domain: 'acme',
      channel_id: options.channel ?? 'C0001',
      channel_name: 'ops',
      user_id: options.user ?? 'U0001',
      user_name: 'alice',
      command,
      text,
      api_app_id: 'A0001',
      is_enterprise_install: 'false',
      response_url: options.responseUrl ?? `${this.responseUrlBase}/response/cmd-${n}`,
      trigger_id: options.triggerId ?? newTriggerId(),
      ...(options.enterprise === undefined ? {} : { enterprise_id: options.enterprise }),
    });
    return this.send(form.toString(), 'application/x-www-form-urlencoded');
  }

  /** An interactivity payload (block_actions, view_submission …) as Slack posts it. */
  interaction(payload: Record<string, unknown>): Promise<DriverResponse> {
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.send(body, 'application/x-www-form-urlencoded');
  }

  /** An Events API delivery; `retryNum` adds Slack's retry headers. */
  event(
    event: Record<string, unknown>,
    options: { eventId?: string; team?: string; retryNum?: number } = {},
  ): Promise<DriverResponse> {
    const body = JSON.stringify({
      token: 'deprecated-verification-token',
      team_id: options.team ?? 'T0001',
      api_app_id: 'A0001',
      type: 'event_callback',
      event_id: options.eventId ?? `Ev${++this.#seq}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: options.team ?? 'T0001', user_id: 'UBOT', is_bot: true }],
      event,
    });
    const headers: Record<string, string> =
      options.retryNum === undefined
        ? {}
        : { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' };
    return this.send(body, 'application/json', { headers });
  }
}
